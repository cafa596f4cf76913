package batch

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"v4t/model/testkit"

	"github.com/stretchr/testify/require"
)

// shardOf is the result the shard sh of a batch would have had: the rows
// of the whole batch that are in the shard, with their durations.
func shardOf(full *Result, sh Shard) *Result {
	part := &Result{Space: full.Space.Select(sh), Interrupted: full.Interrupted}
	for i, row := range full.Rows {
		if sh.Has(i) {
			part.Rows = append(part.Rows, row)
		}
	}
	return part
}

func summaryBytes(t testing.TB, res *Result, format string, o SummaryOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "csv":
		err = res.WriteCSV(&b, o)
	case "json":
		err = res.WriteJSON(&b, o)
	case "table":
		err = res.WriteTable(&b, o)
	}
	require.NoError(t, err, "writing the %s summary", format)
	return b.Bytes()
}

// readShards writes the summaries of the shards K/N of full in format,
// reads them back, and returns them last shard first (merge sorts).
func readShards(t *testing.T, full *Result, n int, format string, o SummaryOptions) []*Summary {
	t.Helper()
	var sums []*Summary
	for k := n; k >= 1; k-- {
		name := fmt.Sprintf("shard-%d.%s", k, format)
		s, err := ReadSummary(summaryBytes(t, shardOf(full, Shard{k, n}), format, o), name)
		require.NoError(t, err, name)
		sums = append(sums, s)
	}
	return sums
}

func webshopResult(t testing.TB) *Result {
	t.Helper()
	s, err := LoadSpace("testdata/webshop.yaml")
	require.NoError(t, err)
	res := Execute(context.Background(), s, Options{Jobs: 3})
	ok, failed, notRun := res.Counts()
	require.Equal(t, []int{4, 8, 0}, []int{ok, failed, notRun})
	return res
}

// TestMergeEqualsUnsharded: merging the summaries of the shards K/N of a
// space gives the bytes of the unsharded summary, for N = 1..5, in CSV and
// JSON, without and with timings (which merge keeps), and converted to the
// other formats merge can write.
func TestMergeEqualsUnsharded(t *testing.T) {
	full := webshopResult(t)
	for _, tc := range []struct {
		in, out         string
		timings, stages bool
	}{
		{"csv", "csv", false, false},
		{"json", "json", false, false},
		{"csv", "csv", true, false},
		{"json", "json", true, false},
		{"csv", "table", false, false},
		{"json", "csv", false, false},
		{"json", "table", true, false},
		{"csv", "csv", false, true},
		{"json", "json", false, true},
		{"csv", "csv", true, true},
		{"json", "json", true, true},
		{"json", "csv", true, true},
		{"csv", "table", true, true},
	} {
		for n := 1; n <= 5; n++ {
			name := fmt.Sprintf("%s to %s, timings %v, stages %v, N=%d", tc.in, tc.out, tc.timings, tc.stages, n)
			t.Run(name, func(t *testing.T) {
				o := SummaryOptions{Timings: tc.timings, Stages: tc.stages}
				m, err := Merge(readShards(t, full, n, tc.in, o))
				require.NoError(t, err, name)
				require.Equal(t, tc.in, m.Format)
				require.Equal(t, tc.timings, m.Timings)
				require.Equal(t, tc.stages, m.Stages)
				want := summaryBytes(t, full, tc.out, o)
				require.Equal(t, string(want), string(summaryBytes(t, m.Result, tc.out, SummaryOptions{Timings: m.Timings, Stages: m.Stages})), name)
			})
		}
	}
	t.Run("stages kept only when every summary has them", func(t *testing.T) {
		for _, format := range []string{"csv", "json"} {
			sums := readShards(t, full, 2, format, SummaryOptions{Stages: true})
			plain := readShards(t, full, 2, format, SummaryOptions{})
			m, err := Merge([]*Summary{sums[0], plain[1]})
			require.NoError(t, err)
			require.False(t, m.Stages)
			require.Equal(t, string(summaryBytes(t, full, format, SummaryOptions{})), string(summaryBytes(t, m.Result, format, SummaryOptions{})))
		}
	})
	t.Run("timings dropped", func(t *testing.T) {
		m, err := Merge(readShards(t, full, 3, "json", SummaryOptions{Timings: true}))
		require.NoError(t, err)
		require.Equal(t, string(summaryBytes(t, full, "json", SummaryOptions{})), string(summaryBytes(t, m.Result, "json", SummaryOptions{})))
	})
	t.Run("timings kept only when every summary has them", func(t *testing.T) {
		sums := readShards(t, full, 2, "csv", SummaryOptions{Timings: true})
		plain := readShards(t, full, 2, "csv", SummaryOptions{})
		m, err := Merge([]*Summary{sums[0], plain[1]})
		require.NoError(t, err)
		require.False(t, m.Timings)
		require.Equal(t, string(summaryBytes(t, full, "csv", SummaryOptions{})), string(summaryBytes(t, m.Result, "csv", SummaryOptions{})))
	})
	t.Run("csv cannot become json", func(t *testing.T) {
		m, err := Merge(readShards(t, full, 2, "csv", SummaryOptions{}))
		require.NoError(t, err)
		require.Error(t, m.Result.WriteJSON(&bytes.Buffer{}, SummaryOptions{}))
	})
}

