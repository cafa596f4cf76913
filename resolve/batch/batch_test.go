package batch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func TestParseSpace(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// want lists each run as "ID|template|presets|inputs|options".
		want []string
		err  string
	}{
		{
			name: "defaults: one template, no presets, inputs or options",
			src:  "templates: [t.yaml]\n",
			want: []string{"run-001|t.yaml|||"},
		},
		{
			name: "cross product in file order, first key outermost",
			src: `templates: t.yaml
presets: [a, [b, c], []]
inputs:
    - {x: [1, 2], y: on}
    - in.yaml
options:
    - {mode: [manual, default], optimization_topology: max}
    - {}
`,
			want: []string{
				"run-001|t.yaml|a|x=1 y=on|mode=manual optimization_topology=max",
				"run-002|t.yaml|a|x=1 y=on|mode=default optimization_topology=max",
				"run-003|t.yaml|a|x=1 y=on|",
				"run-004|t.yaml|a|x=2 y=on|mode=manual optimization_topology=max",
				"run-005|t.yaml|a|x=2 y=on|mode=default optimization_topology=max",
				"run-006|t.yaml|a|x=2 y=on|",
				"run-007|t.yaml|a|in.yaml|mode=manual optimization_topology=max",
				"run-008|t.yaml|a|in.yaml|mode=default optimization_topology=max",
				"run-009|t.yaml|a|in.yaml|",
				"run-010|t.yaml|b,c|x=1 y=on|mode=manual optimization_topology=max",
				"run-011|t.yaml|b,c|x=1 y=on|mode=default optimization_topology=max",
				"run-012|t.yaml|b,c|x=1 y=on|",
				"run-013|t.yaml|b,c|x=2 y=on|mode=manual optimization_topology=max",
				"run-014|t.yaml|b,c|x=2 y=on|mode=default optimization_topology=max",
				"run-015|t.yaml|b,c|x=2 y=on|",
				"run-016|t.yaml|b,c|in.yaml|mode=manual optimization_topology=max",
				"run-017|t.yaml|b,c|in.yaml|mode=default optimization_topology=max",
				"run-018|t.yaml|b,c|in.yaml|",
				"run-019|t.yaml||x=1 y=on|mode=manual optimization_topology=max",
				"run-020|t.yaml||x=1 y=on|mode=default optimization_topology=max",
				"run-021|t.yaml||x=1 y=on|",
				"run-022|t.yaml||x=2 y=on|mode=manual optimization_topology=max",
				"run-023|t.yaml||x=2 y=on|mode=default optimization_topology=max",
				"run-024|t.yaml||x=2 y=on|",
				"run-025|t.yaml||in.yaml|mode=manual optimization_topology=max",
				"run-026|t.yaml||in.yaml|mode=default optimization_topology=max",
				"run-027|t.yaml||in.yaml|",
			},
		},
		{
			name: "a list inside a list is one value",
			src:  "templates: [t.yaml]\ninputs: [{tags: [[a, b], []]}]\n",
			want: []string{"run-001|t.yaml||tags=[a, b]|", "run-002|t.yaml||tags=[]|"},
		},
		{name: "not a map", src: "t.yaml\n", err: "space.yaml:1:1: expected a space (a map with templates, presets, inputs and options) or a list of spaces, found string"},
		{
			name: "a list of spaces: runs numbered across the list, in order",
			src: `- templates: [t.yaml]
  presets: [a, b]
- templates: [u.yaml]
  inputs: [{x: [1, 2]}]
  options: [{mode: manual}]
`,
			want: []string{
				"run-001|t.yaml|a||",
				"run-002|t.yaml|b||",
				"run-003|u.yaml||x=1|mode=manual",
				"run-004|u.yaml||x=2|mode=manual",
			},
		},
		{
			name: "a list of one space gives the ids of the space alone",
			src:  "- templates: t.yaml\n  presets: [a, [b, c], []]\n",
			want: []string{"run-001|t.yaml|a||", "run-002|t.yaml|b,c||", "run-003|t.yaml|||"},
		},
		{name: "a list item that is not a space", src: "- templates: [t.yaml]\n- t.yaml\n", err: "space.yaml:2:3: expected a space (a map with templates, presets, inputs and options), found string"},
		{name: "an empty list of spaces", src: "[]\n", err: "space.yaml:1:1: expected a space or a non-empty list of spaces, found an empty list"},
		{name: "the second space has no templates", src: "- templates: [t.yaml]\n- presets: [a]\n", err: "space.yaml:2:3: the space has no templates"},
		{name: "an error in the second space", src: "- templates: [t.yaml]\n- templates: [u.yaml]\n  options: [mode]\n", err: "space.yaml:3:13: expected an option set (a map of option values), found string"},
		{name: "unknown key in the second space", src: "- templates: [t.yaml]\n- templates: [u.yaml]\n  option: []\n", err: `space.yaml:3:11: unknown key "option" in a space (expected templates, presets, inputs, options or description)`},
		{name: "too many runs across the list", src: "- templates: [a, b, c, d, e, f, g, h, i]\n  options: [{a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10]}]\n- templates: [t.yaml, u.yaml]\n  options: [{a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10]}]\n", err: "space.yaml:3:3: the spaces have 110000 runs up to this one, more than 100000"},
		{name: "no templates", src: "presets: [a]\n", err: "space.yaml: the space has no templates"},
		{name: "unknown key", src: "templates: [t.yaml]\noption: []\n", err: `space.yaml:2:9: unknown key "option" in a space (expected templates, presets, inputs, options or description)`},
		{name: "template not a path", src: "templates: [t.yaml, {a: 1}]\n", err: "space.yaml:1:21: expected a template path, found map"},
		{name: "empty list of values", src: "templates: [t.yaml]\noptions:\n    - mode: []\n", err: `space.yaml:3:13: option "mode" has an empty list of values (write [[]] for the empty list as one value)`},
		{name: "option set not a map", src: "templates: [t.yaml]\noptions: [mode]\n", err: "space.yaml:2:11: expected an option set (a map of option values), found string"},
		{name: "input set neither file nor map", src: "templates: [t.yaml]\ninputs: [3]\n", err: "space.yaml:2:10: expected an input set (an inputs file or a map), found number"},
		{name: "too many runs", src: "templates: [t.yaml, u.yaml]\npresets: [a, b, c, d, e, f, g, h, i, j]\noptions: [{a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10]}, {e: [1, 2, 3, 4, 5]}]\n", err: "space.yaml:1:1: the space has 200100 runs, more than 100000"},
		{name: "a cross product too large to expand", src: "templates: [t.yaml]\noptions: [{a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10], e: [1,2,3,4,5,6,7,8,9,10], f: [1,2,3,4,5,6,7,8,9,10]}]\n", err: "space.yaml:2:11: this option set has more than 100000 combinations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSpace([]byte(tc.src), "space.yaml")
			if tc.err != "" {
				require.Error(t, err, tc.src)
				d := testkit.Diagnostic(t, err, "a diagnostic: %v", err)
				require.Equal(t, tc.err, d.Line(), tc.src)
				return
			}
			require.NoError(t, err, tc.src)
			var got []string
			for _, r := range s.Runs {
				got = append(got, r.ID+"|"+r.Template+"|"+r.PresetsText()+"|"+r.InputsText()+"|"+r.OptionsText())
			}
			require.Equal(t, tc.want, got, tc.src)
		})
	}
}

