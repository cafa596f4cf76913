package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
	"v4t/resolve/batch"
)

// runBatchEnv runs v4t batch ARGS with the environment vars instead of the
// process's (run always reads the process's).
func runBatchEnv(t *testing.T, args []string, vars map[string]string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, g: &globals{},
		getenv: func(name string) (string, bool) { v, ok := vars[name]; return v, ok }}
	var help bool
	fs, exec := batchCommand().flags(e.g, &help)
	require.NoError(t, fs.Parse(args), "v4t batch %s", strings.Join(args, " "))
	return e.exec(exec, fs.Args()), stdout.String(), stderr.String()
}

// withTestdata makes a temporary working directory in which testdata is the
// repository's, so that the examples' paths (and the paths in their
// outputs) are those of the README.
func withTestdata(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	require.NoError(t, err)
	dir := t.TempDir()
	if err := os.Symlink(abs, filepath.Join(dir, "testdata")); err != nil {
		t.Skipf("cannot link testdata: %v", err)
	}
	t.Chdir(dir)
	return dir
}

// smallSpace is a space of 12 runs over the web shop example, for the job
// engine snippets.
const smallSpace = `templates: [testdata/examples/webshop/template.yaml]
presets: [small, [large], [medium]]
inputs: [{backup: [false, true]}]
options: [{mode: [manual, semantic-loose]}]
`

func TestBatchShardAuto(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("t.yaml", []byte("tosca_definitions_version: tosca_variability_1_0\n"), 0o644))
	require.NoError(t, os.WriteFile("space.yaml", []byte("templates: [t.yaml]\ninputs: [{x: [1, 2, 3, 4, 5, 6, 7, 8]}]\n"), 0o644))
	for _, tc := range []struct {
		name  string
		shard string
		env   map[string]string
		runs  []int // the runs listed, or
		err   string
	}{
		{"kubernetes", "auto/3", map[string]string{"JOB_COMPLETION_INDEX": "1"}, []int{2, 5, 8}, ""},
		{"kubernetes with V4T_SHARD_COUNT", "auto", map[string]string{"JOB_COMPLETION_INDEX": "0", "V4T_SHARD_COUNT": "4"}, []int{1, 5}, ""},
		{"slurm at an offset", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "1"}, []int{3, 6}, ""},
		{"slurm with a step", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "2"}, []int{3, 6}, ""},
		{"K/N", "2/2", nil, []int{2, 4, 6, 8}, ""},
		{"no engine", "auto", nil, nil, "error: --shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm job array) is set\nrun 'v4t batch --help' for usage\n"},
		{"kubernetes without a count", "auto", map[string]string{"JOB_COMPLETION_INDEX": "1"}, nil, "error: --shard auto: JOB_COMPLETION_INDEX is set but not the shard count: write --shard auto/N (N: the Job's completions) or set V4T_SHARD_COUNT\nrun 'v4t batch --help' for usage\n"},
		{"slurm without MIN", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, nil, "error: --shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_MIN\nrun 'v4t batch --help' for usage\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runBatchEnv(t, []string{"space.yaml", "--shard", tc.shard, "--commands"}, tc.env)
			if tc.err != "" {
				require.Equal(t, exitUsage, code, tc.name)
				require.Equal(t, tc.err, stderr, tc.name)
				require.Empty(t, stdout, tc.name)
				return
			}
			require.Equal(t, exitOK, code, "%s: %s", tc.name, stderr)
			var want strings.Builder
			for _, n := range tc.runs {
				want.WriteString("v4t resolve --template t.yaml --input x=" + strconv.Itoa(n) + "\n")
			}
			require.Equal(t, want.String(), stdout, tc.name)
		})
	}
}

