package batch

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// Summary is a summary of v4t batch read back (ReadSummary), for Merge.
type Summary struct {
	File string
	// Format is "csv" or "json".
	Format string
	// Timings is set when the summary has the ms column (in JSON: when
	// every run that ran has ms), and with Stages the stageColumns.
	Timings bool
	// Stages is set when the summary has the solverColumns (v4t batch
	// --stages; in JSON, the field stages).
	Stages bool
	// Space is the space file the JSON summary names.
	Space string
	// Shard, Total and Digest are what the summary of a shard records
	// (shard, space_runs, space_digest); zero in a summary of a whole
	// space.
	Shard  Shard
	Total  int
	Digest string
	// Interrupted is the JSON summary's interrupted.
	Interrupted bool
	Rows        []Row
	// pos is the position of each row: its line, or its object.
	pos []diag.Pos
}

// textError is a run's error read back from a summary, already one line.
type textError string

func (t textError) Error() string { return string(t) }

var errCSVtoJSON = errors.New("a summary read from CSV cannot be written as JSON: its inputs and options are text")

const notSummary = "not a summary of v4t batch --format csv or json"

// ReadSummary reads a summary written by v4t batch --format csv or json;
// the format is told by the content (JSON starts with '{'). Errors are
// diagnostics positioned in file.
func ReadSummary(data []byte, file string) (*Summary, error) {
	body := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\uFEFF")), " \t\r\n")
	switch {
	case len(body) == 0:
		return nil, diag.Errorf(diag.Pos{File: file}, diag.StageLoad, "empty, %s", notSummary)
	case body[0] == '{':
		return readJSONSummary(data, file)
	}
	return readCSVSummary(data, file)
}

func readCSVSummary(data []byte, file string) (*Summary, error) {
	s := &Summary{File: file, Format: "csv"}
	r := csv.NewReader(bytes.NewReader(data))
	csvErr := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return diag.Errorf(diag.Pos{File: file, Line: pe.Line, Col: pe.Column}, diag.StageLoad, "%v", pe.Err)
		}
		return diag.Errorf(diag.Pos{File: file}, diag.StageLoad, "%v", err)
	}
	header, err := r.Read()
	if err != nil {
		return nil, csvErr(err)
	}
	base := SummaryOptions{}.columns(false)
	rest, ok := cutPrefix(header, base)
	sharded := false
	if ok {
		if after, ms := cutPrefix(rest, []string{"ms"}); ms {
			s.Timings, rest = true, after
		}
		stageTimes := false
		if after, ok := cutPrefix(rest, stageColumns); ok {
			stageTimes, rest = true, after
		}
		if after, ok := cutPrefix(rest, solverColumns); ok {
			s.Stages, rest = true, after
		}
		rest, sharded = cutPrefix(rest, shardColumns)
		// The writer puts the stage times after ms and before the solver
		// columns, and only with both.
		ok = len(rest) == 0 && stageTimes == (s.Timings && s.Stages)
	}
	if !ok {
		return nil, diag.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, diag.StageLoad, "%s: expected the header %s", notSummary, strings.Join(base, ","))
	}
	meta := ""
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		line, _ := r.FieldPos(0)
		pos := diag.Pos{File: file, Line: line, Col: 1}
		texts := map[string]string{}
		for j, c := range header {
			texts[c] = rec[j]
		}
		if sharded {
			m := texts["shard"] + "," + texts["space_runs"] + "," + texts["space_digest"]
			switch {
			case meta == "":
				meta = m
				if err := s.setShard(texts["shard"], texts["space_runs"], texts["space_digest"], pos); err != nil {
					return nil, err
				}
			case m != meta:
				return nil, diag.Errorf(pos, diag.StageLoad, "shard %s, space_runs %s and space_digest %s differ from those of the first row", texts["shard"], texts["space_runs"], texts["space_digest"])
			}
			for _, c := range shardColumns {
				delete(texts, c)
			}
		}
		row := Row{Run: &Run{ID: texts["id"], Template: texts["template"]}, texts: texts}
		switch texts["status"] {
		case OK.String():
			row.Status = OK
		case NotRun.String():
			row.Status = NotRun
		default:
			row.Status, row.Err = Failed, textError(texts["status"])
		}
		s.Rows = append(s.Rows, row)
		s.pos = append(s.pos, pos)
	}
	return s, nil
}

// cutPrefix returns what follows prefix in list.
func cutPrefix(list, prefix []string) ([]string, bool) {
	if len(list) < len(prefix) || !slices.Equal(list[:len(prefix)], prefix) {
		return list, false
	}
	return list[len(prefix):], true
}