func TestSummaryGoldens(t *testing.T) {
	s, err := LoadSpace("testdata/webshop.yaml")
	require.NoError(t, err)
	res := Execute(context.Background(), s, Options{Jobs: 3})
	for _, f := range []struct {
		name  string
		write func(*Result, *bytes.Buffer) error
	}{
		{"table", func(r *Result, b *bytes.Buffer) error { return r.WriteTable(b, SummaryOptions{}) }},
		{"csv", func(r *Result, b *bytes.Buffer) error { return r.WriteCSV(b, SummaryOptions{}) }},
		{"json", func(r *Result, b *bytes.Buffer) error { return r.WriteJSON(b, SummaryOptions{}) }},
	} {
		t.Run(f.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, f.write(res, &b))
			testkit.Golden(t, filepath.Join("testdata", "webshop."+f.name+".golden"), b.Bytes())
		})
	}
}

// TestDeterminism runs the 200-run example space one run at a time and four
// at a time: the summaries without timings must be the same bytes
// (style.md §5: batch runs with GOMAXPROCS=1 and the default).
func TestDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("200 runs")
	}
	s, err := LoadSpace("../../testdata/batch/motivation.yaml")
	require.NoError(t, err)
	require.Len(t, s.Runs, 200)
	var outs [2]bytes.Buffer
	for i, jobs := range []int{1, 4} {
		res := Execute(context.Background(), s, Options{Jobs: jobs})
		require.NoError(t, res.WriteCSV(&outs[i], SummaryOptions{}))
		ok, failed, notRun := res.Counts()
		require.Equal(t, []int{200, 0}, []int{ok + failed, notRun}, "jobs %d", jobs)
		require.NotZero(t, ok, "jobs %d: some runs succeed", jobs)
		require.NotZero(t, failed, "jobs %d: some modes reject the template", jobs)
	}
	require.Equal(t, outs[0].String(), outs[1].String())
}

