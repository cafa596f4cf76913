// Package enrich owns enrichment (variability.md §5): technology rules and
// the element enrichment they drive (§5.2–5.5), condition enrichment with
// default conditions, pruning, default alternatives and type-specific
// conditions (§5.6–5.10), constraint enrichment and implications
// (§5.11–5.12), and the cleanup that writes everything back into the
// document (§5.13).
//
// Like the reference, enrichment works on one graph build and writes its
// results into the document; the caller builds the next graph from it.
//
// Errors it reports, in order: managed-node and type-walk errors, hosting
// patterns ending in `*` and hosting cycles the reference never leaves,
// missing implementations and technology candidates, unknown
// default-condition modes (of every element), type-specific conditions
// without conditions and nulls met while simplifying, bad implied values,
// and, in the cleanup, nulls inside final conditions and variability
// inputs that are a number or a boolean. (References to variability groups,
// which graph #3 no longer finds, are graph.AfterCleanup's.)
package enrich

import (
	"slices"
	"strings"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

type (
	// Value is a document node.
	Value = yamlsrc.Value
	// Element is a graph element.
	Element = graph.Element
)

// candidate is one technology candidate of the rule plugin (§5.3).
type candidate struct {
	tech string
	// conds is the candidate's conditions: a list, or one condition object
	// when isList is false.
	conds  []*Value
	isList bool
	weight *Value
	assign string
}

func errAt(e *Element, msg string) error { return diag.At(e.Pos(), diag.StageEnrich, msg) }

func withPos(err error, e *Element) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = e.Pos()
	}
	return err
}

func rules(g *graph.Graph) []*Value {
	r := g.Variability().Get("qualities")
	if r.IsList() {
		return r.List()
	}
	return nil
}

// managedNodes evaluates "managed" for every node in order, like the
// reference's filter, so that errors surface for the first bad node.
func managedNodes(g *graph.Graph) ([]*Element, error) {
	var out []*Element
	for _, n := range g.Nodes {
		m, err := n.Managed()
		if err != nil {
			return nil, err
		}
		if m {
			out = append(out, n)
		}
	}
	return out, nil
}

// Elements runs element enrichment on graph #1 (§5.4, §5.5). It reports
// whether it changed the document; if not, graph #1 can serve as graph #2.
func Elements(g *graph.Graph) (changed bool, err error) {
	rs := rules(g)
	if g.Options.Enricher.Implementations && len(rs) > 0 {
		nodes, err := managedNodes(g)
		if err != nil {
			return false, err
		}
		for _, node := range nodes {
			if len(node.Technologies) == 0 {
				continue
			}
			var enriched []*Value
			for _, tech := range node.Technologies {
				cands, err := assign(g, node, rs)
				if err != nil {
					return false, err
				}
				var selected []candidate
				for _, c := range cands {
					if c.tech == tech.Name {
						selected = append(selected, c)
					}
				}
				if len(selected) == 0 {
					return false, errAt(tech, msgNoImplementation(node, tech))
				}
				for _, c := range selected {
					conds := c.conditionsValue()
					if len(tech.Conditions) > 0 {
						list := append([]*Value(nil), tech.Conditions...)
						list = append(list, c.asList()...)
						conds = yamlsrc.NewList(list...)
					}
					enriched = append(enriched, c.entry(conds))
				}
			}
			node.Raw.Map().Set("technology", yamlsrc.NewList(enriched...))
			changed = true
		}
	}
	if g.Options.Enricher.Technologies {
		nodes, err := managedNodes(g)
		if err != nil {
			return false, err
		}
		for _, node := range nodes {
			if len(node.Technologies) > 0 {
				continue
			}
			cands, err := assign(g, node, rs)
			if err != nil {
				return false, err
			}
			if g.Options.Checks.RequiredTechnology && len(cands) == 0 {
				return false, errAt(node, msgNoTechnologyCandidates(node))
			}
			list := node.Raw.Get("technology")
			if !list.IsList() {
				list = yamlsrc.NewList()
				node.Raw.Map().Set("technology", list)
			}
			for _, c := range cands {
				var conds *Value
				if c.isList {
					var err error
					if conds, err = simplify(yamlsrc.OpOf("and", c.conds), node); err != nil {
						return false, err
					}
				} else if len(c.conds) == 1 {
					conds = c.conds[0]
				}
				if conds != nil {
					var err error
					if conds, err = generatify(conds, node); err != nil {
						return false, err
					}
				}
				list.SetList(append(list.List(), c.entry(conds)))
				changed = true
			}
		}
	}
	return changed, nil
}

