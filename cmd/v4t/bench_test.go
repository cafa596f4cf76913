package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

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
	rep, stderr := benchJSON(t, "--family", "ring,choice", "--seeds", "10", "--runs", "3", "--write", "gen")
	require.Empty(t, stderr, "no progress when stderr is not a terminal")
	require.Equal(t, 3, rep.Runs)
	require.Equal(t, "min-max", rep.Spread)
	require.Positive(t, rep.CPUs)
	require.Len(t, rep.Results, 2)
	for i, want := range []struct {
		family    string
		templates int
	}{{"ring", 40}, {"choice", 30}} {
		r := rep.Results[i]
		require.Equal(t, want.family, r.Family)
		require.Equal(t, "resolve", r.Measures)
		require.Equal(t, 10, r.Seed)
		require.Equal(t, want.templates, r.Templates, "%s: templates", r.Family)
		require.Equal(t, filepath.Join("gen", want.family+"-10.yaml"), r.Template)
		require.Equal(t, filepath.Join("gen", want.family+"-10.inputs.yaml"), r.Inputs)
		st, err := os.Stat(r.Template)
		require.NoError(t, err, "--write keeps the template")
		require.Equal(t, st.Size(), r.TemplateBytes)
		require.FileExists(t, r.Inputs)
		require.Nil(t, r.Reference, "%s: no reference without --reference", r.Family)
		require.Nil(t, r.Comparison)

		v := r.V4T
		require.Equal(t, 3, v.Runs)
		require.Empty(t, v.Error)
		checkStat(t, r.Family+" wall", v.Wall, true)
		checkStat(t, r.Family+" cpu", v.CPU, false)
		checkStat(t, r.Family+" peak memory", v.PeakMemory, false)
		require.InDelta(t, float64(r.Templates)/(v.Wall.Median/1000), v.TemplatesPerSecond, 1e-6*v.TemplatesPerSecond, "%s: templates per second", r.Family)
		require.NotNil(t, v.Stages, "%s: stages", r.Family)
		var sum float64
		for _, s := range v.Stages.stages() {
			checkStat(t, r.Family+" "+s.name, s.st, false)
			sum += s.st.Min
		}
		require.Positive(t, v.Stages.Parse.Median, "%s: parse", r.Family)
		require.Less(t, sum, v.Wall.Max, "%s: the stages fit in the wall time", r.Family)
	}
}

// benchJSON runs v4t bench with args and --format json, and returns its
// report, decoded strictly, and its standard error.
func benchJSON(t *testing.T, args ...string) (benchReport, string) {
	t.Helper()
	stdout, stderr := runOK(t, append(append([]string{"bench"}, args...), "--format", "json")...)
	var rep benchReport
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep), "report: %s", stdout)
	return rep, stderr
}

// checkStat checks that a statistic is ordered, and positive if it must be.
func checkStat(t *testing.T, what string, s stat, positive bool) {
	t.Helper()
	require.LessOrEqual(t, s.Min, s.Median, what)
	require.LessOrEqual(t, s.Median, s.Max, what)
	require.GreaterOrEqual(t, s.Min, 0.0, what)
	if positive {
		require.Positive(t, s.Min, what)
	}
}