// setShard records the shard columns of a summary.
func (s *Summary) setShard(shard, runs, digest string, pos diag.Pos) error {
	k, n, _ := strings.Cut(shard, "/")
	sh := Shard{}
	var ok1, ok2, ok3 bool
	sh.K, ok1 = digits(k)
	sh.N, ok2 = digits(n)
	total, ok3 := digits(runs)
	if !ok1 || !ok2 || !ok3 || sh.K < 1 || sh.K > sh.N || total < 1 || total > MaxRuns || digest == "" {
		return diag.Errorf(pos, diag.StageLoad, "bad shard columns: shard %q, space_runs %q, space_digest %q", shard, runs, digest)
	}
	s.Shard, s.Total, s.Digest = sh, total, digest
	return nil
}

// jsonReader reads the values of a JSON summary. Like bufio.Scanner, it
// keeps the first error it meets: after it, reads do nothing and return
// zero values, so a run of reads is checked once, where a value decides
// what comes next, and reports its first fault.
type jsonReader struct {
	file string
	err  error
}

// fail records an error at v (at the file when v is nil), unless there is
// one already.
func (j *jsonReader) fail(v *yamlsrc.Value, format string, args ...any) {
	if j.err != nil {
		return
	}
	pos := diag.Pos{File: j.file}
	if v != nil {
		pos.Line, pos.Col = int(v.Line), int(v.Col)
	}
	j.err = diag.Errorf(pos, diag.StageLoad, format, args...)
}

// get returns the value of key, which must be there (else an error at
// parent) and of kind k (else an error at it, saying it must be desc); nil
// after an error.
func (j *jsonReader) get(parent *yamlsrc.Value, key, what string, k yamlsrc.Kind, desc string) *yamlsrc.Value {
	if j.err != nil {
		return nil
	}
	v, ok := parent.Map().Lookup(key)
	switch {
	case !ok:
		j.fail(parent, "%s without %q", what, key)
	case v.Kind != k:
		j.fail(v, "%q must be %s, found %s", key, desc, kind(v))
	default:
		return v
	}
	return nil
}

// str reads a string.
func (j *jsonReader) str(parent *yamlsrc.Value, key, what string) string {
	if v := j.get(parent, key, what, yamlsrc.KindString, "a string"); v != nil {
		return v.Str()
	}
	return ""
}

func (j *jsonReader) strings(parent *yamlsrc.Value, key, what string) []string {
	v := j.get(parent, key, what, yamlsrc.KindList, "a list of strings")
	if v == nil {
		return nil
	}
	var out []string
	for _, x := range v.List() {
		if !x.IsString() {
			j.fail(x, "%q must be a list of strings, found %s in it", key, kind(x))
			return nil
		}
		out = append(out, x.Str())
	}
	return out
}

// number reads a number, or null or nothing (nil).
func (j *jsonReader) number(parent *yamlsrc.Value, key string) *float64 {
	if j.err != nil {
		return nil
	}
	v, ok := parent.Map().Lookup(key)
	if !ok || v.IsNull() {
		return nil
	}
	if v.Kind != yamlsrc.KindNumber {
		j.fail(v, "%q must be a number, found %s", key, kind(v))
		return nil
	}
	n := v.Num()
	return &n
}

func (j *jsonReader) assignments(parent *yamlsrc.Value, key, what string) []resolve.Assignment {
	v := j.get(parent, key, what, yamlsrc.KindMap, "an object")
	if v == nil {
		return nil
	}
	var out []resolve.Assignment
	for _, k := range v.Map().Keys() {
		out = append(out, resolve.Assignment{Name: k, Value: v.Map().Get(k)})
	}
	return out
}

func (j *jsonReader) keys(v *yamlsrc.Value, what string, allowed ...string) {
	for _, k := range v.Map().Keys() {
		if !slices.Contains(allowed, k) {
			j.fail(v.Map().Get(k), "unknown key %q in %s", k, what)
			return
		}
	}
}

