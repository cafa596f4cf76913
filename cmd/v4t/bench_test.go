package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// asMainEnv makes the test binary act as v4t, so that v4t bench, which runs
// its measurements in child processes of its own executable, can be tested
// in-process: the children it starts are this binary.
const asMainEnv = "V4T_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Setenv(asMainEnv, "1")
	os.Exit(testkit.CorporaMain(m)) // m.Run, and a line on the corpus tests that did not run
}

// TestBenchJSON checks the structure of v4t bench's JSON report; its
// figures vary from run to run, so only their consistency is checked.
func TestBenchJSON(t *testing.T) {
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--family", "ring,choice", "--seeds", "10", "--runs", "3", "--format", "json", "--write", "gen"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	assert.Empty(t, stderr.String(), "no progress when stderr is not a terminal")

	var rep benchReport
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep), "report: %s", stdout.String())
	assert.Equal(t, 3, rep.Runs)
	assert.Equal(t, "min-max", rep.Spread)
	assert.Positive(t, rep.CPUs)
	require.Len(t, rep.Results, 2)
	for i, want := range []struct {
		family    string
		templates int
	}{{"ring", 40}, {"choice", 30}} {
		r := rep.Results[i]
		assert.Equal(t, want.family, r.Family)
		assert.Equal(t, "resolve", r.Measures)
		assert.Equal(t, 10, r.Seed)
		assert.Equal(t, want.templates, r.Templates, "%s: templates", r.Family)
		assert.Equal(t, filepath.Join("gen", want.family+"-10.yaml"), r.Template)
		assert.Equal(t, filepath.Join("gen", want.family+"-10.inputs.yaml"), r.Inputs)
		st, err := os.Stat(r.Template)
		require.NoError(t, err, "--write keeps the template")
		assert.Equal(t, st.Size(), r.TemplateBytes)
		assert.FileExists(t, r.Inputs)
		assert.Nil(t, r.Reference, "%s: no reference without --reference", r.Family)
		assert.Nil(t, r.Comparison)

		v := r.V4T
		assert.Equal(t, 3, v.Runs)
		assert.Empty(t, v.Error)
		checkStat(t, r.Family+" wall", v.Wall, true)
		checkStat(t, r.Family+" cpu", v.CPU, false)
		checkStat(t, r.Family+" peak memory", v.PeakMemory, false)
		assert.InDelta(t, float64(r.Templates)/(v.Wall.Median/1000), v.TemplatesPerSecond, 1e-6*v.TemplatesPerSecond, "%s: templates per second", r.Family)
		require.NotNil(t, v.Stages, "%s: stages", r.Family)
		var sum float64
		for _, s := range v.Stages.stages() {
			checkStat(t, r.Family+" "+s.name, s.st, false)
			sum += s.st.Min
		}
		assert.Positive(t, v.Stages.Parse.Median, "%s: parse", r.Family)
		assert.Less(t, sum, v.Wall.Max, "%s: the stages fit in the wall time", r.Family)
	}
}

// checkStat checks that a statistic is ordered, and positive if it must be.
func checkStat(t *testing.T, what string, s stat, positive bool) {
	t.Helper()
	assert.LessOrEqual(t, s.Min, s.Median, what)
	assert.LessOrEqual(t, s.Median, s.Max, what)
	assert.GreaterOrEqual(t, s.Min, 0.0, what)
	if positive {
		assert.Positive(t, s.Min, what)
	}
}

// TestBenchFormats checks the markdown and CSV reports of one run.
func TestBenchFormats(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, format := range []string{"markdown", "csv"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"bench", "--family", "pruning", "--seeds", "2", "--runs", "1", "--format", format}, strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, exitOK, code, "%s: stderr: %s", format, stderr.String())
		out := stdout.String()
		switch format {
		case "markdown":
			assert.Contains(t, out, "| family | seed | templates | size | wall | CPU | peak memory | templates/s |")
			assert.Contains(t, out, "| pruning | 2 | 20 |")
			assert.Contains(t, out, "| family | seed | parse | enrich | graph | encode | solve | transform | emit |")
		case "csv":
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, 2, "header and one row: %s", out)
			head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
			assert.Equal(t, len(head), len(row), "csv columns")
			assert.Equal(t, []string{"family", "seed", "templates", "template_bytes", "tool", "measures", "runs"}, head[:7])
			assert.Equal(t, []string{"pruning", "2", "20"}, row[:3])
			assert.Equal(t, []string{"v4t", "resolve"}, row[4:6])
			assert.Contains(t, head, "solve_ms_median")
		}
	}
}

