package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
	"v4t/resolve"
	"v4t/resolve/batch"
)

// TestBatchRowsMatchResolve spot-checks the 200-run example space: every
// seventh row must say what a single "v4t resolve" with the run's command
// line (v4t batch --commands) says: the same node templates when it
// succeeds, the same error (as the first line) when it fails.
func TestBatchRowsMatchResolve(t *testing.T) {
	space, err := batch.LoadSpace("../../testdata/batch/motivation.yaml")
	require.NoError(t, err)
	require.Len(t, space.Runs, 200)
	res := batch.Execute(context.Background(), space, batch.Options{Jobs: 2})
	okSeen, failedSeen := 0, 0
	for i := 0; i < len(res.Rows); i += 7 {
		row := res.Rows[i]
		args := append([]string{"resolve"}, row.Run.ResolveArgs()...)
		code, stdout, stderr := runCLI(args...)
		name := row.Run.ID + ": v4t " + strings.Join(args, " ")
		switch row.Status {
		case batch.OK:
			okSeen++
			require.Equal(t, exitOK, code, "%s: %s", name, stderr)
			doc, err := yamlsrc.Parse([]byte(stdout), row.Run.ID)
			require.NoError(t, err, name)
			got := doc.Get("topology_template").Get("node_templates").Map().Keys()
			want := append([]string(nil), row.Report.Nodes...)
			sort.Strings(got)
			sort.Strings(want)
			require.Equal(t, want, got, name)
		case batch.Failed:
			failedSeen++
			require.Equal(t, exitRejected, code, name)
			d := testkit.Diagnostic(t, row.Err, name)
			line := "error: " + d.Message + "\n"
			if d.Pos.Known() {
				line = "error: " + d.Pos.String() + ": " + d.Message + "\n"
			}
			// The error line comes first; the problems v4t validate finds
			// in the template follow it.
			first, rest, _ := strings.Cut(stderr, "\n")
			require.Equal(t, line, first+"\n", name)
			for l := range strings.SplitSeq(strings.TrimSuffix(rest, "\n"), "\n") {
				if l != "" {
					require.True(t, strings.HasPrefix(l, "  problem: ") || strings.HasPrefix(l, "  … and "), "%s: unexpected line %q", name, l)
				}
			}
		default:
			t.Fatalf("%s was not run", row.Run.ID)
		}
	}
	require.NotZero(t, okSeen, "some checked rows succeed")
	require.NotZero(t, failedSeen, "some checked rows fail")
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &batchProgress{w: &buf, bar: true, now: func() time.Time { return now }}
	p.update(50, 3, 200)
	p.finish()
	require.Equal(t, "\r[#######.......................] 50/200 runs, 3 failed\r\033[K", buf.String())

	// Redraws come at most every barEvery, and the last run's always.
	buf.Reset()
	p = &batchProgress{w: &buf, bar: true, now: func() time.Time { return now }}
	p.update(1, 0, 4)
	p.update(2, 0, 4)
	now = now.Add(barEvery)
	p.update(3, 1, 4)
	p.update(4, 1, 4)
	require.Equal(t, "\r[#######.......................] 1/4 runs, 0 failed"+
		"\r[######################........] 3/4 runs, 1 failed"+
		"\r[##############################] 4/4 runs, 1 failed", buf.String())
}

// TestProgressLines checks the progress lines of a batch whose standard
// error is not a terminal, on a clock the test moves.
func TestProgressLines(t *testing.T) {
	start := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{"the issue's example", 120, 200, 12 * time.Second, "batch: 120 of 200 runs, 0:12 elapsed, about 0:08 left\n"},
		{"no run finished yet", 0, 200, 5 * time.Second, "batch: 0 of 200 runs, 0:05 elapsed\n"},
		{"rounded estimate", 3, 10, 10*time.Second + 400*time.Millisecond, "batch: 3 of 10 runs, 0:10 elapsed, about 0:24 left\n"},
		{"minutes", 1, 3, 95 * time.Second, "batch: 1 of 3 runs, 1:35 elapsed, about 3:10 left\n"},
		{"hours", 1, 2, 3*time.Hour + 2*time.Minute + 1*time.Second, "batch: 1 of 2 runs, 3:02:01 elapsed, about 3:02:01 left\n"},
		{"all done", 4, 4, 20 * time.Second, "batch: 4 of 4 runs, 0:20 elapsed, about 0:00 left\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			now := start
			p := &batchProgress{w: &buf, now: func() time.Time { return now }, start: start, total: tc.total}
			if tc.done > 0 {
				p.update(tc.done, 0, tc.total)
			}
			now = start.Add(tc.elapsed)
			p.line()
			require.Equal(t, tc.want, buf.String(), tc.name)
		})
	}
}