func readJSONSummary(data []byte, file string) (*Summary, error) {
	doc, err := yamlsrc.ParseJSON(data, file)
	if err != nil {
		return nil, err
	}
	j := &jsonReader{file: file}
	s := &Summary{File: file, Format: "json", Timings: true}
	const what = "a summary of v4t batch"
	j.keys(doc, what, "space", "shard", "space_runs", "space_digest", "runs", "ok", "failed", "not_run", "interrupted", "stages", "rows")
	s.Space = j.str(doc, "space", what)
	if doc.Has("shard") || doc.Has("space_runs") || doc.Has("space_digest") {
		shard := j.str(doc, "shard", what)
		digest := j.str(doc, "space_digest", what)
		runs := j.number(doc, "space_runs")
		if runs == nil {
			j.fail(doc, "%s without %q", what, "space_runs")
		}
		if j.err != nil {
			return nil, j.err
		}
		if err := s.setShard(shard, js.FormatNumber(*runs), digest, diag.Pos{File: file, Line: int(doc.Line), Col: int(doc.Col)}); err != nil {
			return nil, err
		}
	}
	if v, ok := doc.Map().Lookup("interrupted"); ok {
		if v.Kind != yamlsrc.KindBool {
			j.fail(v, "%q must be true or false, found %s", "interrupted", kind(v))
		}
		s.Interrupted = v.Bool
	}
	if v, ok := doc.Map().Lookup("stages"); ok {
		if v.Kind != yamlsrc.KindBool {
			j.fail(v, "%q must be true or false, found %s", "stages", kind(v))
		}
		s.Stages = v.Bool
	}
	rows := j.get(doc, "rows", what, yamlsrc.KindList, "a list")
	if j.err != nil {
		return nil, j.err
	}
	// With stages, every resolved run has the solver's counts, and the
	// timings include its stage times.
	resolved, withSolver, withStages := 0, 0, 0
	for _, rv := range rows.List() {
		row, parts := j.row(rv)
		if j.err != nil {
			return nil, j.err
		}
		if row.Status != NotRun && row.Duration < 0 {
			s.Timings = false
		}
		if row.Status == OK {
			resolved++
			if parts.solver {
				withSolver++
			}
			if parts.stages {
				withStages++
			}
		}
		if row.Duration < 0 {
			row.Duration = 0
		}
		s.Rows = append(s.Rows, *row)
		s.pos = append(s.pos, diag.Pos{File: file, Line: int(rv.Line), Col: int(rv.Col)})
	}
	if s.Stages && withSolver < resolved {
		return nil, diag.Errorf(diag.Pos{File: file, Line: int(doc.Line), Col: int(doc.Col)}, diag.StageLoad,
			"a summary with stages whose resolved runs lack sat_calls: %d of %d have them", withSolver, resolved)
	}
	if s.Stages && withStages < resolved {
		s.Timings = false
	}
	// The counts must be those of the rows: a summary edited by hand, or
	// cut short, is not merged.
	res := &Result{Rows: s.Rows}
	ok1, failed, notRun := res.Counts()
	for _, c := range []struct {
		key  string
		want int
		of   string
	}{{"runs", len(s.Rows), "rows"}, {"ok", ok1, "rows with status ok"}, {"failed", failed, "rows with status error"}, {"not_run", notRun, "rows not run"}} {
		n := j.number(doc, c.key)
		switch {
		case n == nil:
			j.fail(doc, "%s without %q", what, c.key)
		case *n != float64(c.want):
			j.fail(doc.Get(c.key), "%q is %s, but the summary has %d %s", c.key, js.FormatNumber(*n), c.want, c.of)
		}
	}
	if j.err != nil {
		return nil, j.err
	}
	return s, nil
}

// rowParts says which optional parts a JSON row has.
type rowParts struct {
	// solver: sat_calls and own_searches; stages: the stage times.
	solver, stages bool
}