// TestBenchSpaceFamilies times the configuration-space families, which run
// analyze, enumerate --count or sample instead of resolve: the report says
// what was measured, has no stage timings for them, and does not run the
// reference on them.
func TestBenchSpaceFamilies(t *testing.T) {
	t.Chdir(t.TempDir())
	measures := map[string]string{
		"chain": "analyze", "conflict": "analyze", "hub": "enumerate --count",
		"sample": "sample --uniform 1000", "pairwise": "sample --pairwise",
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--family", "chain,conflict,hub,sample,pairwise", "--seeds", "4", "--runs", "1", "--format", "json", "--write", "gen"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	var rep benchReport
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep), "report: %s", stdout.String())
	require.Len(t, rep.Results, 5)
	for i, name := range []string{"chain", "conflict", "hub", "sample", "pairwise"} {
		r := rep.Results[i]
		assert.Equal(t, name, r.Family)
		assert.Equal(t, measures[name], r.Measures, "%s: measures", name)
		assert.Equal(t, filepath.Join("gen", name+"-4.yaml"), r.Template)
		assert.FileExists(t, r.Template)
		assert.Empty(t, r.Inputs, "%s: no inputs", name)
		assert.NoFileExists(t, filepath.Join("gen", name+"-4.inputs.yaml"))
		assert.Equal(t, 1, r.V4T.Runs)
		checkStat(t, name+" wall", r.V4T.Wall, true)
		assert.Nil(t, r.V4T.Stages, "%s: no stage timings", name)
		assert.Nil(t, r.Reference, "%s: no reference without --reference", name)
	}

	// Markdown: a measures column; stages only for the resolve families.
	stdout.Reset()
	code = run([]string{"bench", "--family", "ring,chain", "--seeds", "3", "--runs", "1"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "| family | measures | seed | templates | size | wall | CPU | peak memory | templates/s |\n|---|---|---:|")
	assert.Contains(t, out, "| ring | resolve | 3 | 12 |")
	assert.Contains(t, out, "| chain | analyze | 3 | 6 |")
	assert.Contains(t, out, "| family | seed | parse |")
	assert.Regexp(t, `(?m)^\| ring \| 3 \| [0-9.]+ [µm]?s`, out, "ring's stages")
	assert.NotRegexp(t, `(?m)^\| chain \| 3 \|`, out, "chain has no stage row")

	// Without a resolve family there is no stage table.
	stdout.Reset()
	code = run([]string{"bench", "--family", "hub", "--seeds", "3", "--runs", "1"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	assert.Contains(t, stdout.String(), "| hub | enumerate --count | 3 | 4 |")
	assert.NotContains(t, stdout.String(), "stages")

	// CSV: the measures column, and empty stage cells.
	stdout.Reset()
	code = run([]string{"bench", "--family", "pairwise", "--seeds", "3", "--runs", "1", "--format", "csv"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 2, "header and one row: %s", stdout.String())
	head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	require.Equal(t, len(head), len(row), "csv columns")
	assert.Equal(t, []string{"pairwise", "3", "6"}, row[:3])
	assert.Equal(t, "sample --pairwise", row[slices.Index(head, "measures")])
	assert.Empty(t, row[slices.Index(head, "parse_ms_median")])
}

// TestBenchSpaceNotComparable: with --reference, the configuration-space
// families say "not comparable" instead of running the reference, which
// cannot count or sample; the resolve families still run it.
func TestBenchSpaceNotComparable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in for node is a shell script")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	exe, err := os.Executable()
	require.NoError(t, err)
	// The stand-in resolves like the reference and leaves a mark, so that
	// a run on a space family shows.
	script := "#!/bin/sh\nshift\necho \"$@\" >> node-runs\nexec \"" + exe + "\" resolve \"$@\"\n"
	require.NoError(t, os.WriteFile("fake-node", []byte(script), 0o755))
	require.NoError(t, os.WriteFile("case.js", []byte("// not run\n"), 0o644))
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--family", "wide,chain,sample", "--seeds", "3", "--runs", "1", "--format", "json", "--reference", "case.js", "--node", filepath.Join(dir, "fake-node")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	var rep benchReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	require.Len(t, rep.Results, 3)
	require.NotNil(t, rep.Results[0].Reference)
	assert.Empty(t, rep.Results[0].Reference.Error, "wide is compared")
	assert.NotNil(t, rep.Results[0].Comparison)
	for _, r := range rep.Results[1:] {
		require.NotNil(t, r.Reference, r.Family)
		assert.Equal(t, "not comparable: the reference only resolves", r.Reference.Error, r.Family)
		assert.Zero(t, r.Reference.Runs, r.Family)
		assert.Nil(t, r.Comparison, r.Family)
	}
	runs, err := os.ReadFile("node-runs")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(runs), "--template"), "the reference ran once, on wide: %s", runs)

	stdout.Reset()
	code = run([]string{"bench", "--family", "chain", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", filepath.Join(dir, "fake-node")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	assert.Contains(t, stdout.String(), "| not comparable: the reference only resolves | | | | |")
}

// TestBenchReference runs the reference's side of v4t bench with a stand-in
// for node that copies v4t's own result, so that the comparison is tested
// without Node.js.
func TestBenchReference(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in for node is a shell script")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	// The stand-in "node" resolves with this test binary (as v4t), which
	// the environment makes act as the main program.
	exe, err := os.Executable()
	require.NoError(t, err)
	script := "#!/bin/sh\n# $1 is case.js; then --template T --inputs I --output O\nshift\nexec \"" + exe + "\" resolve \"$@\"\n"
	require.NoError(t, os.WriteFile("fake-node", []byte(script), 0o755))
	require.NoError(t, os.WriteFile("case.js", []byte("// not run\n"), 0o644))
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--family", "wide", "--seeds", "3", "--runs", "1", "--format", "json", "--reference", "case.js", "--node", filepath.Join(dir, "fake-node")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	var rep benchReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	require.Len(t, rep.Results, 1)
	r := rep.Results[0]
	require.NotNil(t, r.Reference)
	assert.Empty(t, r.Reference.Error)
	assert.Equal(t, 1, r.Reference.Runs)
	assert.Nil(t, r.Reference.Stages)
	require.NotNil(t, r.Comparison)
	assert.True(t, r.Comparison.SameDocument)
	assert.True(t, r.Comparison.SameBytes)
	assert.Positive(t, r.Comparison.Speedup)

	// A failing reference is reported, not fatal.
	require.NoError(t, os.WriteFile("fake-node", []byte("#!/bin/sh\necho 'JavaScript heap out of memory' >&2\nexit 134\n"), 0o755))
	stdout.Reset()
	code = run([]string{"bench", "--family", "wide", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", filepath.Join(dir, "fake-node")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	assert.Contains(t, stdout.String(), "| exit status 134: JavaScript heap out of memory |")

	// So is one that runs too long.
	require.NoError(t, os.WriteFile("fake-node", []byte("#!/bin/sh\nexec sleep 10\n"), 0o755))
	stdout.Reset()
	code = run([]string{"bench", "--family", "wide", "--seeds", "3", "--runs", "1", "--format", "json", "--reference", "case.js", "--reference-timeout", "200ms", "--node", filepath.Join(dir, "fake-node")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	rep = benchReport{}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	require.NotNil(t, rep.Results[0].Reference)
	assert.Equal(t, "did not finish in 200ms", rep.Results[0].Reference.Error)
	assert.Nil(t, rep.Results[0].Comparison)
}

func TestBenchHelpers(t *testing.T) {
	stats := []struct {
		in   []float64
		want stat
	}{
		{nil, stat{}},
		{[]float64{3}, stat{3, 3, 3}},
		{[]float64{5, 1, 3}, stat{3, 1, 5}},
		{[]float64{4, 1, 3, 2}, stat{2.5, 1, 4}},
	}
	for _, tc := range stats {
		assert.Equal(t, tc.want, newStat(tc.in), "newStat(%v)", tc.in)
	}
	summaries := []struct{ in, want string }{
		{"", ""},
		{"boom\n", "boom"},
		{"MINISAT-out: Cannot enlarge memory arrays.\nabort() at Error\n    at x\nundefined\n", "MINISAT-out: Cannot enlarge memory arrays. … undefined"},
		{strings.Repeat("é", 150), strings.Repeat("é", 100) + "…"},
	}
	for _, tc := range summaries {
		assert.Equal(t, tc.want, summary(tc.in), "summary(%q)", tc.in)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567"} {
		assert.Equal(t, want, thousands(n), "thousands(%d)", n)
	}
	assert.Equal(t, "1.51 s", formatMS(1507.6))
	assert.Equal(t, "14.5 ms", formatMS(14.5))
	assert.Equal(t, "700 µs", formatMS(0.7))
	assert.Equal(t, "3.76 GiB", formatMB(3852))
}