// TestShardSummaries: the summary of a shard is the unsharded one's rows of
// the shard, plus the shard, the space's run count and its digest.
func TestShardSummaries(t *testing.T) {
	full := webshopResult(t)
	part := shardOf(full, Shard{2, 5})
	csvText := string(summaryBytes(t, part, "csv", SummaryOptions{}))
	lines := strings.Split(strings.TrimSuffix(csvText, "\n"), "\n")
	require.Len(t, lines, 4, csvText)
	require.Equal(t, "id,template,presets,inputs,options,status,nodes,relations,weight,unique,warnings,shard,space_runs,space_digest", lines[0])
	fullLines := strings.Split(string(summaryBytes(t, full, "csv", SummaryOptions{})), "\n")
	for i, want := range []int{2, 7, 12} {
		require.Equal(t, fullLines[want]+",2/5,12,"+full.Space.Digest, lines[i+1])
	}
	jsonText := string(summaryBytes(t, part, "json", SummaryOptions{}))
	require.Contains(t, jsonText, "\"space\": \"testdata/webshop.yaml\",\n  \"shard\": \"2/5\",\n  \"space_runs\": 12,\n  \"space_digest\": \""+full.Space.Digest+"\",\n  \"runs\": 3,\n")
	require.Len(t, full.Space.Digest, 16)
}

