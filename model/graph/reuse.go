package graph

import (
	"v4t/model/diag"
)

// AfterCleanup turns graph #2, after the enricher has written its results
// back into the document (variability.md §5.13), into the graph that
// building the document again would give (graph #3), without rebuilding it.
//
// A rebuild would read exactly the element lists of graph #2 back, with the
// enriched condition lists and without default alternatives; it differs in
// three ways, all reproduced here: options are resolved from the cleaned
// options (so the persistent check runs with the version's default node
// mode, §3.4.6, quirk 17.1), variability groups are gone with their types and
// properties, and a policy that targets a variability group no longer finds
// its target.
func AfterCleanup(g *Graph) error {
	opts, err := ResolveOptions(g.Doc, g.File, g.Version)
	if err != nil {
		return err
	}
	g.Options = opts
	gone := map[*Element]bool{}
	var groups []*Element
	for _, gr := range g.Groups {
		if gr.Variability {
			gone[gr] = true
			delete(g.groupsByName, gr.Name)
			continue
		}
		groups = append(groups, gr)
	}
	if len(gone) > 0 {
		g.Groups = groups
		keep := func(list []*Element) []*Element {
			out := list[:0]
			for _, e := range list {
				if !gone[e] && (e.Container == nil || !gone[e.Container]) {
					out = append(out, e)
				}
			}
			return out
		}
		g.Types = keep(g.Types)
		g.Properties = keep(g.Properties)
		for _, e := range append(append([]*Element(nil), g.Nodes...), g.Relations...) {
			e.Groups = keep(e.Groups)
		}
		for _, p := range g.Policies {
			for _, t := range p.Targets {
				if gone[t] {
					return diag.At(p.Pos(), diag.StageLoad, `Policy target "`+t.Name+`" of `+p.Display()+` does not exist`)
				}
			}
		}
	}
	for _, e := range g.Elements {
		e.DefaultAlternative = false
	}
	g.assemble()
	return g.persistentCheck()
}
