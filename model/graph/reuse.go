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
	if err := g.persistentCheck(); err != nil {
		return err
	}
	return g.nullInputDefinitions()
}

// InputFeatureKeys are the keys of a variability input definition that the
// validator reads (variability.md §7), in its order.
var InputFeatureKeys = []string{"mandatory", "optional", "choices", "alternatives", "requires", "excludes"}

// nullInputDefinitions is the first read of the reference's validator,
// which comes right after graph #3 (variability.md §1 step 7): whether any
// variability input definition has a feature key (resolver/validator.js
// required()). It reads the definitions in order and fails on a null one;
// it stops at the first one with a feature key, because the validator then
// checks the definitions one by one and fails on a later null definition
// only after the constraints of the ones before it (NullInputDefinition).
func (g *Graph) nullInputDefinitions() error {
	inputs := g.Variability().Get("inputs")
	if !inputs.IsMap() {
		return nil
	}
	for i, name := range inputs.Map.Keys() {
		def := inputs.Map.Val(i)
		if def.IsNull() {
			return NullInputDefinition(g.File, name, valueOr(def, inputs))
		}
		for _, k := range InputFeatureKeys {
			if !def.Get(k).IsNull() {
				return nil
			}
		}
	}
	return nil
}

// NullInputDefinition is the error for the variability input definition
// name that is null (at its position), where the reference's validator
// fails reading its feature keys.
func NullInputDefinition(file, name string, at *Value) *diag.Diagnostic {
	return diag.AtRef(posOf(file, at), diag.StageValidate,
		`expected the variability input "`+name+`" as a map, found null`,
		"Cannot read properties of null (reading 'mandatory')")
}