// TestProgressTicks checks that lines come on the ticks only, and none
// after finish.
func TestProgressTicks(t *testing.T) {
	start := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	now := start
	var buf bytes.Buffer
	p := &batchProgress{w: &buf, now: func() time.Time { return now }, start: start, total: 10}
	ticks := make(chan time.Time)
	stopped := false
	p.lines(ticks, func() { stopped = true })
	// lines waits until n lines are written: a tick is received before
	// its line is.
	lines := func(n int) {
		require.Eventually(t, func() bool {
			p.mu.Lock()
			defer p.mu.Unlock()
			return strings.Count(buf.String(), "\n") == n
		}, 10*time.Second, time.Millisecond, "line %d", n)
	}
	p.update(5, 1, 10)
	now = start.Add(5 * time.Second)
	ticks <- now
	lines(1)
	p.update(8, 1, 10)
	now = start.Add(8 * time.Second)
	ticks <- now
	lines(2)
	p.update(10, 1, 10)
	p.finish()
	require.True(t, stopped, "finish stops the ticker")
	require.Equal(t, "batch: 5 of 10 runs, 0:05 elapsed, about 0:05 left\nbatch: 8 of 10 runs, 0:08 elapsed, about 0:02 left\n", buf.String())
}

// TestProgressTarget checks where progress goes: a bar on a terminal
// (not tested here), lines on a file or a pipe, but none for a batch that
// ends before the first interval, and nothing on other writers.
func TestProgressTarget(t *testing.T) {
	var buf bytes.Buffer
	p := startBatchProgress(&buf, 3)
	require.False(t, p.bar, "a buffer is not a terminal")
	require.Nil(t, p.stop, "no lines on a buffer")
	p.update(3, 0, 3)
	p.finish()
	require.Empty(t, buf.String(), "nothing on a buffer")

	// A character device that is not a terminal gets lines, not a bar.
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer null.Close()
		p = startBatchProgress(null, 3)
		require.False(t, p.bar, "%s is not a terminal", os.DevNull)
		require.NotNil(t, p.stop, "lines on %s", os.DevNull)
		p.finish()
	}

	r, w, err := os.Pipe()
	require.NoError(t, err)
	p = startBatchProgress(w, 3)
	require.False(t, p.bar, "a pipe is not a terminal")
	require.NotNil(t, p.stop, "lines on a pipe")
	p.update(3, 0, 3)
	p.finish()
	require.NoError(t, w.Close())
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Empty(t, string(data), "no line for a batch shorter than %s", progressEvery)
}

