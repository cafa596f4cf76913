package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// SummaryOptions tune the summary writers.
type SummaryOptions struct {
	// Timings adds the ms column; without it the same space always gives
	// the same bytes.
	Timings bool
}

// columns are the summary's columns in CSV and JSON order; the table moves
// status, which holds long error lines, to the end.
var columns = []string{"id", "template", "presets", "inputs", "options", "status", "nodes", "relations", "weight", "unique", "ms"}

func (o SummaryOptions) columns(table bool) []string {
	var out []string
	for _, c := range columns {
		if c == "ms" && !o.Timings || table && c == "status" {
			continue
		}
		out = append(out, c)
	}
	if table {
		out = append(out, "status")
	}
	return out
}

// cell renders one column of a row as text.
func (r *Row) cell(col string) string {
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
		return yamlsrc.FormatNumber(r.Report.Weight)
	case "unique":
		if r.Status != OK {
			return ""
		}
		if r.Report.Unique {
			return "yes"
		}
		return "no"
	case "ms":
		if r.Status == NotRun {
			return ""
		}
		return fmt.Sprintf("%.1f", float64(r.Duration.Microseconds())/1000)
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

// writeAligned pads every column but the last to its widest cell.
func writeAligned(w io.Writer, cells [][]string) error {
	if len(cells) == 0 {
		return nil
	}
	widths := make([]int, len(cells[0]))
	for _, line := range cells {
		for j, c := range line {
			widths[j] = max(widths[j], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, line := range cells {
		var l strings.Builder
		for j, c := range line {
			l.WriteString(c)
			if j < len(line)-1 {
				l.WriteString(strings.Repeat(" ", widths[j]-len([]rune(c))+2))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the summary as CSV with a header line.
func (res *Result) WriteCSV(w io.Writer, o SummaryOptions) error {
	cols := o.columns(false)
	cw := csv.NewWriter(w)
	if err := cw.Write(cols); err != nil {
		return err
	}
	for i := range res.Rows {
		line := make([]string, len(cols))
		for j, c := range cols {
			line[j] = res.Rows[i].cell(c)
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonRow is a row of the JSON summary; field names are stable.
type jsonRow struct {
	ID        string          `json:"id"`
	Template  string          `json:"template"`
	Presets   []string        `json:"presets"`
	InputsRef string          `json:"inputs_file,omitempty"`
	Inputs    json.RawMessage `json:"inputs"`
	Options   json.RawMessage `json:"options"`
	Status    string          `json:"status"`
	Error     string          `json:"error,omitempty"`
	Nodes     []string        `json:"nodes"`
	Relations []string        `json:"relations"`
	Weight    *float64        `json:"weight"`
	Unique    *bool           `json:"unique"`
	Ms        *float64        `json:"ms,omitempty"`
}

type jsonSummary struct {
	Space       string    `json:"space"`
	Runs        int       `json:"runs"`
	OK          int       `json:"ok"`
	Failed      int       `json:"failed"`
	NotRun      int       `json:"not_run"`
	Interrupted bool      `json:"interrupted"`
	Rows        []jsonRow `json:"rows"`
}

// WriteJSON writes the summary as one JSON document.
func (res *Result) WriteJSON(w io.Writer, o SummaryOptions) error {
	s := jsonSummary{Space: res.Space.File, Runs: len(res.Rows), Interrupted: res.Interrupted, Rows: []jsonRow{}}
	s.OK, s.Failed, s.NotRun = res.Counts()
	for i := range res.Rows {
		r := &res.Rows[i]
		jr := jsonRow{
			ID: r.Run.ID, Template: r.Run.Template, Presets: orEmpty(r.Run.Presets), InputsRef: r.Run.InputsFile,
			Inputs: assignmentsJSON(r.Run.Inputs), Options: assignmentsJSON(r.Run.Options),
			Status: r.Status.String(), Error: r.ErrorText(),
			Nodes: orEmpty(r.Report.Nodes), Relations: orEmpty(r.Report.Relations),
		}
		if r.Status == OK {
			weight, unique := r.Report.Weight, r.Report.Unique
			jr.Weight, jr.Unique = &weight, &unique
		}
		if o.Timings && r.Status != NotRun {
			ms := float64(r.Duration.Microseconds()) / 1000
			jr.Ms = &ms
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
		m.Map.Set(a.Name, a.Value)
	}
	return json.RawMessage(yamlsrc.JSON(m))
}