// row reads one row of a JSON summary, nil after an error; Duration is -1
// without ms.
func (j *jsonReader) row(v *yamlsrc.Value) (*Row, rowParts) {
	const what = "a row"
	var parts rowParts
	if !v.IsMap() {
		j.fail(v, "expected a row (an object), found %s", kind(v))
		return nil, parts
	}
	j.keys(v, what, "id", "template", "presets", "inputs_file", "inputs", "options", "status", "error", "nodes", "relations", "weight", "unique", "warnings", "ms",
		"stages", "sat_calls", "own_searches")
	r := &Run{}
	r.ID = j.str(v, "id", what)
	r.Template = j.str(v, "template", what)
	r.Presets = j.strings(v, "presets", what)
	if v.Has("inputs_file") {
		r.InputsFile = j.str(v, "inputs_file", what)
	}
	r.Inputs = j.assignments(v, "inputs", what)
	r.Options = j.assignments(v, "options", what)
	row := &Row{Run: r, Duration: -1}
	status := j.str(v, "status", what)
	if j.err != nil {
		return nil, parts
	}
	switch status {
	case OK.String():
		row.Status = OK
	case NotRun.String():
		row.Status = NotRun
	case Failed.String():
		row.Status, row.Err = Failed, textError(j.str(v, "error", "a failed row"))
	default:
		j.fail(v.Get("status"), "unknown status %q (expected ok, error or not run)", status)
		return nil, parts
	}
	row.Report.Nodes = j.strings(v, "nodes", what)
	row.Report.Relations = j.strings(v, "relations", what)
	if weight := j.number(v, "weight"); weight != nil {
		row.Report.Weight = *weight
	}
	if u, ok := v.Map().Lookup("unique"); ok && !u.IsNull() {
		if u.Kind != yamlsrc.KindBool {
			j.fail(u, "%q must be true, false or null, found %s", "unique", kind(u))
		}
		row.Report.Unique = u.Bool
	}
	// Summaries of versions before the warnings column have none.
	if v.Has("warnings") {
		row.Warnings = j.strings(v, "warnings", what)
	}
	if ms := j.number(v, "ms"); ms != nil {
		row.Duration = fromMs(*ms)
	}
	if v.Has("sat_calls") || v.Has("own_searches") {
		sat, own := j.count(v, "sat_calls"), j.count(v, "own_searches")
		row.Solver.Solves, row.Solver.OwnSearches = sat, own
		parts.solver = true
	}
	if v.Has("stages") {
		st := j.get(v, "stages", what, yamlsrc.KindMap, "an object")
		if j.err != nil {
			return nil, parts
		}
		j.keys(st, "the stages of a row", stageColumns...)
		var times [7]time.Duration
		for i, c := range stageColumns {
			if ms := j.number(st, c); ms != nil {
				times[i] = fromMs(*ms)
			} else {
				j.fail(st, "the stages of a row without %q", c)
			}
		}
		row.setStageTimes(times)
		parts.stages = true
	}
	if j.err != nil {
		return nil, parts
	}
	return row, parts
}

// fromMs inverts the writers' float64(µs)/1000 exactly.
func fromMs(ms float64) time.Duration {
	return time.Duration(math.Round(ms*1000)) * time.Microsecond
}

// count reads a count, a whole number from 0; 0 after an error.
func (j *jsonReader) count(parent *yamlsrc.Value, key string) int {
	n := j.number(parent, key)
	switch {
	case j.err != nil:
		return 0
	case n == nil:
		j.fail(parent, "a row without %q", key)
		return 0
	case *n < 0 || *n != math.Trunc(*n) || *n > math.MaxInt32:
		j.fail(parent.Get(key), "%q must be a whole number from 0, found %s", key, js.FormatNumber(*n))
		return 0
	}
	return int(*n)
}

// Merged is the summary of a whole space made of the summaries of its
// shards.
type Merged struct {
	*Result
	// Format is that of the summaries.
	Format string
	// Timings is set when every summary has timings, which the merged
	// summary can then keep; Stages likewise for the --stages columns.
	Timings bool
	Stages  bool
}

// maxListed bounds the run ids an error lists.
const maxListed = 10