// TestBatchOut checks --out: a new or empty directory is written, a
// non-empty one is refused without --force, and --force replaces the
// result files in it (for a shard, those of its own runs) and keeps the
// others.
func TestBatchOut(t *testing.T) {
	const template = `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs:
            big: {type: boolean}
        options: {type_default_condition: true}
    node_templates:
        vm: {type: vm, conditions: {not: {variability_input: big}}}
        cluster: {type: cluster, conditions: {variability_input: big}}
`
	// run-001 and run-003 resolve, run-002 and run-004 (an unknown
	// preset) fail.
	const space = "templates: [shop.yaml]\npresets: [[], [huge]]\ninputs: [{big: [false, true]}]\n"
	results := []string{"run-001-shop-defaults.yaml", "run-002-shop-defaults.yaml"}
	refused := "error: --out out: the directory is not empty (--force replaces the result files in it and keeps the others)\nrun 'v4t batch --help' for usage\n"
	for _, tc := range []struct {
		name   string
		before []string // files in out before the batch (nil: no out)
		args   []string
		code   int
		stderr string
		// after are the files in out afterwards: the results of this
		// batch, and old files kept.
		results, kept []string
	}{
		{"a new directory", nil, nil, exitOK, "", results, nil},
		{"an empty directory", []string{}, nil, exitOK, "", results, nil},
		{"a non-empty directory", []string{"notes.txt"}, nil, exitUsage, refused, nil, []string{"notes.txt"}},
		{"only result files", results[:1], nil, exitUsage, refused, nil, results[:1]},
		{
			"--force", []string{"notes.txt", "run-001.yaml", "run-004-shop-huge.yaml", "run-009-old-defaults.yaml", "run-010.yml", "run-x.yaml"}, []string{"--force"}, exitOK, "",
			results, []string{"notes.txt", "run-010.yml", "run-x.yaml"},
		},
		{
			"--force on a shard", []string{"notes.txt", "run-001.yaml", "run-002-shop-defaults.yaml", "run-003-shop-huge.yaml", "run-004.yaml", "run-009-old-defaults.yaml"}, []string{"--force", "--shard", "2/2"}, exitOK, "",
			results[1:], []string{"notes.txt", "run-001.yaml", "run-003-shop-huge.yaml", "run-009-old-defaults.yaml"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			files := map[string]string{"shop.yaml": template, "space.yaml": space}
			for _, f := range tc.before {
				files["out/"+f] = "old\n"
			}
			testkit.WriteFiles(t, ".", files)
			if tc.before != nil {
				require.NoError(t, os.MkdirAll("out", 0o755))
			}
			args := append([]string{"batch", "space.yaml", "--out", "out", "--no-timings", "--output", "summary.txt"}, tc.args...)
			code, _, stderr := runCLI(args...)
			require.Equal(t, tc.code, code, "v4t %s: %s", strings.Join(args, " "), stderr)
			if tc.code != exitOK {
				require.Equal(t, tc.stderr, stderr, tc.name)
			}
			entries, err := os.ReadDir("out")
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			want := append(slices.Clone(tc.results), tc.kept...)
			sort.Strings(want)
			require.Equal(t, want, names, tc.name)
			for _, f := range tc.results {
				data, err := os.ReadFile(filepath.Join("out", f))
				require.NoError(t, err)
				require.Contains(t, string(data), "tosca_definitions_version", "%s: %s is a result", tc.name, f)
			}
			for _, f := range tc.kept {
				data, err := os.ReadFile(filepath.Join("out", f))
				require.NoError(t, err)
				require.Equal(t, "old\n", string(data), "%s: %s is kept", tc.name, f)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"mode=semantic-loose", "mode=semantic-loose"},
		{"tags=[a, b]", "'tags=[a, b]'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
	} {
		require.Equal(t, tc.want, shellQuote(tc.in), tc.in)
	}
}

// TestCompareOutMatchesResolve runs compare --out DIR --format json on the
// examples and checks every mode: the file of a mode that resolved is,
// byte for byte, what v4t resolve writes with the same flags and --option
// NAME=VALUE for each of the mode's options; a mode that failed has no
// file (a stale one is removed) and v4t resolve fails too. Before the
// comparison, DIR holds a stale file for every mode.
func TestCompareOutMatchesResolve(t *testing.T) {
	withTestdata(t)
	for _, tc := range []struct {
		name string
		args []string // the flags that compare and resolve share
	}{
		{"compare example", []string{"--template", "testdata/compare/template.yaml"}},
		{"motivation, elastic", []string{"--template", "testdata/examples/motivation/variable-service-template.yaml", "--preset", "elastic", "--input", "premium=true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "modes")
			require.NoError(t, os.MkdirAll(out, 0o755))
			for _, m := range batch.Modes(true, true) {
				require.NoError(t, os.WriteFile(filepath.Join(out, batch.ModeFileName(m)), []byte("stale\n"), 0o644))
			}
			args := append([]string{"compare", "--out", out, "--format", "json", "-j", "2"}, tc.args...)
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "v4t %s: %s", strings.Join(args, " "), stderr.String())
			var got struct {
				Modes []struct {
					Mode    int
					Options map[string]any
					Own     bool
					Status  string
					File    string
				}
			}
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
			require.Len(t, got.Modes, 18)
			ok, failed, own := 0, 0, 0
			var files []string
			for _, m := range got.Modes {
				// The flags, then the mode's options in their order.
				rargs := append([]string{"resolve"}, tc.args...)
				for _, a := range batch.Modes(true, true)[m.Mode-1] {
					rargs = append(rargs, "--option", a.Name+"="+resolve.Flow(a.Value))
				}
				want := filepath.Join(t.TempDir(), "resolved.yaml")
				rargs = append(rargs, "--output", want)
				code, _, rerr := runCLI(rargs...)
				file := filepath.Join(out, batch.ModeFileName(batch.Modes(true, true)[m.Mode-1]))
				name := filepath.Base(file) + ": v4t " + strings.Join(rargs, " ")
				if m.Own {
					own++
				}
				if m.Status != "ok" {
					failed++
					require.NotEqual(t, exitOK, code, "%s resolves, but the mode failed", name)
					require.NoFileExists(t, file, "%s: the mode failed", name)
					require.Empty(t, m.File, name)
					continue
				}
				ok++
				require.Equal(t, exitOK, code, "%s: %s", name, rerr)
				require.Equal(t, file, m.File, name)
				wantData, err := os.ReadFile(want)
				require.NoError(t, err, name)
				gotData, err := os.ReadFile(file)
				require.NoError(t, err, name)
				require.Equal(t, string(wantData), string(gotData), "%s: the file of the mode", name)
				files = append(files, filepath.Base(file))
			}
			require.NotZero(t, ok, "some modes resolve")
			require.NotZero(t, failed, "some modes fail")
			require.Equal(t, 1, own, "one mode is the template's own")
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			sort.Strings(files)
			require.Equal(t, files, names, "DIR holds the files of the modes that resolved, and nothing else")
		})
	}
}

// TestCompareReadme runs the "$ " sessions of the README's v4t compare
// section, with their output.
func TestCompareReadme(t *testing.T) {
	blocks := readmeBlocks(t, "### `v4t compare`")
	withTestdata(t)
	sessions := 0
	for _, b := range blocks {
		if len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "$ ") {
			sessions++
			runSession(t, b.lines)
		}
	}
	require.Equal(t, 2, sessions, "the README's v4t compare sessions")
}

// --stages adds the solver's counts (and, with timings, the stage times)
// after the columns a batch writes without it, which stay as they are, and
// counts on standard error how the resolved runs were solved: most runs of
// the motivation space are settled by propagation, none needs gophersat.
func TestBatchStages(t *testing.T) {
	space := "../../testdata/batch/motivation.yaml"
	plain, _ := runOK(t, "batch", space, "--no-timings", "--format", "csv")
	staged, stderr := runOK(t, "batch", space, "--no-timings", "--format", "csv", "--stages")
	require.Contains(t, stderr, "solver: 86 resolved runs: 80 settled by propagation, 6 by v4t's own search, 0 with SAT calls (0 in all)\n")
	plainLines := strings.Split(strings.TrimSuffix(plain, "\n"), "\n")
	stagedLines := strings.Split(strings.TrimSuffix(staged, "\n"), "\n")
	require.Len(t, stagedLines, len(plainLines))
	require.Equal(t, plainLines[0]+",sat_calls,own_searches", stagedLines[0])
	own := 0
	for i := 1; i < len(plainLines); i++ {
		// The counts hold no commas: they are the last two cells.
		line := stagedLines[i]
		j := strings.LastIndexByte(line, ',')
		j = strings.LastIndexByte(line[:j], ',')
		before, counts := line[:j], line[j+1:]
		require.Equal(t, plainLines[i], before, "row %d", i)
		if strings.Contains(before, ",ok,") {
			require.Regexp(t, `^0,\d+$`, counts, "row %d", i)
			if counts != "0,0" {
				own++
			}
		} else {
			require.Equal(t, ",", counts, "row %d: a failed run has no counts", i)
		}
	}
	require.Equal(t, 6, own)

	timed, _ := runOK(t, "batch", space, "--format", "csv", "--stages")
	header, _, _ := strings.Cut(timed, "\n")
	require.Equal(t, plainLines[0]+",ms,parse_ms,enrich_ms,graph_ms,encode_ms,solve_ms,transform_ms,emit_ms,sat_calls,own_searches", header)
}
