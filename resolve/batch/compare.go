package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"v4t/model/graph"
	"v4t/model/js"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// PruningModes are the values of the variability option mode, from the
// least to the most pruning (variability.md §4.2).
var PruningModes = []string{"manual", "consistent-strict", "consistent-loose", "default", "semantic-strict", "semantic-loose"}

// TopologyOptimizations are the settings of optimization_topology (§4.3,
// §10.2): off, minimise, maximise.
var TopologyOptimizations = []*yamlsrc.Value{yamlsrc.NewBool(false), yamlsrc.NewString("min"), yamlsrc.NewString("max")}

// CompareOptions tune Compare.
type CompareOptions struct {
	// Pruning compares the pruning modes, Optimization the topology
	// optimisation settings; both compare their cross product.
	Pruning, Optimization bool
	Jobs                  int
	// Resolve is the base of every mode's resolver options; the mode's
	// options are applied after its Overrides.
	Resolve resolve.Options
	// Emit, when set, receives the resolved document of each mode that
	// resolved (Options.Emit); an error fails the mode.
	Emit func(r *Run, write func(io.Writer) error) error
}

// Comparison is one template resolved under several modes.
type Comparison struct {
	Template string
	// Rows are the modes in order; a row's Run.Options are the mode.
	Rows []Row
	// Elements are the nodes ("node NAME") and relations ("relation
	// LABEL") of the template, in template order, then any other element
	// a mode reported.
	Elements []string
	// Baseline is the index of the first mode that resolved, or -1.
	Baseline int
	// Own is the index of the template's own mode, or -1: the mode whose
	// options change none of the variability options the template has
	// after the Overrides (its own settings, or the defaults), so that
	// its row is what v4t resolve gives without the mode's options.
	Own int
	// Overrides are the option overrides applied to every mode, before the
	// mode's own (CompareOptions.Resolve.Overrides).
	Overrides []resolve.Assignment
	// Files, when set, names the file each mode's result was written to
	// (by index; "" for modes that did not resolve), for WriteJSON.
	Files []string
}

// Modes returns the option sets that Compare resolves: the cross product
// of the selected dimensions, pruning modes outermost.
func Modes(pruning, optimization bool) [][]resolve.Assignment {
	out := [][]resolve.Assignment{nil}
	if pruning {
		var next [][]resolve.Assignment
		for _, m := range PruningModes {
			next = append(next, []resolve.Assignment{{Name: "mode", Value: yamlsrc.NewString(m)}})
		}
		out = next
	}
	if optimization {
		var next [][]resolve.Assignment
		for _, prefix := range out {
			for _, v := range TopologyOptimizations {
				next = append(next, append(append([]resolve.Assignment(nil), prefix...), resolve.Assignment{Name: "optimization_topology", Value: v}))
			}
		}
		out = next
	}
	return out
}

// Compare resolves one template under each mode and lines up the present
// nodes and relations. A template that cannot be read fails the
// comparison; a mode that fails is one failed row.
func Compare(ctx context.Context, in resolve.Input, o CompareOptions) (*Comparison, error) {
	topo, err := resolve.DescribeTopology(ctx, in, o.Resolve)
	if err != nil {
		return nil, err
	}
	s := &Space{File: in.TemplatePath}
	modes := Modes(o.Pruning, o.Optimization)
	for i, opts := range modes {
		s.Runs = append(s.Runs, &Run{
			ID: fmt.Sprint(i + 1), Template: in.TemplatePath, InputsFile: in.InputsPath,
			Presets: in.Presets, Inputs: in.Inputs, Options: opts, Input: in,
		})
	}
	res := Execute(ctx, s, Options{Jobs: o.Jobs, Resolve: o.Resolve, Emit: o.Emit})
	c := &Comparison{Template: in.TemplatePath, Rows: res.Rows, Baseline: -1,
		Own: ownMode(in.TemplatePath, o.Resolve.Overrides, modes), Overrides: o.Resolve.Overrides}
	known := map[string]bool{}
	add := func(e string) {
		if !known[e] {
			known[e] = true
			c.Elements = append(c.Elements, e)
		}
	}
	for _, n := range topo.Nodes {
		add("node " + n.Name)
	}
	for _, r := range topo.Relations {
		add("relation " + r.Label())
	}
	var extra []string
	for i := range c.Rows {
		row := &c.Rows[i]
		if row.Status == OK && c.Baseline < 0 {
			c.Baseline = i
		}
		for e := range presentSet(row) {
			if !known[e] {
				known[e] = true
				extra = append(extra, e)
			}
		}
	}
	sort.Strings(extra)
	c.Elements = append(c.Elements, extra...)
	return c, ctx.Err()
}