// TestBenchFormats checks the markdown and CSV reports of one run.
func TestBenchFormats(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, format := range []string{"markdown", "csv"} {
		out, _ := runOK(t, "bench", "--family", "pruning", "--seeds", "2", "--runs", "1", "--format", format)
		switch format {
		case "markdown":
			require.Contains(t, out, "| family | seed | templates | size | wall | CPU | peak memory | templates/s |")
			require.Contains(t, out, "| pruning | 2 | 20 |")
			require.Contains(t, out, "| family | seed | parse | enrich | graph | encode | solve | transform | emit |")
		case "csv":
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, 2, "header and one row: %s", out)
			head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
			require.Equal(t, len(head), len(row), "csv columns")
			require.Equal(t, []string{"family", "seed", "templates", "template_bytes", "tool", "measures", "runs"}, head[:7])
			require.Equal(t, []string{"pruning", "2", "20"}, row[:3])
			require.Equal(t, []string{"v4t", "resolve"}, row[4:6])
			require.Contains(t, head, "solve_ms_median")
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
	rep, _ := benchJSON(t, "--family", "chain,conflict,hub,sample,pairwise", "--seeds", "4", "--runs", "1", "--write", "gen")
	require.Len(t, rep.Results, 5)
	for i, name := range []string{"chain", "conflict", "hub", "sample", "pairwise"} {
		r := rep.Results[i]
		require.Equal(t, name, r.Family)
		require.Equal(t, measures[name], r.Measures, "%s: measures", name)
		require.Equal(t, filepath.Join("gen", name+"-4.yaml"), r.Template)
		require.FileExists(t, r.Template)
		require.Empty(t, r.Inputs, "%s: no inputs", name)
		require.NoFileExists(t, filepath.Join("gen", name+"-4.inputs.yaml"))
		require.Equal(t, 1, r.V4T.Runs)
		checkStat(t, name+" wall", r.V4T.Wall, true)
		require.Nil(t, r.V4T.Stages, "%s: no stage timings", name)
		require.Nil(t, r.Reference, "%s: no reference without --reference", name)
	}

	// Markdown: a measures column; stages only for the resolve families.
	out, _ := runOK(t, "bench", "--family", "ring,chain", "--seeds", "3", "--runs", "1")
	require.Contains(t, out, "| family | measures | seed | templates | size | wall | CPU | peak memory | templates/s |\n|---|---|---:|")
	require.Contains(t, out, "| ring | resolve | 3 | 12 |")
	require.Contains(t, out, "| chain | analyze | 3 | 6 |")
	require.Contains(t, out, "| family | seed | parse |")
	require.Regexp(t, `(?m)^\| ring \| 3 \| [0-9.]+ [µm]?s`, out, "ring's stages")
	require.NotRegexp(t, `(?m)^\| chain \| 3 \|`, out, "chain has no stage row")

	// Without a resolve family there is no stage table.
	out, _ = runOK(t, "bench", "--family", "hub", "--seeds", "3", "--runs", "1")
	require.Contains(t, out, "| hub | enumerate --count | 3 | 4 |")
	require.NotContains(t, out, "stages")

	// CSV: the measures column, and empty stage cells.
	out, _ = runOK(t, "bench", "--family", "pairwise", "--seeds", "3", "--runs", "1", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, "header and one row: %s", out)
	head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	require.Equal(t, len(head), len(row), "csv columns")
	require.Equal(t, []string{"pairwise", "3", "6"}, row[:3])
	require.Equal(t, "sample --pairwise", row[slices.Index(head, "measures")])
	require.Empty(t, row[slices.Index(head, "parse_ms_median")])
}

// TestBenchSpaceNotComparable: with --reference, the configuration-space
// families say "not comparable" instead of running the reference, which
// cannot count or sample; the resolve families still run it.
func TestBenchSpaceNotComparable(t *testing.T) {
	// The stand-in resolves like the reference and leaves a mark, so that
	// a run on a space family shows.
	node := withFakeNode(t, "echo \"$@\" >> node-runs\n")
	rep, _ := benchJSON(t, "--family", "wide,chain,sample", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", node)
	require.Len(t, rep.Results, 3)
	require.NotNil(t, rep.Results[0].Reference)
	require.Empty(t, rep.Results[0].Reference.Error, "wide is compared")
	require.NotNil(t, rep.Results[0].Comparison)
	for _, r := range rep.Results[1:] {
		require.NotNil(t, r.Reference, r.Family)
		require.Equal(t, "not comparable: the reference only resolves", r.Reference.Error, r.Family)
		require.Zero(t, r.Reference.Runs, r.Family)
		require.Nil(t, r.Comparison, r.Family)
	}
	runs, err := os.ReadFile("node-runs")
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(runs), "--template"), "the reference ran once, on wide: %s", runs)

	out, _ := runOK(t, "bench", "--family", "chain", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", node)
	require.Contains(t, out, "| not comparable: the reference only resolves | | | | |")
}

// TestBenchReference runs the reference's side of v4t bench with a stand-in
// for node that copies v4t's own result, so that the comparison is tested
// without Node.js.
func TestBenchReference(t *testing.T) {
	node := withFakeNode(t, "")
	rep, _ := benchJSON(t, "--family", "wide", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", node)
	require.Len(t, rep.Results, 1)
	r := rep.Results[0]
	require.NotNil(t, r.Reference)
	require.Empty(t, r.Reference.Error)
	require.Equal(t, 1, r.Reference.Runs)
	require.Nil(t, r.Reference.Stages)
	require.NotNil(t, r.Comparison)
	require.True(t, r.Comparison.SameDocument)
	require.True(t, r.Comparison.SameBytes)
	require.Positive(t, r.Comparison.Speedup)

	// A failing reference is reported, not fatal.
	require.NoError(t, os.WriteFile(node, []byte("#!/bin/sh\necho 'JavaScript heap out of memory' >&2\nexit 134\n"), 0o755))
	out, _ := runOK(t, "bench", "--family", "wide", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--node", node)
	require.Contains(t, out, "| exit status 134: JavaScript heap out of memory |")

	// So is one that runs too long.
	require.NoError(t, os.WriteFile(node, []byte("#!/bin/sh\nexec sleep 10\n"), 0o755))
	rep, _ = benchJSON(t, "--family", "wide", "--seeds", "3", "--runs", "1", "--reference", "case.js", "--reference-timeout", "200ms", "--node", node)
	require.NotNil(t, rep.Results[0].Reference)
	require.Equal(t, "did not finish in 200ms", rep.Results[0].Reference.Error)
	require.Nil(t, rep.Results[0].Comparison)
}

// withFakeNode makes a temporary directory the working directory and writes
// there case.js, which is never run, and fake-node, a stand-in for node: it
// drops its first argument (case.js; then come --template T --inputs I
// --output O), runs the shell lines first, and resolves the rest with this
// test binary, which the environment makes act as v4t. It returns the
// stand-in's path, and skips the test where a shell script cannot run.
func withFakeNode(t *testing.T, first string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in for node is a shell script")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	exe, err := os.Executable()
	require.NoError(t, err)
	node := filepath.Join(dir, "fake-node")
	script := "#!/bin/sh\nshift\n" + first + "exec \"" + exe + "\" resolve \"$@\"\n"
	require.NoError(t, os.WriteFile(node, []byte(script), 0o755))
	require.NoError(t, os.WriteFile("case.js", []byte("// not run\n"), 0o644))
	return node
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
		require.Equal(t, tc.want, newStat(tc.in), "newStat(%v)", tc.in)
	}
	summaries := []struct{ in, want string }{
		{"", ""},
		{"boom\n", "boom"},
		{"MINISAT-out: Cannot enlarge memory arrays.\nabort() at Error\n    at x\nundefined\n", "MINISAT-out: Cannot enlarge memory arrays. … undefined"},
		{strings.Repeat("é", 150), strings.Repeat("é", 100) + "…"},
	}
	for _, tc := range summaries {
		require.Equal(t, tc.want, summary(tc.in), "summary(%q)", tc.in)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567"} {
		require.Equal(t, want, thousands(n), "thousands(%d)", n)
	}
	require.Equal(t, "1.51 s", formatMS(1507.6))
	require.Equal(t, "14.5 ms", formatMS(14.5))
	require.Equal(t, "700 µs", formatMS(0.7))
	require.Equal(t, "3.76 GiB", formatMB(3852))
}

// fakeBenchReport is a report as v4t bench makes it, without running
// anything: ring at three seeds with the reference (which fails at the
// largest), choice at one seed, and the chain family, which measures
// analyze and whose peak memory the system did not report at one seed.
func fakeBenchReport() *benchReport {
	v4t := func(wall, mem float64) toolResult {
		return toolResult{Runs: 3, Wall: stat{wall, wall * 0.9, wall * 1.2}, CPU: stat{wall, wall, wall}, PeakMemory: stat{mem, mem * 0.95, mem * 1.05}}
	}
	ref := func(wall, mem float64) *toolResult {
		return &toolResult{Runs: 1, Wall: stat{wall, wall, wall}, CPU: stat{wall, wall, wall}, PeakMemory: stat{mem, mem, mem}}
	}
	return &benchReport{
		GOOS: "linux", GOARCH: "amd64", CPUs: 2, Version: "v4t test", Runs: 3, ReferenceRuns: 1, Spread: "min-max",
		Results: []benchResult{
			{Family: "ring", Measures: "resolve", Seed: 10, Templates: 40, V4T: v4t(8, 11), Reference: ref(1390, 121)},
			{Family: "ring", Measures: "resolve", Seed: 1000, Templates: 4000, V4T: v4t(65, 39), Reference: ref(2790, 241)},
			{Family: "ring", Measures: "resolve", Seed: 100000, Templates: 400000, V4T: v4t(8000, 2765), Reference: &toolResult{Error: "did not finish in 1m0s"}},
			{Family: "choice", Measures: "resolve", Seed: 300, Templates: 900, V4T: v4t(30, 14)},
			{Family: "chain", Measures: "analyze", Seed: 100, Templates: 200, V4T: v4t(9, 14), Reference: &toolResult{Error: notComparable}},
			{Family: "chain", Measures: "analyze", Seed: 2000, Templates: 4000, V4T: v4t(320, 0), Reference: &toolResult{Error: notComparable}},
		},
	}
}

// svgTexts parses an SVG document as XML and returns its root element's
// name and the text of its <text> elements.
func svgTexts(t *testing.T, what string, doc []byte) (string, []string) {
	t.Helper()
	root, texts, _ := svgParse(t, what, doc)
	return root, texts
}

// svgParse parses an SVG document as XML and returns its root element's
// name, the text of its <text> elements and how many elements of each
// name it has.
func svgParse(t *testing.T, what string, doc []byte) (string, []string, map[string]int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var root string
	var texts []string
	count := map[string]int{}
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "%s: the SVG is well-formed XML", what)
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			count[tok.Name.Local]++
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
	return root, texts, count
}

func TestBenchPlot(t *testing.T) {
	memless := fakeBenchReport()
	for i := range memless.Results {
		memless.Results[i].V4T.PeakMemory = stat{}
		memless.Results[i].Reference = nil
	}
	memless.ReferenceRuns = 0
	single := &benchReport{GOOS: "linux", GOARCH: "arm64", CPUs: 1, Runs: 1, Results: []benchResult{
		{Family: "wide", Measures: "resolve", Seed: 3, Templates: 12, V4T: toolResult{Runs: 1, Wall: stat{5, 5, 5}, PeakMemory: stat{10, 10, 10}}},
	}}
	odd := &benchReport{GOOS: "plan\x019", GOARCH: "amd64", CPUs: 4, Runs: 2, Results: []benchResult{
		{Family: `a<b & "c"`, Measures: "resolve", Seed: 3, Templates: 12, V4T: toolResult{Runs: 2, Wall: stat{5, 4, 6}, PeakMemory: stat{10, 9, 11}}},
	}}
	tests := []struct {
		name    string
		rep     *benchReport
		want    []string // texts that must appear
		notWant []string
		lines   int // polylines: each series' line and its legend sample, in both panels
	}{
		{
			name: "families and reference",
			rep:  fakeBenchReport(),
			want: []string{"wall time", "peak memory", "v4t ring", "reference ring", "v4t choice", "v4t chain (analyze)",
				"templates (node and relationship templates)", "10", "1,000", "100,000", "1 ms", "10 s", "10 MiB", "1,000 MiB",
				"v4t bench, whole process: 3 runs per template (reference: 1 run); linux/amd64, 2 CPUs"},
			notWant: []string{"reference choice", "reference chain", "peak memory (not measured)"},
			lines:   2 * (4 + 4),
		},
		{
			name:    "no peak memory",
			rep:     memless,
			want:    []string{"wall time", "peak memory (not measured)", "v4t ring"},
			notWant: []string{"reference ring", "1 MiB", "10 MiB"},
			lines:   2 * 3,
		},
		{
			name:  "one point",
			rep:   single,
			want:  []string{"v4t wide", "1 ms", "10 ms", "10", "100", "10 MiB", "100 MiB"},
			lines: 2 * (1 + 1),
		},
		{
			name:  "text escaped",
			rep:   odd,
			want:  []string{`v4t a<b & "c"`, "v4t bench, whole process: 2 runs per template; plan\uFFFD9/amd64, 4 CPUs"},
			lines: 2 * (1 + 1),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svg, err := tc.rep.writeSVG()
			require.NoError(t, err, "%s: writeSVG", tc.name)
			root, texts, count := svgParse(t, tc.name, svg)
			require.Equal(t, "svg", root, "%s: root element", tc.name)
			for _, w := range tc.want {
				require.Contains(t, texts, w, "%s: texts of the SVG", tc.name)
			}
			for _, w := range tc.notWant {
				require.NotContains(t, texts, w, "%s: texts of the SVG", tc.name)
			}
			require.Equal(t, tc.lines, count["polyline"], "%s: polylines", tc.name)

			// Determinism: the same report, also read back from its JSON
			// form, gives the same bytes.
			again, err := tc.rep.writeSVG()
			require.NoError(t, err)
			require.True(t, bytes.Equal(svg, again), "%s: a second drawing differs", tc.name)
			data, err := json.Marshal(tc.rep)
			require.NoError(t, err)
			var back benchReport
			require.NoError(t, json.Unmarshal(data, &back))
			fromJSON, err := back.writeSVG()
			require.NoError(t, err)
			require.True(t, bytes.Equal(svg, fromJSON), "%s: the report read back from JSON draws differently", tc.name)
		})
	}
}

