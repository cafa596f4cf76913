package resolve

import (
	"context"
	"strings"

	"v4t/model/graph"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Report is what a resolved template contains, for summaries of many runs
// (v4t batch, v4t compare) that should not have to read the output back.
type Report struct {
	// Nodes are the names of the present node templates and Relations the
	// labels (RelationLabel) of the present relations, in global element
	// order (variability.md §3.3).
	Nodes     []string
	Relations []string
	// Weight is the sum of the weights of the present nodes (§3.4.2; a node
	// without a weight counts 1), the quantity topology optimisation in mode
	// weight minimises or maximises (§10.2).
	Weight float64
	// Unique is false when more than one assignment of the elements survived
	// optimisation and the uniqueness checks, so that the tie-break rule
	// chose the result (§10.4).
	Unique bool
}

// RelationLabel names a relation by its source node, requirement name and
// target node: "shop.host->vm".
func RelationLabel(source, name, target string) string {
	return source + "." + name + "->" + target
}

func relationLabel(r *graph.Element) string {
	return RelationLabel(r.Source().Name, r.Name, r.Target.Name)
}

// report reads the presence of nodes and relations after finish.
func report(g *graph.Graph, unique bool) *Report {
	r := &Report{Unique: unique, Nodes: []string{}, Relations: []string{}}
	for _, n := range g.Nodes {
		if n.Present {
			r.Nodes = append(r.Nodes, n.Name)
			r.Weight += n.Weight
		}
	}
	for _, rel := range g.Relations {
		if rel.Present {
			r.Relations = append(r.Relations, relationLabel(rel))
		}
	}
	return r
}

// Topology is the variable topology of a template, as written: its node
// templates and relations with their own conditions, before enrichment adds
// default conditions (variability.md §5). It is what v4t graph draws.
type Topology struct {
	File      string
	Nodes     []TopologyNode
	Relations []TopologyRelation
}

// TopologyNode is a node template of a Topology.
type TopologyNode struct {
	Name string
	// Type is the node's type; several conditional types are joined by "|".
	Type string
	// Conditions are the node's own conditions in YAML flow style, joined
	// by " and "; empty when the node has none.
	Conditions string
}

// TopologyRelation is a relation (a requirement assignment) of a Topology.
type TopologyRelation struct {
	Source, Name, Target string
	// Hosting marks relations whose name makes them hosting relations
	// (^(.*_)?host(_.*)?$, §3.3).
	Hosting    bool
	Conditions string
}

// Label is the relation's RelationLabel.
func (r TopologyRelation) Label() string { return RelationLabel(r.Source, r.Name, r.Target) }

// DescribeTopology loads a template, applies the option overrides and
// builds its element graph (graph #1 of §1), and returns the nodes and
// relations with the conditions written on them. Inputs are not needed.
func DescribeTopology(ctx context.Context, in Input, opts Options) (t *Topology, err error) {
	defer recoverInternal(in, opts, &err)
	l, err := loadStage(in, opts)
	if err != nil {
		return nil, err
	}
	if _, err := applyOptions(l, in, opts); err != nil {
		return nil, err
	}
	g, err := graph.BuildWarn(l.doc, in.TemplatePath, opts.Warn)
	if err != nil {
		return nil, err
	}
	t = &Topology{File: in.TemplatePath}
	for _, n := range g.Nodes {
		types := make([]string, len(n.Types))
		for i, ty := range n.Types {
			types[i] = ty.Name
		}
		t.Nodes = append(t.Nodes, TopologyNode{Name: n.Name, Type: strings.Join(types, "|"), Conditions: flowConditions(n.Conditions)})
	}
	for _, r := range g.Relations {
		t.Relations = append(t.Relations, TopologyRelation{
			Source: r.Source().Name, Name: r.Name, Target: r.Target.Name,
			Hosting: r.IsHostedOn(), Conditions: flowConditions(r.Conditions),
		})
	}
	return t, nil
}

func flowConditions(cs []*yamlsrc.Value) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = Flow(c)
	}
	return strings.Join(parts, " and ")
}

// Flow renders a value in short YAML flow style, {logic_expression: is_small},
// quoting strings only where they would not read back as the same string.
func Flow(v *yamlsrc.Value) string {
	var b strings.Builder
	yamlsrc.WriteFlow(&b, v, 0, flowString, flowScalar)
	return b.String()
}

// flowScalar writes a string as flowString does, and any other scalar as
// JSON.
func flowScalar(b *strings.Builder, v *yamlsrc.Value) {
	if v.IsString() {
		flowString(b, v.Str())
		return
	}
	b.WriteString(yamlsrc.JSON(v))
}

// flowString writes s plain when it is a simple word that YAML reads back
// as the same string, else JSON-quoted.
func flowString(b *strings.Builder, s string) {
	plain := s != ""
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		if r := yamlsrc.ResolvePlain(s); r == nil || !r.IsString() {
			plain = false
		}
	}
	if plain {
		b.WriteString(s)
		return
	}
	js.QuoteJSON(b, s)
}