// presentSet is the set of present elements of a row, named as in
// Comparison.Elements.
func presentSet(r *Row) map[string]bool {
	m := map[string]bool{}
	for _, n := range r.Report.Nodes {
		m["node "+n] = true
	}
	for _, l := range r.Report.Relations {
		m["relation "+l] = true
	}
	return m
}

// Differences lists, for mode i, the elements present in it but not in the
// baseline (+) and those absent from it but present in the baseline (-),
// in element order.
func (c *Comparison) Differences(i int) []string {
	if c.Baseline < 0 {
		return nil
	}
	base, mode := presentSet(&c.Rows[c.Baseline]), presentSet(&c.Rows[i])
	var out []string
	for _, e := range c.Elements {
		switch {
		case mode[e] && !base[e]:
			out = append(out, "+"+e)
		case base[e] && !mode[e]:
			out = append(out, "-"+e)
		}
	}
	return out
}

// WriteTable writes the comparison: the modes with their status (own *
// marks the template's own mode), a table
// with one row per element and one column per mode (x present, . absent,
// ! the mode failed; * marks elements whose presence differs between the
// modes that resolved), and for each mode its differences from the
// baseline.
func (c *Comparison) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "template: %s\n\n", c.Template)
	cells := [][]string{{"mode", "own", "options", "status"}}
	for i := range c.Rows {
		row := &c.Rows[i]
		status := row.Status.String()
		switch row.Status {
		case OK:
			status = fmt.Sprintf("ok: %s, %s, weight %s", plural(len(row.Report.Nodes), "node"), plural(len(row.Report.Relations), "relation"), js.FormatNumber(row.Report.Weight))
			if !row.Report.Unique {
				status += ", not unique"
			}
		case Failed:
			status = "error: " + row.ErrorText()
		}
		own := ""
		if i == c.Own {
			own = "*"
		}
		cells = append(cells, []string{row.Run.ID, own, row.Run.OptionsText(), status})
	}
	writeAlignedTo(&b, cells)
	b.WriteString("(own: * marks the template's own mode, the options it sets or the defaults)\n\n")
	header := []string{"element"}
	for i := range c.Rows {
		header = append(header, c.Rows[i].Run.ID)
	}
	cells = [][]string{header}
	for _, e := range c.Elements {
		line := []string{e}
		seen := map[bool]bool{}
		for i := range c.Rows {
			row := &c.Rows[i]
			mark := "!"
			if row.Status == OK {
				present := presentSet(row)[e]
				seen[present] = true
				mark = "."
				if present {
					mark = "x"
				}
			}
			line = append(line, mark)
		}
		if len(seen) == 2 {
			line[0] = "* " + e
		} else {
			line[0] = "  " + e
		}
		cells = append(cells, line)
	}
	writeAlignedTo(&b, cells)
	b.WriteString("(x present, . absent, ! the mode failed, * differs between modes)\n\n")
	if c.Baseline < 0 {
		b.WriteString("no mode resolved\n")
	} else {
		fmt.Fprintf(&b, "differences from mode %s (%s):\n", c.Rows[c.Baseline].Run.ID, c.Rows[c.Baseline].Run.OptionsText())
		for i := range c.Rows {
			if i == c.Baseline {
				continue
			}
			row := &c.Rows[i]
			text := ""
			switch row.Status {
			case OK:
				if d := c.Differences(i); len(d) > 0 {
					text = strings.Join(d, ", ")
				} else {
					text = "same"
				}
			case Failed:
				text = "error: " + row.ErrorText()
			default:
				text = row.Status.String()
			}
			fmt.Fprintf(&b, "  %s: %s\n", row.Run.ID, text)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ownMode returns the index of the template's own mode among modes (see
// Comparison.Own), or -1 when none is, or the template's options cannot
// be read. It resolves the variability options (§4) of the template after
// overrides, with and without each mode's options, and compares them: a
// mode is the template's own when its options change nothing, so that
// optimization_topology: true is the mode with min, and a template
// without options has the defaults of its TOSCA version as its own mode.
func ownMode(path string, overrides []resolve.Assignment, modes [][]resolve.Assignment) int {
	doc, err := yamlsrc.LoadFile(path)
	if err != nil || !doc.IsMap() {
		return -1
	}
	version, ok := graph.ParseVersion(doc.Get("tosca_definitions_version"))
	if !ok {
		return -1
	}
	raw := doc.Get("topology_template").Get("variability").Get("options")
	// options resolves the template's options after overrides and then
	// extra, as resolve applies option overrides.
	options := func(extra []resolve.Assignment) (*graph.Options, error) {
		m := yamlsrc.NewMap()
		if raw.IsMap() {
			for _, k := range raw.Map().Keys() {
				m.Map().Set(k, raw.Map().Get(k))
			}
		}
		for _, a := range append(append([]resolve.Assignment(nil), overrides...), extra...) {
			m.Map().Set(a.Name, a.Value)
		}
		return graph.ResolveOptions(yamlsrc.MapOf("topology_template", yamlsrc.MapOf("variability", yamlsrc.MapOf("options", m))), path, version)
	}
	own, err := options(nil)
	if err != nil {
		return -1
	}
	for i, mode := range modes {
		if o, err := options(mode); err == nil && *o == *own {
			return i
		}
	}
	return -1
}

func writeAlignedTo(b *strings.Builder, cells [][]string) {
	_ = writeAligned(b, cells)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// compareColumns are the columns of the CSV comparison, one row per mode.
var compareColumns = []string{"mode", "options", "own", "status", "nodes", "relations", "weight", "unique"}

// WriteCSV writes the comparison as CSV with a header line and one row per
// mode: its number, its options (NAME=VALUE separated by spaces), own (yes
// for the template's own mode, else no), status ("ok" or the one-line
// error), the present nodes and relations separated by spaces, the weight
// and unique (yes or no) when the mode resolved.
func (c *Comparison) WriteCSV(w io.Writer) error {
	return writeCSV(w, compareColumns, len(c.Rows), func(i int) []string {
		row := &c.Rows[i]
		own := "no"
		if i == c.Own {
			own = "yes"
		}
		return []string{row.Run.ID, row.Run.OptionsText(), own, row.cell("status"), row.cell("nodes"), row.cell("relations"), row.cell("weight"), row.cell("unique")}
	})
}

// jsonComparison is the JSON comparison; field names are stable.
type jsonComparison struct {
	jsonRequest
	Modes []jsonMode `json:"modes"`
}

// jsonMode is a mode of the JSON comparison.
type jsonMode struct {
	Mode    int             `json:"mode"`
	Options json.RawMessage `json:"options"`
	Own     bool            `json:"own"`
	jsonOutcome
	File string `json:"file,omitempty"`
}

// WriteJSON writes the comparison as one JSON document: the template, its
// presets, inputs and the option overrides applied to every mode, and per
// mode its number, its options, own (the template's own mode), status
// ("ok" or "error"), error, the present nodes and relations, weight and
// unique (null when the mode failed), and the file its result was written
// to (Files; left out when none was).
func (c *Comparison) WriteJSON(w io.Writer) error {
	out := jsonComparison{jsonRequest{Template: c.Template, Presets: []string{}, Inputs: assignmentsJSON(nil), Options: assignmentsJSON(c.Overrides)}, []jsonMode{}}
	if len(c.Rows) > 0 {
		r := c.Rows[0].Run
		out.Presets, out.InputsRef, out.Inputs = orEmpty(r.Presets), r.InputsFile, assignmentsJSON(r.Inputs)
	}
	for i := range c.Rows {
		row := &c.Rows[i]
		m := jsonMode{Mode: i + 1, Options: assignmentsJSON(row.Run.Options), Own: i == c.Own, jsonOutcome: row.outcomeJSON()}
		if i < len(c.Files) {
			m.File = c.Files[i]
		}
		out.Modes = append(out.Modes, m)
	}
	return writeJSON(w, out)
}