// TestRowsMatchOutputs checks every successful row against the document the
// run wrote: the present nodes of the summary are the node templates of the
// result.
func TestRowsMatchOutputs(t *testing.T) {
	s, err := LoadSpace("testdata/webshop.yaml")
	require.NoError(t, err)
	var mu sync.Mutex
	docs := map[string][]byte{}
	res := Execute(context.Background(), s, Options{Jobs: 2, Emit: func(r *Run, write func(io.Writer) error) error {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		docs[r.ID] = b.Bytes()
		return nil
	}})
	checked := 0
	for _, row := range res.Rows {
		if row.Status != OK {
			require.NotContains(t, docs, row.Run.ID, "%s failed and emitted nothing", row.Run.ID)
			continue
		}
		doc, err := yamlsrc.Parse(docs[row.Run.ID], row.Run.ID)
		require.NoError(t, err, row.Run.ID)
		nodes := doc.Get("topology_template").Get("node_templates")
		require.True(t, nodes.IsMap(), row.Run.ID)
		got := nodes.Map().Keys()
		want := append([]string(nil), row.Report.Nodes...)
		sort.Strings(got)
		sort.Strings(want)
		require.Equal(t, want, got, row.Run.ID)
		checked++
	}
	require.Equal(t, 4, checked)
}

func TestFailuresAndInterruption(t *testing.T) {
	s, err := LoadSpace("testdata/webshop.yaml")
	require.NoError(t, err)
	t.Run("a failing emit fails only its run", func(t *testing.T) {
		res := Execute(context.Background(), s, Options{Jobs: 2, Emit: func(r *Run, _ func(io.Writer) error) error {
			if r.ID == "run-002" {
				return errors.New("disk full")
			}
			return nil
		}})
		ok, failed, notRun := res.Counts()
		require.Equal(t, []int{3, 9, 0}, []int{ok, failed, notRun})
		require.Equal(t, "disk full", res.Rows[1].ErrorText())
		require.False(t, res.Interrupted)
	})
	t.Run("cancelled before the start", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res := Execute(ctx, s, Options{Jobs: 2})
		_, _, notRun := res.Counts()
		require.Equal(t, 12, notRun)
		require.True(t, res.Interrupted)
	})
	t.Run("cancelled after three runs", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		res := Execute(ctx, s, Options{Jobs: 1, Progress: func(done, _, _ int) {
			if done == 3 {
				cancel()
			}
		}})
		ok, failed, notRun := res.Counts()
		require.Equal(t, []int{1, 2, 9}, []int{ok, failed, notRun})
		require.True(t, res.Interrupted)
		for i, row := range res.Rows {
			require.Equal(t, i < 3, row.Status != NotRun, row.Run.ID)
		}
	})
}

// TestLoadSpaceMissingFiles: a space naming a template or inputs file that
// is not there fails at load, at the path's position, before any run.
func TestLoadSpaceMissingFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "t.yaml"), []byte("tosca_definitions_version: tosca_variability_1_0\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	tests := []struct{ space, want string }{
		{"templates: [t.yaml, nothere.yaml]\n", `space.yaml:1:21: template "nothere.yaml" does not exist`},
		{"templates: [d]\n", `space.yaml:1:13: template "d" is not a file`},
		{"templates: [t.yaml]\ninputs: [nothere.yaml]\n", `space.yaml:2:10: inputs file "nothere.yaml" does not exist`},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "space.yaml")
		require.NoError(t, os.WriteFile(path, []byte(tc.space), 0o644))
		_, err := LoadSpace(path)
		d := testkit.Diagnostic(t, err, "space %q: want a diagnostic, got %v", tc.space, err)
		require.Equal(t, filepath.Join(dir, tc.want), d.Line(), "space %q", tc.space)
	}
}

