// Package picture draws the topology of a variable service template as a
// Graphviz DOT or Mermaid graph: node templates as boxes, relations as
// arrows, each labelled with the conditions written on it. Conditional
// elements are dashed and hosting relations are drawn bold in blue. Given
// the report of a resolved variant, absent elements are greyed out or left
// out.
//
// The picture shows the conditions as written (resolve.DescribeTopology),
// not the default conditions that pruning adds (variability.md §5.8).
package picture

import (
	"context"
	"fmt"
	"strings"

	"v4t/resolve"
)

// Options tune Draw.
type Options struct {
	// Format is "dot" (the default) or "mermaid".
	Format string
	// HideAbsent leaves out the elements absent from the variant instead
	// of greying them.
	HideAbsent bool
}

// Picture is what Draw draws: a topology and, optionally, the variant that
// resolving it gave.
type Picture struct {
	Topology *resolve.Topology
	// Variant, when set, is the resolved variant.
	Variant *resolve.Report
}

// Load describes the template and, when variant is set, resolves it with
// the input and options to learn which elements are present.
func Load(ctx context.Context, in resolve.Input, opts resolve.Options, variant bool) (*Picture, error) {
	t, err := resolve.DescribeTopology(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	p := &Picture{Topology: t}
	if variant {
		opts.Report = true
		res, err := resolve.Resolve(ctx, in, opts)
		if err != nil {
			return nil, err
		}
		p.Variant = res.Report
	}
	return p, nil
}

// element is a node or relation ready to draw.
type element struct {
	label       []string
	conditional bool
	absent      bool
	hosting     bool
	from, to    int
}

// elements prepares the nodes and relations, leaving out the absent ones
// when asked; relations refer to nodes by index.
func (p *Picture) elements(o Options) (nodes, relations []element) {
	presentNodes, presentRels := map[string]bool{}, map[string]bool{}
	if p.Variant != nil {
		for _, n := range p.Variant.Nodes {
			presentNodes[n] = true
		}
		for _, r := range p.Variant.Relations {
			presentRels[r] = true
		}
	}
	index := map[string]int{}
	for _, n := range p.Topology.Nodes {
		e := element{label: []string{n.Name}, conditional: n.Conditions != "", absent: p.Variant != nil && !presentNodes[n.Name]}
		if n.Type != "" {
			e.label = append(e.label, "«"+n.Type+"»")
		}
		if n.Conditions != "" {
			e.label = append(e.label, "if "+n.Conditions)
		}
		if e.absent && o.HideAbsent {
			continue
		}
		index[n.Name] = len(nodes)
		nodes = append(nodes, e)
	}
	for _, r := range p.Topology.Relations {
		from, okFrom := index[r.Source]
		to, okTo := index[r.Target]
		e := element{label: []string{r.Name}, conditional: r.Conditions != "", hosting: r.Hosting,
			absent: p.Variant != nil && !presentRels[r.Label()], from: from, to: to}
		if r.Conditions != "" {
			e.label = append(e.label, "if "+r.Conditions)
		}
		if !okFrom || !okTo || e.absent && o.HideAbsent {
			continue
		}
		relations = append(relations, e)
	}
	return nodes, relations
}

// Draw renders the picture.
func Draw(p *Picture, o Options) ([]byte, error) {
	nodes, relations := p.elements(o)
	switch o.Format {
	case "", "dot":
		return dot(p, nodes, relations), nil
	case "mermaid":
		return mermaid(nodes, relations), nil
	}
	return nil, fmt.Errorf("unknown picture format %q (expected dot or mermaid)", o.Format)
}

// Colours of the picture.
const (
	hostColor       = "#1f4e79"
	absentColor     = "#b0b0b0"
	absentFill      = "#f4f4f4"
	absentTextColor = "#999999"
)

func dot(p *Picture, nodes, relations []element) []byte {
	var b strings.Builder
	what := "variable topology"
	if p.Variant != nil {
		what = "resolved variant (grey: absent)"
	}
	fmt.Fprintf(&b, "// %s of %s, drawn by v4t graph\n", what, p.Topology.File)
	b.WriteString("digraph topology {\n")
	b.WriteString("    rankdir=TB;\n")
	b.WriteString("    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("    edge [fontname=\"Helvetica\", fontsize=9];\n")
	for i, n := range nodes {
		style := []string{"rounded"}
		if n.conditional {
			style = append(style, "dashed")
		}
		attrs := []string{"label=" + dotQuote(strings.Join(n.label, "\n"))}
		if n.absent {
			style = append(style, "filled")
			attrs = append(attrs, dotAttr("color", absentColor), dotAttr("fillcolor", absentFill), dotAttr("fontcolor", absentTextColor))
		}
		attrs = append(attrs, dotAttr("style", strings.Join(style, ",")))
		fmt.Fprintf(&b, "    n%d [%s];\n", i, strings.Join(attrs, ", "))
	}
	for _, r := range relations {
		var style []string
		attrs := []string{"label=" + dotQuote(strings.Join(r.label, "\n"))}
		if r.hosting {
			style = append(style, "bold")
			attrs = append(attrs, dotAttr("arrowhead", "empty"))
			if !r.absent {
				attrs = append(attrs, dotAttr("color", hostColor), dotAttr("fontcolor", hostColor))
			}
		}
		if r.conditional {
			style = append(style, "dashed")
		}
		if r.absent {
			attrs = append(attrs, dotAttr("color", absentColor), dotAttr("fontcolor", absentTextColor))
		}
		if len(style) > 0 {
			attrs = append(attrs, dotAttr("style", strings.Join(style, ",")))
		}
		fmt.Fprintf(&b, "    n%d -> n%d [%s];\n", r.from, r.to, strings.Join(attrs, ", "))
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func dotAttr(k, v string) string { return k + "=" + dotQuote(v) }

// dotQuote writes a DOT double-quoted string; line breaks become centred
// line breaks (\n).
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func mermaid(nodes, relations []element) []byte {
	var b strings.Builder
	b.WriteString("flowchart TB\n")
	var conditional, absent []string
	for i, n := range nodes {
		id := fmt.Sprintf("n%d", i)
		fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, mermaidText(n.label))
		if n.absent {
			absent = append(absent, id)
		} else if n.conditional {
			conditional = append(conditional, id)
		}
	}
	var styles []string
	for i, r := range relations {
		arrow := "-->"
		if r.conditional {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "    n%d %s|\"%s\"| n%d\n", r.from, arrow, mermaidText(r.label), r.to)
		switch {
		case r.absent:
			styles = append(styles, fmt.Sprintf("    linkStyle %d stroke:%s,color:%s", i, absentColor, absentTextColor))
		case r.hosting:
			styles = append(styles, fmt.Sprintf("    linkStyle %d stroke:%s,stroke-width:3px,color:%s", i, hostColor, hostColor))
		}
	}
	for _, s := range styles {
		b.WriteString(s + "\n")
	}
	if len(conditional) > 0 {
		b.WriteString("    classDef conditional stroke-dasharray:5 5\n")
		fmt.Fprintf(&b, "    class %s conditional\n", strings.Join(conditional, ","))
	}
	if len(absent) > 0 {
		fmt.Fprintf(&b, "    classDef absent fill:%s,stroke:%s,color:%s,stroke-dasharray:5 5\n", absentFill, absentColor, absentTextColor)
		fmt.Fprintf(&b, "    class %s absent\n", strings.Join(absent, ","))
	}
	return []byte(b.String())
}

// mermaidText joins label lines with <br/> and escapes what Mermaid would
// read as markup inside a quoted label.
func mermaidText(lines []string) string {
	r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;")
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.Replace(l)
	}
	return strings.Join(out, "<br/>")
}