func TestMergeErrors(t *testing.T) {
	full := webshopResult(t)
	shard := func(k, n int, format string) string {
		return string(summaryBytes(t, shardOf(full, Shard{k, n}), format, SummaryOptions{}))
	}
	fullCSV := string(summaryBytes(t, full, "csv", SummaryOptions{}))
	lines := strings.SplitAfter(fullCSV, "\n")
	without := func(drop ...int) string {
		var b strings.Builder
		for i, l := range lines {
			keep := true
			for _, d := range drop {
				keep = keep && i != d
			}
			if keep {
				b.WriteString(l)
			}
		}
		return b.String()
	}
	other, err := ParseSpace([]byte("templates: [t.yaml]\ninputs: [{x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}]\n"), "other.yaml")
	require.NoError(t, err)
	otherShard := summaryBytes(t, &Result{Space: other.Select(Shard{2, 3}), Rows: []Row{{Run: other.Runs[1]}, {Run: other.Runs[4]}, {Run: other.Runs[7]}, {Run: other.Runs[10]}}}, "csv", SummaryOptions{})
	type file struct{ name, data string }
	for _, tc := range []struct {
		name  string
		files []file
		err   string
	}{
		{name: "nothing", err: "no summaries to merge"},
		{name: "a missing shard", files: []file{{"s1.csv", shard(1, 3, "csv")}, {"s3.csv", shard(3, 3, "csv")}},
			err: "missing run ids: run-002, run-005, run-008, run-011 (no summary of shard 2/3)"},
		{name: "a missing json shard", files: []file{{"s3.json", shard(3, 3, "json")}, {"s2.json", shard(2, 3, "json")}},
			err: "missing run ids: run-001, run-004, run-007, run-010 (no summary of shard 1/3)"},
		{name: "a shard twice", files: []file{{"s1.csv", shard(1, 3, "csv")}, {"s2.csv", shard(2, 3, "csv")}, {"s3.csv", shard(3, 3, "csv")}, {"again.csv", shard(2, 3, "csv")}},
			err: "again.csv:2:1: duplicated run ids: run-002, run-005, run-008, run-011 (run-002 is also at s2.csv:2:1)"},
		{name: "a gap without shard columns", files: []file{{"a.csv", without(3, 7)}},
			err: "missing run ids: run-003, run-007"},
		{name: "many missing ids", files: []file{{"a.csv", without(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)}},
			err: "missing run ids: run-001, run-002, run-003, run-004, run-005, run-006, run-007, run-008, run-009, run-010, … (11 in all)"},
		{name: "the same file twice", files: []file{{"s1.csv", shard(1, 2, "csv")}, {"s2.csv", shard(2, 2, "csv")}, {"s1.csv", shard(1, 2, "csv")}},
			err: "s1.csv:2:1: duplicated run ids: run-001, run-003, run-005, run-007, run-009, run-011 (s1.csv is given twice)"},
		{name: "overlapping summaries without shard columns", files: []file{{"a.csv", without(3)}, {"b.csv", without(4, 5)}},
			err: "b.csv:2:1: duplicated run ids: run-001, run-002, run-006, run-007, run-008, run-009, run-010, run-011, run-012 (run-001 is also at a.csv:2:1)"},
		{name: "mixed formats", files: []file{{"s1.csv", shard(1, 2, "csv")}, {"s2.json", shard(2, 2, "json")}},
			err: "s2.json: a JSON summary, but s1.csv is CSV: merge summaries of one format"},
		{name: "different shard counts", files: []file{{"s1.csv", shard(1, 2, "csv")}, {"s2.csv", shard(2, 3, "csv")}},
			err: "s2.csv: shard 2/3, but s1.csv is shard 1/2: merge the shards of one --shard K/N"},
		{name: "another space", files: []file{{"s1.csv", shard(1, 3, "csv")}, {"o2.csv", string(otherShard)}, {"s3.csv", shard(3, 3, "csv")}},
			err: "o2.csv: a shard of another space than s1.csv (space digest " + other.Digest + ", not " + full.Space.Digest + ")"},
		{name: "another space file in JSON", files: []file{{"s1.json", shard(1, 2, "json")}, {"s2.json", strings.Replace(shard(2, 2, "json"), `"space": "testdata/webshop.yaml"`, `"space": "webshop.yaml"`, 1)}},
			err: `s2.json: a summary of the space "webshop.yaml", but s1.json is of "testdata/webshop.yaml"`},
		{name: "a row outside its shard", files: []file{{"s1.csv", strings.Replace(shard(1, 3, "csv"), "run-004,", "run-005,", 1)}},
			err: "s1.csv:3:1: run-005 is not in shard 1/3"},
		{name: "an id beyond the space", files: []file{{"s1.csv", strings.Replace(shard(1, 3, "csv"), "run-010,", "run-013,", 1)}},
			err: "s1.csv:5:1: run-013 is not a run of a space of 12 runs"},
		{name: "an id beyond any space", files: []file{{"a.csv", strings.Replace(fullCSV, "run-003,", "run-100001,", 1)}},
			err: "a.csv:4:1: run-100001 is beyond the largest space (100000 runs)"},
		{name: "a space too large", files: []file{{"s1.csv", strings.ReplaceAll(shard(1, 3, "csv"), ",1/3,12,", ",1/3,100001,")}},
			err: `s1.csv:2:1: bad shard columns: shard "1/3", space_runs "100001", space_digest "` + full.Space.Digest + `"`},
		{name: "an id of the wrong width", files: []file{{"a.csv", strings.Replace(fullCSV, "run-003,", "run-0003,", 1)}},
			err: `a.csv:4:1: run id "run-0003" is not the id of run 3 in a space of 12 runs (run-003)`},
		{name: "not a run id", files: []file{{"a.csv", strings.Replace(fullCSV, "run-003,", "r3,", 1)}},
			err: `a.csv:4:1: "r3" is not a run id (run-001, run-002, ...)`},
		{name: "a table", files: []file{{"t.txt", string(summaryBytes(t, full, "table", SummaryOptions{}))}},
			err: "t.txt:1:1: not a summary of v4t batch --format csv or json: expected the header id,template,presets,inputs,options,status,nodes,relations,weight,unique,warnings"},
		{name: "an empty file", files: []file{{"e.csv", ""}},
			err: "e.csv: empty, not a summary of v4t batch --format csv or json"},
		{name: "a broken CSV", files: []file{{"a.csv", fullCSV + "run-013,x\n"}},
			err: "a.csv:14:1: wrong number of fields"},
		{name: "a shard column that changes", files: []file{{"s1.csv", strings.Replace(shard(1, 3, "csv"), ",1/3,", ",2/3,", 1)}},
			err: "s1.csv:3:1: shard 1/3, space_runs 12 and space_digest " + full.Space.Digest + " differ from those of the first row"},
		{name: "a JSON run count that does not match", files: []file{{"s1.json", strings.Replace(shard(1, 3, "json"), `"runs": 4`, `"runs": 5`, 1)}},
			err: `s1.json:6:11: "runs" is 5, but the summary has 4 rows`},
		{name: "JSON of something else", files: []file{{"x.json", `{"a": 1}`}},
			err: `x.json:1:7: unknown key "a" in a summary of v4t batch`},
		{name: "a JSON row without an id", files: []file{{"x.json", strings.Replace(shard(1, 3, "json"), `"id": "run-001",`, ``, 1)}},
			err: `x.json:12:5: a row without "id"`},
		{name: "broken JSON", files: []file{{"x.json", "{\n  \"space\": \n}"}},
			err: "x.json:3:1: unexpected character '}', expected a JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sums []*Summary
			var err error
			for _, f := range tc.files {
				var s *Summary
				if s, err = ReadSummary([]byte(f.data), f.name); err != nil {
					break
				}
				sums = append(sums, s)
			}
			if err == nil {
				_, err = Merge(sums)
			}
			require.Error(t, err, tc.name)
			d := testkit.Diagnostic(t, err, "%s: a diagnostic: %v", tc.name, err)
			require.Equal(t, tc.err, d.Line(), tc.name)
		})
	}
}

