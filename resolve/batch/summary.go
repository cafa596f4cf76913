package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"v4t/model/js"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// SummaryOptions tune the summary writers.
type SummaryOptions struct {
	// Timings adds the ms column (and with Stages the stageColumns);
	// without it the same space always gives the same bytes.
	Timings bool
	// Stages adds the solverColumns (and with Timings the stageColumns).
	Stages bool
}

// columns are the summary's columns in CSV and JSON order; the table moves
// status, which holds long error lines, to the end.
var columns = []string{"id", "template", "presets", "inputs", "options", "status", "nodes", "relations", "weight", "unique", "warnings", "ms"}

// stageColumns are the durations of a resolved run's stages
// (resolve.Timings) and of writing its result file, in milliseconds.
var stageColumns = []string{"parse_ms", "enrich_ms", "graph_ms", "encode_ms", "solve_ms", "transform_ms", "emit_ms"}

// solverColumns are the solver's work in a resolved run: its SAT calls
// (gophersat) and the parts that v4t's own search optimised; a run with
// neither was settled by propagation.
var solverColumns = []string{"sat_calls", "own_searches"}

func (o SummaryOptions) columns(table bool) []string {
	var out []string
	for _, c := range columns {
		if c == "ms" && !o.Timings || table && c == "status" {
			continue
		}
		out = append(out, c)
	}
	if o.Stages {
		if o.Timings {
			out = append(out, stageColumns...)
		}
		out = append(out, solverColumns...)
	}
	if table {
		out = append(out, "status")
	}
	return out
}

// stageTimes are a row's stage durations in the order of stageColumns.
func (r *Row) stageTimes() [7]time.Duration {
	t := &r.Stages
	return [7]time.Duration{t.Parse, t.Enrich, t.Graph, t.Encode, t.Solve, t.Transform, r.Emit}
}

// setStageTimes sets a row's stage durations from stageTimes' order.
func (r *Row) setStageTimes(d [7]time.Duration) {
	t := &r.Stages
	t.Parse, t.Enrich, t.Graph, t.Encode, t.Solve, t.Transform, r.Emit = d[0], d[1], d[2], d[3], d[4], d[5], d[6]
}

// stageMs renders a stage's duration in milliseconds, to the microsecond:
// most stages of a small template take less than a millisecond.
func stageMs(d time.Duration) string {
	return fmt.Sprintf("%.3f", float64(d.Microseconds())/1000)
}

// shardColumns follow the columns in the CSV summary of a shard; every row
// repeats them, so that concatenated shards still say where a row came
// from. The summary of the whole space has none of them.
var shardColumns = []string{"shard", "space_runs", "space_digest"}

// cell renders one column of a row as text.
func (r *Row) cell(col string) string {
	if r.texts != nil {
		// A row read back from a CSV summary (ReadSummary).
		return r.texts[col]
	}
	switch col {
	case "id":
		return r.Run.ID
	case "template":
		return r.Run.Template
	case "presets":
		return r.Run.PresetsText()
	case "inputs":
		return r.Run.InputsText()
	case "options":
		return r.Run.OptionsText()
	case "status":
		if r.Status == Failed {
			return r.ErrorText()
		}
		return r.Status.String()
	case "nodes":
		return strings.Join(r.Report.Nodes, " ")
	case "relations":
		return strings.Join(r.Report.Relations, " ")
	case "weight":
		if r.Status != OK {
			return ""
		}
		return js.FormatNumber(r.Report.Weight)
	case "unique":
		if r.Status != OK {
			return ""
		}
		if r.Report.Unique {
			return "yes"
		}
		return "no"
	case "warnings":
		if r.Status == NotRun {
			return ""
		}
		return fmt.Sprint(len(r.Warnings))
	case "ms":
		if r.Status == NotRun {
			return ""
		}
		return fmt.Sprintf("%.1f", float64(r.Duration.Microseconds())/1000)
	case "sat_calls", "own_searches":
		if r.Status != OK {
			return ""
		}
		if col == "sat_calls" {
			return fmt.Sprint(r.Solver.Solves)
		}
		return fmt.Sprint(r.Solver.OwnSearches)
	}
	if i := slices.Index(stageColumns, col); i >= 0 {
		if r.Status != OK {
			return ""
		}
		return stageMs(r.stageTimes()[i])
	}
	panic("batch: unknown column " + col)
}