// TestScheduleFileSizes: without a size function the schedule orders the
// templates by their files' sizes, and a missing file goes last.
func TestScheduleFileSizes(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{"small.yaml": "a: 1\n", "big.yaml": string(bytes.Repeat([]byte("a: 1\n"), 100))})
	s := &Space{}
	for i, name := range []string{"missing.yaml", "small.yaml", "big.yaml"} {
		s.Runs = append(s.Runs, &Run{ID: string(rune('0' + i)), Input: resolve.Input{TemplatePath: filepath.Join(dir, name)}})
	}
	sch := newSchedule(s, nil)
	var got []int
	for {
		i, _, ok := sch.take()
		if !ok {
			break
		}
		got = append(got, i)
	}
	require.Equal(t, []int{2, 1, 0}, got)
}

// A resolved run keeps its stage times and its solver's work; a failed run
// keeps neither.
func TestRunStages(t *testing.T) {
	res := webshopResult(t)
	for _, row := range res.Rows {
		if row.Status != OK {
			require.Zero(t, row.Stages, row.Run.ID)
			require.Zero(t, row.Solver, row.Run.ID)
			continue
		}
		require.NotZero(t, row.Stages.Enrich, row.Run.ID)
		require.NotZero(t, row.Stages.Encode, row.Run.ID)
		require.NotZero(t, row.Solver.Presolves, row.Run.ID)
	}
	w := res.SolverWork()
	require.Equal(t, 4, w.Resolved)
	require.Equal(t, w.Resolved, w.Settled+w.OwnSearch+w.SAT)
}

func TestSolverWork(t *testing.T) {
	row := func(status Status, solves, own int) Row {
		r := Row{Status: status}
		r.Solver.Solves, r.Solver.OwnSearches = solves, own
		return r
	}
	res := &Result{Rows: []Row{
		row(OK, 0, 0), row(OK, 0, 0), row(OK, 0, 3), row(OK, 2, 1), row(OK, 5, 0),
		row(Failed, 0, 0), row(NotRun, 0, 0),
	}}
	require.Equal(t, SolverWork{Resolved: 5, Settled: 2, OwnSearch: 1, SAT: 2, SATCalls: 7}, res.SolverWork())
}

// TestWriteAligned: columns are as wide as their widest cell in runes (an
// invalid byte counts one), padded by two spaces, the last column is not
// padded and no line ends in spaces; a write error stops the table.
func TestWriteAligned(t *testing.T) {
	wide := strings.Repeat("n", 150)
	tests := []struct {
		name  string
		cells [][]string
		want  string
	}{
		{"none", nil, ""},
		{"one column", [][]string{{"id"}, {"run-001"}}, "id\nrun-001\n"},
		{"padded", [][]string{{"a", "bb", "c"}, {"aaa", "b", "cc"}}, "a    bb  c\naaa  b   cc\n"},
		{"runes", [][]string{{"é€", "x"}, {"abc", "y"}}, "é€   x\nabc  y\n"},
		{"invalid byte", [][]string{{"\xff\xfe", "x"}, {"abc", "y"}}, "\xff\xfe   x\nabc  y\n"},
		{"empty cells end no line in spaces", [][]string{{"a", "", ""}, {"b", "c", ""}, {"d", "", "  "}}, "a\nb  c\nd\n"},
		{"padding longer than the spaces constant", [][]string{{wide, "x"}, {"a", "y"}},
			wide + "  x\na" + strings.Repeat(" ", 151) + "y\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, writeAligned(&b, tc.cells))
			assert.Equal(t, tc.want, b.String())
		})
	}
	err := writeAligned(failingWriter{}, [][]string{{"a"}, {"b"}})
	assert.ErrorIs(t, err, errFailingWriter)
}

var errFailingWriter = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errFailingWriter }