// TestReadJSONSummaryErrors: a malformed JSON summary is an error at the
// value at fault; with several faults, the first one read is reported.
func TestReadJSONSummaryErrors(t *testing.T) {
	const base = `{
  "space": "s.yaml",
  "shard": "1/2",
  "space_runs": 2,
  "space_digest": "abc",
  "runs": 1,
  "ok": 1,
  "failed": 0,
  "not_run": 0,
  "interrupted": false,
  "rows": [
    {
      "id": "run-001",
      "template": "t.yaml",
      "presets": ["p"],
      "inputs_file": "i.yaml",
      "inputs": {"x": 1},
      "options": {},
      "status": "ok",
      "nodes": ["a"],
      "relations": [],
      "weight": 1,
      "unique": true,
      "warnings": [],
      "ms": 1.5
    }
  ]
}`
	s, err := ReadSummary([]byte(base), "s.json")
	require.NoError(t, err)
	require.Equal(t, Shard{1, 2}, s.Shard)
	require.True(t, s.Timings)
	require.False(t, s.Stages)

	// With --stages: the solver's counts, and the stage times that the
	// timings then include.
	withStages := strings.Replace(strings.Replace(base, `"rows"`, `"stages": true, "rows"`, 1), `"ms": 1.5`, `"ms": 1.5, "stages": {"parse_ms": 0.1, "enrich_ms": 0.2, "graph_ms": 0.001, "encode_ms": 0.3, "solve_ms": 0.4, "transform_ms": 0.05, "emit_ms": 0}, "sat_calls": 2, "own_searches": 1`, 1)
	s, err = ReadSummary([]byte(withStages), "s.json")
	require.NoError(t, err)
	require.True(t, s.Stages)
	require.True(t, s.Timings)
	require.Equal(t, 2, s.Rows[0].Solver.Solves)
	require.Equal(t, 1, s.Rows[0].Solver.OwnSearches)
	require.Equal(t, time.Microsecond, s.Rows[0].Stages.Graph)
	require.Equal(t, 400*time.Microsecond, s.Rows[0].Stages.Solve)
	counts := strings.Replace(strings.Replace(base, `"ms": 1.5`, `"ms": 1.5, "sat_calls": 0, "own_searches": 0`, 1), `"rows"`, `"stages": true, "rows"`, 1)
	s, err = ReadSummary([]byte(counts), "s.json")
	require.NoError(t, err)
	require.True(t, s.Stages)
	require.False(t, s.Timings, "the stage times of a resolved run are missing")
	require.Len(t, s.Rows, 1)
	require.Equal(t, "i.yaml", s.Rows[0].Run.InputsFile)
	require.Equal(t, 1500*time.Microsecond, s.Rows[0].Duration)

	for _, tc := range []struct {
		name string
		doc  string   // the summary, when not base
		repl []string // replacements in base
		err  string
	}{
		{name: "space not a string", repl: []string{`"space": "s.yaml"`, `"space": 1`}, err: `s.json:2:12: "space" must be a string, found number`},
		{name: "no space", doc: `{"rows": []}`, err: `s.json:1:1: a summary of v4t batch without "space"`},
		{name: "shard not a string", repl: []string{`"shard": "1/2"`, `"shard": 2`}, err: `s.json:3:12: "shard" must be a string, found number`},
		{name: "no space digest", repl: []string{`"space_digest": "abc",`, ``}, err: `s.json:1:1: a summary of v4t batch without "space_digest"`},
		{name: "space runs a string", repl: []string{`"space_runs": 2`, `"space_runs": "2"`}, err: `s.json:4:17: "space_runs" must be a number, found string`},
		{name: "space runs null", repl: []string{`"space_runs": 2`, `"space_runs": null`}, err: `s.json:1:1: a summary of v4t batch without "space_runs"`},
		{name: "no space runs", repl: []string{`"space_runs": 2,`, ``}, err: `s.json:1:1: a summary of v4t batch without "space_runs"`},
		{name: "bad shard", repl: []string{`"shard": "1/2"`, `"shard": "3/2"`}, err: `s.json:1:1: bad shard columns: shard "3/2", space_runs "2", space_digest "abc"`},
		{name: "interrupted not a bool", repl: []string{`"interrupted": false`, `"interrupted": 0`}, err: `s.json:10:18: "interrupted" must be true or false, found number`},
		{name: "no rows", doc: `{"space": "s.yaml", "runs": 0}`, err: `s.json:1:1: a summary of v4t batch without "rows"`},
		{name: "rows not a list", doc: `{"space": "s.yaml", "rows": {}}`, err: `s.json:1:29: "rows" must be a list, found map`},
		{name: "a row not an object", doc: `{"space": "s.yaml", "rows": [1]}`, err: "s.json:1:30: expected a row (an object), found number"},
		{name: "unknown key in a row", repl: []string{`"ms": 1.5`, `"ms": 1.5, "x": 1`}, err: `s.json:25:23: unknown key "x" in a row`},
		{name: "sat calls negative", repl: []string{`"ms": 1.5`, `"ms": 1.5, "sat_calls": -1, "own_searches": 0`}, err: `s.json:25:31: "sat_calls" must be a whole number from 0, found -1`},
		{name: "own searches a fraction", repl: []string{`"ms": 1.5`, `"ms": 1.5, "sat_calls": 1, "own_searches": 0.5`}, err: `s.json:25:50: "own_searches" must be a whole number from 0, found 0.5`},
		{name: "stages not a bool", repl: []string{`"rows"`, `"stages": 1, "rows"`}, err: `s.json:11:13: "stages" must be true or false, found number`},
		{name: "stages without counts", repl: []string{`"rows"`, `"stages": true, "rows"`}, err: `s.json:1:1: a summary with stages whose resolved runs lack sat_calls: 0 of 1 have them`},
		{name: "sat calls alone", repl: []string{`"ms": 1.5`, `"ms": 1.5, "sat_calls": 1`}, err: `s.json:12:5: a row without "own_searches"`},
		{name: "stages not an object", repl: []string{`"ms": 1.5`, `"ms": 1.5, "stages": 1`}, err: `s.json:25:28: "stages" must be an object, found number`},
		{name: "stages without a stage", repl: []string{`"ms": 1.5`, `"ms": 1.5, "stages": {"parse_ms": 1}`}, err: `s.json:25:28: the stages of a row without "enrich_ms"`},
		{name: "unknown stage", repl: []string{`"ms": 1.5`, `"ms": 1.5, "stages": {"x": 1}`}, err: `s.json:25:34: unknown key "x" in the stages of a row`},
		{name: "template not a string", repl: []string{`"template": "t.yaml"`, `"template": null`}, err: `s.json:14:19: "template" must be a string, found null`},
		{name: "no presets", repl: []string{`"presets": ["p"],`, ``}, err: `s.json:12:5: a row without "presets"`},
		{name: "presets not a list", repl: []string{`"presets": ["p"]`, `"presets": "p"`}, err: `s.json:15:18: "presets" must be a list of strings, found string`},
		{name: "presets not strings", repl: []string{`"presets": ["p"]`, `"presets": ["p", 2]`}, err: `s.json:15:24: "presets" must be a list of strings, found number in it`},
		{name: "inputs file not a string", repl: []string{`"inputs_file": "i.yaml"`, `"inputs_file": []`}, err: `s.json:16:22: "inputs_file" must be a string, found list`},
		{name: "no inputs", repl: []string{`"inputs": {"x": 1},`, ``}, err: `s.json:12:5: a row without "inputs"`},
		{name: "options not an object", repl: []string{`"options": {}`, `"options": []`}, err: `s.json:18:18: "options" must be an object, found list`},
		{name: "no status", repl: []string{`"status": "ok",`, ``}, err: `s.json:12:5: a row without "status"`},
		{name: "status not a string", repl: []string{`"status": "ok"`, `"status": true`}, err: `s.json:19:17: "status" must be a string, found boolean`},
		{name: "unknown status", repl: []string{`"status": "ok"`, `"status": "fine"`}, err: `s.json:19:17: unknown status "fine" (expected ok, error or not run)`},
		{name: "a failed row without error", repl: []string{`"status": "ok"`, `"status": "error"`}, err: `s.json:12:5: a failed row without "error"`},
		{name: "error not a string", repl: []string{`"status": "ok"`, `"status": "error", "error": 1`}, err: `s.json:19:35: "error" must be a string, found number`},
		{name: "nodes not a list", repl: []string{`"nodes": ["a"]`, `"nodes": {}`}, err: `s.json:20:16: "nodes" must be a list of strings, found map`},
		{name: "no relations", repl: []string{`"relations": [],`, ``}, err: `s.json:12:5: a row without "relations"`},
		{name: "weight a string", repl: []string{`"weight": 1`, `"weight": "1"`}, err: `s.json:22:17: "weight" must be a number, found string`},
		{name: "unique a number", repl: []string{`"unique": true`, `"unique": 1`}, err: `s.json:23:17: "unique" must be true, false or null, found number`},
		{name: "warnings not a list", repl: []string{`"warnings": []`, `"warnings": ""`}, err: `s.json:24:19: "warnings" must be a list of strings, found string`},
		{name: "ms a string", repl: []string{`"ms": 1.5`, `"ms": "1.5"`}, err: `s.json:25:13: "ms" must be a number, found string`},
		{name: "no runs", repl: []string{`"runs": 1,`, ``}, err: `s.json:1:1: a summary of v4t batch without "runs"`},
		{name: "ok null", repl: []string{`"ok": 1`, `"ok": null`}, err: `s.json:1:1: a summary of v4t batch without "ok"`},
		{name: "failed a string", repl: []string{`"failed": 0`, `"failed": "0"`}, err: `s.json:8:13: "failed" must be a number, found string`},
		{name: "not run wrong", repl: []string{`"not_run": 0`, `"not_run": 1`}, err: `s.json:9:14: "not_run" is 1, but the summary has 0 rows not run`},
		{name: "a failed row counted ok", repl: []string{`"status": "ok"`, `"status": "error", "error": "e"`}, err: `s.json:7:9: "ok" is 1, but the summary has 0 rows with status ok`},
		// The first fault read is the one reported.
		{name: "unknown key before bad space", repl: []string{`"space": "s.yaml"`, `"space": 1, "x": 1`}, err: `s.json:2:20: unknown key "x" in a summary of v4t batch`},
		{name: "bad space before bad shard", repl: []string{`"space": "s.yaml"`, `"space": 1`, `"shard": "1/2"`, `"shard": 2`}, err: `s.json:2:12: "space" must be a string, found number`},
		{name: "bad shard before bad digest", repl: []string{`"shard": "1/2"`, `"shard": 2`, `"space_digest": "abc"`, `"space_digest": 3`}, err: `s.json:3:12: "shard" must be a string, found number`},
		{name: "bad digest before bad space runs", repl: []string{`"space_runs": 2`, `"space_runs": "2"`, `"space_digest": "abc"`, `"space_digest": 3`}, err: `s.json:5:19: "space_digest" must be a string, found number`},
		{name: "bad shard columns before bad interrupted", repl: []string{`"shard": "1/2"`, `"shard": "3/2"`, `"interrupted": false`, `"interrupted": 0`}, err: `s.json:1:1: bad shard columns: shard "3/2", space_runs "2", space_digest "abc"`},
		{name: "bad interrupted before bad rows", doc: `{"space": "s.yaml", "interrupted": 0, "rows": 1}`, err: `s.json:1:36: "interrupted" must be true or false, found number`},
		{name: "bad row before bad counts", repl: []string{`"ms": 1.5`, `"ms": "1.5"`, `"runs": 1`, `"runs": 2`}, err: `s.json:25:13: "ms" must be a number, found string`},
		{name: "unknown key in a row before no id", repl: []string{`"id": "run-001"`, `"x": "run-001"`}, err: `s.json:13:12: unknown key "x" in a row`},
		{name: "bad id before bad template", repl: []string{`"id": "run-001"`, `"id": 1`, `"template": "t.yaml"`, `"template": 1`}, err: `s.json:13:13: "id" must be a string, found number`},
		{name: "bad presets before bad inputs", repl: []string{`"presets": ["p"]`, `"presets": [1]`, `"inputs": {"x": 1}`, `"inputs": 1`}, err: `s.json:15:19: "presets" must be a list of strings, found number in it`},
		{name: "bad inputs file before bad inputs", repl: []string{`"inputs_file": "i.yaml"`, `"inputs_file": 1`, `"inputs": {"x": 1}`, `"inputs": 1`}, err: `s.json:16:22: "inputs_file" must be a string, found number`},
		{name: "bad inputs before bad options", repl: []string{`"inputs": {"x": 1}`, `"inputs": 1`, `"options": {}`, `"options": 1`}, err: `s.json:17:17: "inputs" must be an object, found number`},
		{name: "bad options before bad status", repl: []string{`"options": {}`, `"options": 1`, `"status": "ok"`, `"status": "fine"`}, err: `s.json:18:18: "options" must be an object, found number`},
		{name: "bad status before bad nodes", repl: []string{`"status": "ok"`, `"status": "fine"`, `"nodes": ["a"]`, `"nodes": 1`}, err: `s.json:19:17: unknown status "fine" (expected ok, error or not run)`},
		{name: "bad error before bad nodes", repl: []string{`"status": "ok"`, `"status": "error", "error": 1`, `"nodes": ["a"]`, `"nodes": 1`}, err: `s.json:19:35: "error" must be a string, found number`},
		{name: "bad nodes before bad relations", repl: []string{`"nodes": ["a"]`, `"nodes": 1`, `"relations": []`, `"relations": 1`}, err: `s.json:20:16: "nodes" must be a list of strings, found number`},
		{name: "bad relations before bad weight", repl: []string{`"relations": []`, `"relations": 1`, `"weight": 1`, `"weight": "1"`}, err: `s.json:21:20: "relations" must be a list of strings, found number`},
		{name: "bad weight before bad unique", repl: []string{`"weight": 1`, `"weight": "1"`, `"unique": true`, `"unique": 1`}, err: `s.json:22:17: "weight" must be a number, found string`},
		{name: "bad unique before bad warnings", repl: []string{`"unique": true`, `"unique": 1`, `"warnings": []`, `"warnings": 1`}, err: `s.json:23:17: "unique" must be true, false or null, found number`},
		{name: "bad warnings before bad ms", repl: []string{`"warnings": []`, `"warnings": 1`, `"ms": 1.5`, `"ms": "1.5"`}, err: `s.json:24:19: "warnings" must be a list of strings, found number`},
		{name: "bad first row before bad second row", doc: `{"space": "s.yaml", "rows": [{"id": 1}, 2]}`, err: `s.json:1:37: "id" must be a string, found number`},
		{name: "bad runs before bad ok", repl: []string{`"runs": 1`, `"runs": 2`, `"ok": 1`, `"ok": 2`}, err: `s.json:6:11: "runs" is 2, but the summary has 1 rows`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			if doc == "" {
				doc = strings.NewReplacer(tc.repl...).Replace(base)
			}
			_, err := ReadSummary([]byte(doc), "s.json")
			require.Error(t, err, tc.name)
			d := testkit.Diagnostic(t, err, "%s: a diagnostic: %v", tc.name, err)
			require.Equal(t, tc.err, d.Line(), tc.name)
		})
	}
}