// TestBatchHelpExample runs the example of v4t batch --help: the summary
// merged from the two shards is the one of the whole space.
func TestBatchHelpExample(t *testing.T) {
	if testing.Short() {
		t.Skip("600 runs")
	}
	withTestdata(t)
	lines := strings.Split(batchCommand().example, "\n")
	require.Len(t, lines, 5)
	for _, line := range lines {
		_, args, err := parseCommand(line)
		require.NoError(t, err, line)
		var stdout, stderr bytes.Buffer
		require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "%s: %s", line, stderr.String())
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"batch", "testdata/batch/motivation.yaml", "--no-timings", "--format", "csv"}, strings.NewReader(""), &stdout, &stderr))
	merged, err := os.ReadFile("summary.csv")
	require.NoError(t, err)
	require.Equal(t, stdout.String(), string(merged), "the merged summary is that of the whole space")
}

// block is a fenced code block of the README.
type block struct {
	info  string
	lines []string
}

// readmeBatchBlocks returns the code blocks of the README's v4t batch
// section.
func readmeBatchBlocks(t *testing.T) []block { return readmeBlocks(t, "### `v4t batch`") }

// readmeBlocks returns the code blocks of the README's section under
// heading (a whole line, "### `v4t batch`" or "## Configuration spaces"),
// up to the next heading of any level.
func readmeBlocks(t *testing.T, heading string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	text := string(data)
	start := strings.Index(text, heading+"\n")
	require.NotEqual(t, -1, start, "the README has a section %s", heading)
	text = text[start+len(heading):]
	if loc := nextHeading.FindStringIndex(text); loc != nil {
		text = text[:loc[0]]
	}
	var blocks []block
	var cur *block
	for l := range strings.SplitSeq(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &block{info: strings.TrimPrefix(l, "```")}
		case cur != nil && l == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	require.Nil(t, cur, "an unclosed code block")
	return blocks
}

// nextHeading finds a Markdown heading line (outside code blocks the README
// has no other lines that start with "# ").
var nextHeading = regexp.MustCompile(`(?m)^#{1,6} `)

var sedLines = regexp.MustCompile(`^sed -n '((?:\d+p;?)+)' (\S+)$`)

// lsLines matches "ls DIR" and "ls DIR | head -N".
var lsLines = regexp.MustCompile(`^ls (\S+)(?: \| head -(\d+))?$`)

// TestBatchReadme runs the examples of the README's v4t batch section: the
// "$ " sessions (v4t, and sed -n 'Np;...' FILE), with their output; the
// space files; and the Kubernetes and Slurm snippets, whose v4t command
// lines run under the environment the engine would give them, before the
// merge line that follows them.
func TestBatchReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("800 runs")
	}
	blocks := readmeBatchBlocks(t)
	dir := withTestdata(t)
	sessions, spaces := 0, 0
	var job, slurm, merge []string
	for _, b := range blocks {
		switch {
		case len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "$ "):
			sessions++
			runSession(t, b.lines)
		case b.info == "yaml" && strings.Contains(strings.Join(b.lines, "\n"), "kind: Job"):
			doc, err := yamlsrc.Parse([]byte(strings.Join(b.lines, "\n")), "job.yaml")
			require.NoError(t, err, "the Job manifest")
			spec := doc.Get("spec")
			require.Equal(t, "Indexed", spec.Get("completionMode").Str())
			require.Equal(t, 3.0, spec.Get("completions").Num())
			require.Equal(t, 3.0, spec.Get("parallelism").Num())
			cmd := spec.Get("template").Get("spec").Get("containers").List()[0].Get("command")
			require.Len(t, cmd.List(), 3, "sh -c COMMAND")
			require.Equal(t, []string{"sh", "-c"}, []string{cmd.List()[0].Str(), cmd.List()[1].Str()})
			job = append(job, cmd.List()[2].Str())
		case b.info == "yaml":
			spaces++
			_, err := batch.ParseSpace([]byte(strings.Join(b.lines, "\n")), "space.yaml")
			require.NoError(t, err, "the space of the README:\n%s", strings.Join(b.lines, "\n"))
		case b.info == "sh":
			require.Contains(t, b.lines, "#SBATCH --array=1-3")
			for _, l := range b.lines {
				if strings.HasPrefix(l, "v4t ") {
					slurm = append(slurm, l)
				}
			}
		case len(b.lines) == 1 && strings.HasPrefix(b.lines[0], "v4t batch merge "):
			merge = append(merge, b.lines[0])
		}
	}
	require.Equal(t, 3, sessions, "the README's v4t batch sessions")
	require.Equal(t, 2, spaces, "the README's space files")
	require.Len(t, job, 1, "the Job manifest's command")
	require.Len(t, slurm, 1, "the Slurm script's command")
	require.Len(t, merge, 1, "the merge line after the snippets")

	// The snippets, on a small space: the Indexed Job's three pods, then
	// the Slurm array's three tasks, and the merge line.
	engines := filepath.Join(dir, "engines")
	require.NoError(t, os.MkdirAll(filepath.Join(engines, "results"), 0o755))
	t.Chdir(engines)
	require.NoError(t, os.Symlink(filepath.Join(dir, "testdata"), "testdata"))
	require.NoError(t, os.WriteFile("space.yaml", []byte(smallSpace), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"batch", "space.yaml", "--no-timings", "--format", "csv"}, strings.NewReader(""), &stdout, &stderr))
	whole := stdout.String()
	engineRun := func(line string, vars map[string]string) {
		line = os.Expand(line, func(name string) string { return vars[name] })
		line = strings.ReplaceAll(line, "/results/", "results/")
		_, args, err := parseCommand(line)
		require.NoError(t, err, line)
		require.Equal(t, "batch", args[0], line)
		code, _, stderr := runBatchEnv(t, args[1:], vars)
		require.Equal(t, exitOK, code, "%s: %s", line, stderr)
	}
	for i := range 3 {
		engineRun(job[0], map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i)})
	}
	code, _, errs := runBatchEnv(t, []string{"merge", "results/shard-0.csv", "results/shard-1.csv", "results/shard-2.csv", "--output", "job.csv"}, nil)
	require.Equal(t, exitOK, code, errs)
	got, err := os.ReadFile("job.csv")
	require.NoError(t, err)
	require.Equal(t, whole, string(got), "the Indexed Job's merged summary")
	for id := 1; id <= 3; id++ {
		engineRun(slurm[0], map[string]string{"SLURM_ARRAY_TASK_ID": strconv.Itoa(id), "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "1"})
	}
	_, args, err := parseCommand(merge[0])
	require.NoError(t, err)
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "%s: %s", merge[0], stderr.String())
	got, err = os.ReadFile("summary.csv")
	require.NoError(t, err)
	require.Equal(t, whole, string(got), "the Slurm array's merged summary")
}