func (c candidate) asList() []*Value {
	if c.isList {
		return c.conds
	}
	return c.conds
}

func (c candidate) conditionsValue() *Value {
	if c.isList {
		return yamlsrc.NewList(c.conds...)
	}
	if len(c.conds) == 1 {
		return c.conds[0]
	}
	return nil
}

// entry builds the technology list entry {tech: {conditions, weight, assign}}.
func (c candidate) entry(conds *Value) *Value {
	def := yamlsrc.NewMap()
	if conds != nil {
		def.Map().Set("conditions", conds)
	}
	if !c.weight.IsNull() {
		def.Map().Set("weight", c.weight)
	}
	def.Map().Set("assign", yamlsrc.NewString(c.assign))
	return yamlsrc.MapOf(c.tech, def)
}

// assign computes the technology candidates of a node (§5.3).
func assign(g *graph.Graph, node *Element, rs []*Value) ([]candidate, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	nodeType, err := node.SingleType()
	if err != nil {
		return nil, err
	}
	var kept []*Value
	for _, r := range rs {
		ok, err := g.IsA("node_types", nodeType.Name, yamlsrc.String(r.Get("component")))
		if err != nil {
			return nil, withPos(err, node)
		}
		if ok {
			kept = append(kept, r)
		}
	}
	// Most-specific filter.
	chains := make([][]string, len(kept))
	for i, o := range kept {
		names, _, err := g.TypeChain("node_types", yamlsrc.String(o.Get("component")))
		if err != nil {
			return nil, withPos(err, node)
		}
		chains[i] = names[1:]
	}
	var filtered []*Value
	for _, r := range kept {
		comp := yamlsrc.String(r.Get("component"))
		drop := false
		for _, parents := range chains {
			if slices.Contains(parents, comp) {
				drop = true
			}
			if drop {
				break
			}
		}
		if !drop {
			filtered = append(filtered, r)
		}
	}
	var out []candidate
	for _, r := range filtered {
		var artifactCond *Value
		if art := r.Get("artifact"); !art.IsNull() {
			artName := yamlsrc.String(art)
			var inTemplate []*Element
			for _, a := range node.Artifacts {
				at, err := a.SingleType()
				if err != nil {
					return nil, err
				}
				ok, err := g.IsA("artifact_types", at.Name, artName)
				if err != nil {
					return nil, withPos(err, a)
				}
				if ok {
					inTemplate = append(inTemplate, a)
				}
			}
			inType, err := g.HasArtifactDefinition(nodeType.Name, artName)
			if err != nil {
				return nil, withPos(err, node)
			}
			if len(inTemplate) == 0 && !inType {
				continue
			}
			if len(inTemplate) > 0 {
				ors := make([]*Value, len(inTemplate))
				for i, a := range inTemplate {
					ors[i] = Presence(a)
				}
				artifactCond = yamlsrc.OpOf("or", ors)
			}
		}
		tech := yamlsrc.String(r.Get("technology"))
		name := implementationName(nodeType.Name, r)
		assign := name
		if a := r.Get("assign"); !a.IsNull() {
			assign = yamlsrc.String(a)
		}
		hosting := r.Get("hosting")
		if hosting.IsList() && len(hosting.List()) > 0 {
			pattern := make([]string, len(hosting.List()))
			for i, h := range hosting.List() {
				pattern[i] = yamlsrc.String(h)
			}
			paths, err := hostingPaths(node, pattern)
			if err != nil {
				return nil, err
			}
			for _, path := range paths {
				if artifactCond != nil {
					path = append(path, yamlsrc.Clone(artifactCond))
				}
				out = append(out, candidate{tech: tech, conds: path, isList: true, weight: r.Get("weight"), assign: assign})
			}
			continue
		}
		c := candidate{tech: tech, weight: r.Get("weight"), assign: assign}
		if artifactCond != nil {
			c.conds = []*Value{artifactCond}
		} else {
			c.isList = true
		}
		out = append(out, c)
	}
	return out, nil
}