// WriteTable writes the summary as a table with aligned columns.
func (res *Result) WriteTable(w io.Writer, o SummaryOptions) error {
	cols := o.columns(true)
	cells := [][]string{cols}
	for i := range res.Rows {
		line := make([]string, len(cols))
		for j, c := range cols {
			line[j] = res.Rows[i].cell(c)
		}
		cells = append(cells, line)
	}
	return writeAligned(w, cells)
}

// writeAligned pads every column but the last to its widest cell, and
// drops the spaces that end a line. Widths count runes (an invalid byte
// counts one).
//
// It writes the summary after the last run, while every other core idles,
// and a table is mostly padding: the nodes column of a space over large
// templates is as wide as its longest list (ring seed 200: a 5.5 MB table
// for 192 runs). With a rune slice per cell measured twice, a builder
// per line and the whole table in memory twice, that took 47 ms of a
// 0.5 s batch at -j 2, most of it the page faults of fresh memory; each
// line now goes to w from one reused buffer.
func writeAligned(w io.Writer, cells [][]string) error {
	if len(cells) == 0 {
		return nil
	}
	cols := len(cells[0])
	widths := make([]int, cols)
	runes := make([]int, 0, len(cells)*cols)
	for _, line := range cells {
		for j, c := range line {
			n := utf8.RuneCountInString(c)
			runes = append(runes, n)
			widths[j] = max(widths[j], n)
		}
	}
	var b []byte
	k := 0
	for _, line := range cells {
		b = b[:0]
		for j, c := range line {
			b = append(b, c...)
			if j < len(line)-1 {
				b = appendSpaces(b, widths[j]-runes[k]+2)
			}
			k++
		}
		end := len(b)
		for end > 0 && b[end-1] == ' ' {
			end--
		}
		b = append(b[:end], '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// spaces pads table cells (appendSpaces).
const spaces = "                                                                "

// appendSpaces appends n spaces to b.
func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}

// WriteCSV writes the summary as CSV with a header line; that of a shard
// (Space.Select) adds the shardColumns.
func (res *Result) WriteCSV(w io.Writer, o SummaryOptions) error {
	cols := o.columns(false)
	sh := res.Space.Shard
	if sh.N > 0 {
		cols = append(cols, shardColumns...)
	}
	return writeCSV(w, cols, len(res.Rows), func(i int) []string {
		line := make([]string, len(cols))
		for j, c := range cols {
			switch c {
			case "shard":
				line[j] = sh.String()
			case "space_runs":
				line[j] = fmt.Sprint(res.Space.Total)
			case "space_digest":
				line[j] = res.Space.Digest
			default:
				line[j] = res.Rows[i].cell(c)
			}
		}
		return line
	})
}

// writeCSV writes a CSV header line and n lines.
func writeCSV(w io.Writer, header []string, n int, line func(i int) []string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range n {
		if err := cw.Write(line(i)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonRequest is what a run resolves, in the JSON summary and comparison;
// field names are stable.
type jsonRequest struct {
	Template  string          `json:"template"`
	Presets   []string        `json:"presets"`
	InputsRef string          `json:"inputs_file,omitempty"`
	Inputs    json.RawMessage `json:"inputs"`
	Options   json.RawMessage `json:"options"`
}

// jsonOutcome is how a run ended, in the JSON summary and comparison;
// field names are stable.
type jsonOutcome struct {
	Status    string   `json:"status"`
	Error     string   `json:"error,omitempty"`
	Nodes     []string `json:"nodes"`
	Relations []string `json:"relations"`
	Weight    *float64 `json:"weight"`
	Unique    *bool    `json:"unique"`
}

// outcomeJSON returns the row's outcome; weight and unique are null unless
// the run resolved.
func (r *Row) outcomeJSON() jsonOutcome {
	o := jsonOutcome{
		Status: r.Status.String(), Error: r.ErrorText(),
		Nodes: orEmpty(r.Report.Nodes), Relations: orEmpty(r.Report.Relations),
	}
	if r.Status == OK {
		weight, unique := r.Report.Weight, r.Report.Unique
		o.Weight, o.Unique = &weight, &unique
	}
	return o
}

// jsonRow is a row of the JSON summary; field names are stable.
type jsonRow struct {
	ID string `json:"id"`
	jsonRequest
	jsonOutcome
	Warnings []string `json:"warnings"`
	Ms       *float64 `json:"ms,omitempty"`
	// Stages, SATCalls and OwnSearches are those of a resolved run, with
	// --stages (Stages with timings only).
	Stages      *jsonStages `json:"stages,omitempty"`
	SATCalls    *int        `json:"sat_calls,omitempty"`
	OwnSearches *int        `json:"own_searches,omitempty"`
}

// jsonStages are the stageColumns of a row, as numbers; field names are
// stable.
type jsonStages struct {
	Parse     float64 `json:"parse_ms"`
	Enrich    float64 `json:"enrich_ms"`
	Graph     float64 `json:"graph_ms"`
	Encode    float64 `json:"encode_ms"`
	Solve     float64 `json:"solve_ms"`
	Transform float64 `json:"transform_ms"`
	Emit      float64 `json:"emit_ms"`
}

type jsonSummary struct {
	Space string `json:"space"`
	// Shard, SpaceRuns and SpaceDigest are only in the summary of a shard.
	Shard       string `json:"shard,omitempty"`
	SpaceRuns   int    `json:"space_runs,omitempty"`
	SpaceDigest string `json:"space_digest,omitempty"`
	Runs        int    `json:"runs"`
	OK          int    `json:"ok"`
	Failed      int    `json:"failed"`
	NotRun      int    `json:"not_run"`
	Interrupted bool   `json:"interrupted"`
	// Stages says that the resolved runs have their solver's counts
	// (--stages); left out without.
	Stages bool      `json:"stages,omitempty"`
	Rows   []jsonRow `json:"rows"`
}

// WriteJSON writes the summary as one JSON document; that of a shard
// (Space.Select) adds the fields shard, space_runs and space_digest.
// Rows read back from a CSV summary cannot be written as JSON: their
// inputs and options are text.
func (res *Result) WriteJSON(w io.Writer, o SummaryOptions) error {
	s := jsonSummary{Space: res.Space.File, Runs: len(res.Rows), Interrupted: res.Interrupted, Stages: o.Stages, Rows: []jsonRow{}}
	if sh := res.Space.Shard; sh.N > 0 {
		s.Shard, s.SpaceRuns, s.SpaceDigest = sh.String(), res.Space.Total, res.Space.Digest
	}
	s.OK, s.Failed, s.NotRun = res.Counts()
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.texts != nil {
			return errCSVtoJSON
		}
		jr := jsonRow{
			ID: r.Run.ID,
			jsonRequest: jsonRequest{
				Template: r.Run.Template, Presets: orEmpty(r.Run.Presets), InputsRef: r.Run.InputsFile,
				Inputs: assignmentsJSON(r.Run.Inputs), Options: assignmentsJSON(r.Run.Options),
			},
			jsonOutcome: r.outcomeJSON(),
			Warnings:    orEmpty(r.Warnings),
		}
		if o.Timings && r.Status != NotRun {
			ms := float64(r.Duration.Microseconds()) / 1000
			jr.Ms = &ms
		}
		if o.Stages && r.Status == OK {
			if o.Timings {
				t := r.stageTimes()
				f := func(i int) float64 { return float64(t[i].Microseconds()) / 1000 }
				jr.Stages = &jsonStages{f(0), f(1), f(2), f(3), f(4), f(5), f(6)}
			}
			sat, own := r.Solver.Solves, r.Solver.OwnSearches
			jr.SATCalls, jr.OwnSearches = &sat, &own
		}
		s.Rows = append(s.Rows, jr)
	}
	return writeJSON(w, s)
}

// writeJSON writes v indented, without escaping <, > and & (relation
// labels contain "->").
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// assignmentsJSON renders assignments as a JSON object in their order.
func assignmentsJSON(as []resolve.Assignment) json.RawMessage {
	m := yamlsrc.NewMap()
	for _, a := range as {
		m.Map().Set(a.Name, a.Value)
	}
	return json.RawMessage(yamlsrc.JSON(m))
}