// runSession runs the commands of a "$ " session and compares their output
// (standard output and error together) with the lines that follow them:
// v4t command lines, sed -n 'Np;...' FILE, and ls DIR (| head -N).
func runSession(t *testing.T, lines []string) {
	t.Helper()
	for i := 0; i < len(lines); {
		line := strings.TrimPrefix(lines[i], "$ ")
		var want strings.Builder
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			want.WriteString(lines[i] + "\n")
		}
		var got string
		if m := lsLines.FindStringSubmatch(line); m != nil {
			entries, err := os.ReadDir(m[1])
			require.NoError(t, err, line)
			for i, e := range entries {
				if m[2] != "" && strconv.Itoa(i) == m[2] {
					break
				}
				got += e.Name() + "\n"
			}
		} else if m := sedLines.FindStringSubmatch(line); m != nil {
			data, err := os.ReadFile(m[2])
			require.NoError(t, err, line)
			all := strings.SplitAfter(string(data), "\n")
			for p := range strings.SplitSeq(strings.TrimSuffix(m[1], ";"), ";") {
				n, err := strconv.Atoi(strings.TrimSuffix(p, "p"))
				require.NoError(t, err, line)
				require.LessOrEqual(t, n, len(all), line)
				got += all[n-1]
			}
		} else {
			_, args, err := parseCommand(line)
			require.NoError(t, err, "README: %s", line)
			var out bytes.Buffer
			code := run(args, strings.NewReader(""), &out, &out)
			require.Equal(t, exitOK, code, "README: %s: %s", line, out.String())
			got = out.String()
		}
		require.Equal(t, want.String(), got, "README: %s", line)
	}
}