// TestBenchPlotGolden pins the picture of the fake report byte for byte
// (V4T_UPDATE=1 rewrites it; look at the picture before committing it).
func TestBenchPlotGolden(t *testing.T) {
	svg, err := fakeBenchReport().writeSVG()
	require.NoError(t, err)
	testkit.Golden(t, filepath.Join("testdata", "bench-plot.svg.golden"), svg)
}

// TestBenchPlotFlag runs v4t bench --plot once: the report still goes to
// --output, and the picture to the SVG file.
func TestBenchPlotFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	stdout, _ := runOK(t, "bench", "--family", "pruning", "--seeds", "2,3", "--runs", "1", "--output", "report.md", "--plot", "bench.svg")
	require.Empty(t, stdout, "the report goes to --output")
	require.FileExists(t, "report.md")
	svg, err := os.ReadFile("bench.svg")
	require.NoError(t, err, "--plot writes the picture")
	root, texts := svgTexts(t, "bench.svg", svg)
	require.Equal(t, "svg", root)
	require.Contains(t, texts, "v4t pruning")

	code, _, stderr := runCLI("bench", "--family", "pruning", "--seeds", "2", "--runs", "1", "--plot", "bench.png")
	require.Equal(t, exitUsage, code, "--plot wants an .svg file")
	require.Contains(t, stderr, `--plot "bench.png": expected a .svg file`)
}