// The CSV header tells the --stages columns: the solver's counts, and the
// stage times between ms and them where the summary has both.
func TestReadCSVSummaryStages(t *testing.T) {
	base := strings.Join(SummaryOptions{}.columns(false), ",")
	stageTimes, counts := strings.Join(stageColumns, ","), strings.Join(solverColumns, ",")
	for _, tc := range []struct {
		header          string
		timings, stages bool
		ok              bool
	}{
		{base, false, false, true},
		{base + ",ms", true, false, true},
		{base + "," + counts, false, true, true},
		{base + ",ms," + stageTimes + "," + counts, true, true, true},
		{base + ",ms," + counts, false, false, false},
		{base + ",ms," + stageTimes, false, false, false},
		{base + "," + stageTimes + "," + counts, false, false, false},
		{base + "," + counts + ",ms", false, false, false},
	} {
		s, err := ReadSummary([]byte(tc.header+"\n"), "s.csv")
		if !tc.ok {
			require.ErrorContains(t, err, notSummary, tc.header)
			continue
		}
		require.NoError(t, err, tc.header)
		require.Equal(t, tc.timings, s.Timings, tc.header)
		require.Equal(t, tc.stages, s.Stages, tc.header)
	}
}

// A summary that ReadSummary accepts merges and writes back in its format
// without a panic, whatever the bytes; the seeds are the summaries of the
// webshop space in every form v4t batch writes.
func FuzzReadSummary(f *testing.F) {
	full := webshopResult(f)
	for _, format := range []string{"csv", "json"} {
		for _, o := range []SummaryOptions{{}, {Timings: true}, {Stages: true}, {Timings: true, Stages: true}} {
			f.Add(summaryBytes(f, full, format, o))
			f.Add(summaryBytes(f, shardOf(full, Shard{2, 3}), format, o))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSummary(data, "s")
		if err != nil {
			return
		}
		m, err := Merge([]*Summary{s})
		if err != nil {
			return
		}
		o := SummaryOptions{Timings: m.Timings, Stages: m.Stages}
		var b bytes.Buffer
		switch m.Format {
		case "csv":
			require.NoError(t, m.Result.WriteCSV(&b, o))
		case "json":
			require.NoError(t, m.Result.WriteJSON(&b, o))
		}
		require.NoError(t, m.Result.WriteTable(&b, o))
	})
}