// implementationName is <type>~<component>[#<artifact>]::<technology>[@<hosting>].
func implementationName(nodeType string, r *Value) string {
	var b strings.Builder
	b.WriteString(nodeType)
	b.WriteByte('~')
	b.WriteString(yamlsrc.String(r.Get("component")))
	if a := r.Get("artifact"); !a.IsNull() {
		b.WriteByte('#')
		b.WriteString(yamlsrc.String(a))
	}
	b.WriteString("::")
	b.WriteString(yamlsrc.String(r.Get("technology")))
	if h := r.Get("hosting"); h.IsList() && len(h.List()) > 0 {
		b.WriteByte('@')
		for i, x := range h.List() {
			if i > 0 {
				b.WriteString("->")
			}
			b.WriteString(yamlsrc.String(x))
		}
	}
	return b.String()
}

// hostState is a call of the reference's search: the node whose hosts are
// searched and how much of the hosting pattern is left (always a suffix).
type hostState struct {
	node *Element
	rest int
}

// hostSearch enumerates the hosting paths of a technology rule (§5.3).
type hostSearch struct {
	// root is the node whose candidates are computed; errors point at it.
	root *Element
	out  [][]*Value
	// onStack holds the calls in progress. The search is a function of its
	// state, so meeting a state again below itself means the reference
	// recurses forever on a hosting cycle.
	onStack map[hostState]bool
}

// hostingPaths returns the hosting paths of node for pattern, depth-first.
func hostingPaths(node *Element, pattern []string) ([][]*Value, error) {
	s := &hostSearch{root: node, onStack: map[hostState]bool{}}
	if err := s.search(node, pattern, nil); err != nil {
		return nil, err
	}
	return s.out, nil
}

// search is the reference's search (§5.3). A host that completes the
// pattern ends the path: the `*` is not followed past it.
func (s *hostSearch) search(node *Element, pattern []string, history []*Value) error {
	star := pattern[0] == "*"
	var want string
	if star {
		if len(pattern) < 2 {
			return errAt(s.root, graph.MsgUnexpected)
		}
		want = pattern[1]
	} else {
		want = pattern[0]
	}
	state := hostState{node, len(pattern)}
	if s.onStack[state] {
		// Quirk: hosting cycle. The reference recurses through the cycle
		// until the JavaScript stack overflows; the same state below itself
		// is the point from which it can only repeat.
		return errAt(s.root, msgCallStackExceeded)
	}
	s.onStack[state] = true
	defer delete(s.onStack, state)
	for _, host := range node.Hosts() {
		var rel *Element
		for _, r := range node.Outgoing {
			if r.IsHostedOn() && r.Target == host {
				rel = r
				break
			}
		}
		step := func() []*Value {
			h := make([]*Value, 0, len(history)+2)
			for _, x := range history {
				h = append(h, yamlsrc.Clone(x))
			}
			return append(h, Presence(rel), Presence(host))
		}
		ht, err := host.SingleType()
		if err != nil {
			return err
		}
		ok, err := host.Graph.IsA("node_types", ht.Name, want)
		if err != nil {
			return withPos(err, host)
		}
		if ok {
			next := pattern
			if star {
				next = next[1:]
			}
			next = next[1:]
			if len(next) == 0 {
				s.out = append(s.out, step())
				// The reference continues with the next host: a host that
				// completes the pattern is not passed by the `*`.
				continue
			}
			if err := s.search(host, next, step()); err != nil {
				return err
			}
		}
		if star {
			if err := s.search(host, pattern, step()); err != nil {
				return err
			}
		}
	}
	return nil
}
