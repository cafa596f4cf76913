package graph

import (
	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// AfterCleanup turns graph #2, after the enricher's cleanup (variability.md
// §5.13), into the graph that building the document again would give
// (graph #3), without rebuilding it. The rebuild meant is the reference's,
// of the document with the final conditions written back into it, which
// v4t writes only where the document is read again (enrich.Cleanup).
//
// A rebuild would read exactly the element lists of graph #2 back, with the
// enriched condition lists and without default alternatives; it differs in
// four ways, all reproduced here: options are resolved from the cleaned
// options (so the persistent check runs with the version's default node
// mode, §3.4.6, quirk 17.1), variability groups are gone with their types and
// properties (so they consume no inputs), a policy that targets a
// variability group, or a property that refers to one by name, no longer
// finds it (§3.4.4), and an element that is a string, a number or a boolean
// (a coerced entry) has no conditions, since the cleanup writes them back
// into objects only (§5.13).
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
					return diag.At(p.Pos(), diag.StageLoad, msgPolicyTargetMissing(t.Name, p))
				}
			}
		}
		if err := g.consumersAfterCleanup(gone); err != nil {
			return err
		}
	}
	for _, e := range g.Elements {
		e.DefaultAlternative = false
		if r := e.Raw; r != nil && (r.Kind == yamlsrc.KindString || r.Kind == yamlsrc.KindNumber || r.Kind == yamlsrc.KindBool) {
			// The cleanup writes the final conditions back into objects
			// only; a rebuild reads none from a string, a number or a
			// boolean, which a coerced entry can be (a type of a string
			// entry of a type list, an input definition, §5.13).
			e.Conditions = nil
			e.ContainerPresence = false
		}
	}
	if len(gone) > 0 {
		// Without variability groups, the element lists are those that
		// were assembled.
		g.assemble()
	}
	if err := g.persistentCheck(); err != nil {
		return err
	}
	return g.nullInputDefinitions()
}

// consumersAfterCleanup repeats the consumer lookups of graph #3 (§3.4.4)
// that the removal of the variability groups in gone changes: properties of
// those groups consume no inputs any more, and a property that refers to
// such a group by name (get_property, get_attribute, eval) looks the name
// up again, which finds a policy of that name or fails as the reference
// does.
func (g *Graph) consumersAfterCleanup(gone map[*Element]bool) error {
	for _, in := range g.Inputs {
		kept := in.Consumers[:0:0]
		for _, c := range in.Consumers {
			if !gone[c.Container] {
				kept = append(kept, c)
			}
		}
		in.Consumers = kept
	}
	for _, prop := range g.Properties {
		for i, c := range prop.Consuming {
			if !gone[c] {
				continue
			}
			el, err := g.guessElement(c.Name, Context{Element: prop.Container})
			if err != nil {
				// At the reference, as the populator reports it.
				if prop.Value != nil && prop.Value.Line > 0 {
					return withPos(err, g.File, prop.Value)
				}
				if d, ok := diag.As(err); ok && !d.Pos.Known() {
					d.Pos = prop.Pos()
				}
				return err
			}
			prop.Consuming[i] = el
		}
	}
	return nil
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
	for i, name := range inputs.Map().Keys() {
		def := inputs.Map().Val(i)
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
		MsgCannotReadNull("mandatory"))
}
