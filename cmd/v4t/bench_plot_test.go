package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

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
			assert.Equal(t, "svg", root, "%s: root element", tc.name)
			for _, w := range tc.want {
				assert.Contains(t, texts, w, "%s: texts of the SVG", tc.name)
			}
			for _, w := range tc.notWant {
				assert.NotContains(t, texts, w, "%s: texts of the SVG", tc.name)
			}
			assert.Equal(t, tc.lines, count["polyline"], "%s: polylines", tc.name)

			// Determinism: the same report, also read back from its JSON
			// form, gives the same bytes.
			again, err := tc.rep.writeSVG()
			require.NoError(t, err)
			assert.True(t, bytes.Equal(svg, again), "%s: a second drawing differs", tc.name)
			data, err := json.Marshal(tc.rep)
			require.NoError(t, err)
			var back benchReport
			require.NoError(t, json.Unmarshal(data, &back))
			fromJSON, err := back.writeSVG()
			require.NoError(t, err)
			assert.True(t, bytes.Equal(svg, fromJSON), "%s: the report read back from JSON draws differently", tc.name)
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
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--family", "pruning", "--seeds", "2,3", "--runs", "1", "--output", "report.md", "--plot", "bench.svg"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	assert.Empty(t, stdout.String(), "the report goes to --output")
	assert.FileExists(t, "report.md")
	svg, err := os.ReadFile("bench.svg")
	require.NoError(t, err, "--plot writes the picture")
	root, texts := svgTexts(t, "bench.svg", svg)
	assert.Equal(t, "svg", root)
	assert.Contains(t, texts, "v4t pruning")

	stdout.Reset()
	stderr.Reset()
	code = run([]string{"bench", "--family", "pruning", "--seeds", "2", "--runs", "1", "--plot", "bench.png"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, code, "--plot wants an .svg file")
	assert.Contains(t, stderr.String(), `--plot "bench.png": expected a .svg file`)
}