// Merge merges the summaries of the shards of a space into the summary of
// the whole space, with the rows sorted by run id, as v4t batch without
// --shard would have written it (spaces.md §5). It checks that the
// summaries are of one format and one space, and that they cover the space
// exactly once: a missing or duplicated run id is an error that names it.
//
// The run count of the space is the one the shard summaries record
// (space_runs); summaries without it (of a whole space, or of another
// version) only show gaps below their highest run id.
func Merge(sums []*Summary) (*Merged, error) {
	if len(sums) == 0 {
		return nil, diag.New(diag.StageLoad, "no summaries to merge")
	}
	first := sums[0]
	var ref *Summary // the first summary that records its shard
	m := &Merged{Format: first.Format, Timings: true, Stages: true}
	for _, s := range sums {
		at := diag.Pos{File: s.File}
		if s.Format != first.Format {
			return nil, diag.Errorf(at, diag.StageLoad, "a %s summary, but %s is %s: merge summaries of one format", strings.ToUpper(s.Format), first.File, strings.ToUpper(first.Format))
		}
		if s.Format == "json" && s.Space != first.Space {
			return nil, diag.Errorf(at, diag.StageLoad, "a summary of the space %q, but %s is of %q", s.Space, first.File, first.Space)
		}
		if s.Shard.N > 0 {
			switch {
			case ref == nil:
				ref = s
			case s.Digest != ref.Digest || s.Total != ref.Total:
				return nil, diag.Errorf(at, diag.StageLoad, "a shard of another space than %s (space digest %s, not %s)", ref.File, s.Digest, ref.Digest)
			case s.Shard.N != ref.Shard.N:
				return nil, diag.Errorf(at, diag.StageLoad, "shard %s, but %s is shard %s: merge the shards of one --shard K/N", s.Shard, ref.File, ref.Shard)
			}
		}
		m.Timings = m.Timings && s.Timings
		m.Stages = m.Stages && s.Stages
	}

	type entry struct {
		num int
		row Row
		pos diag.Pos
	}
	var all []entry
	total := 0
	for _, s := range sums {
		for i, row := range s.Rows {
			num, ok := runNumber(row.Run.ID)
			if !ok {
				return nil, diag.Errorf(s.pos[i], diag.StageLoad, "%q is not a run id (run-001, run-002, ...)", row.Run.ID)
			}
			if !s.Shard.Has(num - 1) {
				return nil, diag.Errorf(s.pos[i], diag.StageLoad, "%s is not in shard %s", row.Run.ID, s.Shard)
			}
			if num > MaxRuns {
				return nil, diag.Errorf(s.pos[i], diag.StageLoad, "%s is beyond the largest space (%d runs)", row.Run.ID, MaxRuns)
			}
			all = append(all, entry{num, row, s.pos[i]})
			total = max(total, num)
		}
	}
	if ref != nil {
		total = ref.Total
	}
	width := max(3, len(strconv.Itoa(total)))
	for _, e := range all {
		if e.num > total {
			return nil, diag.Errorf(e.pos, diag.StageLoad, "%s is not a run of a space of %d runs", e.row.Run.ID, total)
		}
		if want := fmt.Sprintf("run-%0*d", width, e.num); e.row.Run.ID != want {
			return nil, diag.Errorf(e.pos, diag.StageLoad, "run id %q is not the id of run %d in a space of %d runs (%s)", e.row.Run.ID, e.num, total, want)
		}
	}

	// Sorting is stable, so a duplicate follows its first occurrence in
	// the order of the summaries.
	sort.SliceStable(all, func(a, b int) bool { return all[a].num < all[b].num })
	var dups []string
	var dupAt, firstAt diag.Pos
	seen := make([]bool, total+1)
	for i, e := range all {
		if !seen[e.num] {
			seen[e.num] = true
			continue
		}
		if len(dups) == 0 {
			dupAt, firstAt = e.pos, all[i-1].pos
		}
		if len(dups) == 0 || dups[len(dups)-1] != e.row.Run.ID {
			dups = append(dups, e.row.Run.ID)
		}
	}
	if len(dups) > 0 {
		where := fmt.Sprintf("%s is also at %s", dups[0], firstAt)
		if firstAt == dupAt {
			where = dupAt.File + " is given twice"
		}
		return nil, diag.Errorf(dupAt, diag.StageLoad, "duplicated run ids: %s (%s)", listIDs(dups), where)
	}
	var missing []string
	for num := 1; num <= total; num++ {
		if !seen[num] {
			missing = append(missing, fmt.Sprintf("run-%0*d", width, num))
		}
	}
	if len(missing) > 0 {
		msg := "missing run ids: " + listIDs(missing)
		if ref != nil {
			given := map[int]bool{}
			for _, s := range sums {
				given[s.Shard.K] = s.Shard.N > 0
			}
			var absent []string
			for k := 1; k <= ref.Shard.N; k++ {
				if !given[k] {
					absent = append(absent, Shard{K: k, N: ref.Shard.N}.String())
				}
			}
			switch len(absent) {
			case 0:
			case 1:
				msg += " (no summary of shard " + absent[0] + ")"
			default:
				msg += " (no summaries of shards " + strings.Join(absent, ", ") + ")"
			}
		}
		return nil, diag.New(diag.StageLoad, msg)
	}

	space := &Space{File: first.Space, Total: total}
	if ref != nil {
		space.Digest = ref.Digest
	}
	res := &Result{Space: space}
	for _, e := range all {
		res.Rows = append(res.Rows, e.row)
		space.Runs = append(space.Runs, e.row.Run)
	}
	for _, s := range sums {
		res.Interrupted = res.Interrupted || s.Interrupted
	}
	m.Result = res
	return m, nil
}

// runNumber reads the number of a run id: run-007 is 7.
func runNumber(id string) (int, bool) {
	n, ok := digits(strings.TrimPrefix(id, "run-"))
	return n, ok && n > 0 && strings.HasPrefix(id, "run-")
}

// listIDs lists run ids, the first maxListed of them.
func listIDs(ids []string) string {
	if len(ids) <= maxListed {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(ids[:maxListed], ", "), len(ids))
}
