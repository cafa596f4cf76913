package resolve

import (
	"v4t/model/diag"
	"v4t/model/graph"
)

// Spec variability.md §11 (checker): consistency and semantic checks on the
// chosen model, in the reference's order; the first violation is reported.
func check(g *graph.Graph) error {
	c := g.Options.Checks
	fail := func(e *graph.Element, msg string) error { return diag.At(e.Pos(), diag.StageCheck, msg) }
	present := func(list []*graph.Element) []*graph.Element {
		var out []*graph.Element
		for _, e := range list {
			if e.Present {
				out = append(out, e)
			}
		}
		return out
	}
	relations, nodes, artifacts := present(g.Relations), present(g.Nodes), present(g.Artifacts)
	properties, types, technologies := present(g.Properties), present(g.Types), present(g.Technologies)
	inputs, outputs := present(g.Inputs), present(g.Outputs)
	groups, policies := present(g.Groups), present(g.Policies)

	// uniqueNames reports the first element whose name was seen before.
	uniqueNames := func(list []*graph.Element) *graph.Element {
		seen := map[string]bool{}
		for _, e := range list {
			if seen[e.Name] {
				return e
			}
			seen[e.Name] = true
		}
		return nil
	}

	if c.RelationSource {
		for _, r := range relations {
			if !r.Container.Present {
				return fail(r, `Relation source "`+r.Container.Name+`" of `+r.Display()+` does not exist`)
			}
		}
	}
	if c.RelationTarget {
		for _, r := range relations {
			if !r.Target.Present {
				return fail(r, `Relation target "`+r.Target.Name+`" of `+r.Display()+` does not exist`)
			}
		}
	}
	if c.MissingArtifactContainer {
		for _, a := range artifacts {
			if !a.Container.Present {
				return fail(a, "Container of "+a.Display()+" does not exist")
			}
		}
	}
	if c.AmbiguousArtifact {
		for _, n := range nodes {
			if a := uniqueNames(present(n.Artifacts)); a != nil {
				return fail(a, a.DisplayUpper()+" is ambiguous")
			}
		}
	}
	if c.MissingPropertyContainer {
		for _, p := range properties {
			if !p.Container.Present {
				return fail(p, "Container of "+p.Display()+" does not exist")
			}
		}
	}
	if c.AmbiguousProperty {
		for _, n := range nodes {
			if p := uniqueNames(present(n.Properties)); p != nil {
				return fail(p, p.DisplayUpper()+" is ambiguous")
			}
		}
	}
	if c.MissingTypeContainer {
		for _, t := range types {
			if !t.Container.Present {
				return fail(t, "Container of "+t.Display()+" does not exist")
			}
		}
	}
	if c.AmbiguousType {
		for _, list := range [][]*graph.Element{nodes, groups, policies, artifacts} {
			for _, e := range list {
				ts := present(e.Types)
				if len(ts) == 0 {
					return fail(e, e.DisplayUpper()+" has no type")
				}
				if t := uniqueNames(ts); t != nil {
					return fail(t, t.DisplayUpper()+" is ambiguous")
				}
			}
		}
	}
	if c.AmbiguousHosting {
		for _, n := range nodes {
			count := 0
			for _, r := range n.Outgoing {
				if r.IsHostedOn() && r.Present {
					count++
				}
			}
			if count > 1 {
				return fail(n, n.DisplayUpper()+" has more than one hosting relations")
			}
		}
	}
	if c.ExpectedHosting {
		for _, n := range nodes {
			had, has := false, false
			for _, r := range n.Outgoing {
				if r.IsHostedOn() {
					had = true
					has = has || r.Present
				}
			}
			if had && !has {
				return fail(n, n.DisplayUpper()+" expected to have a hosting relation")
			}
		}
	}
	if c.ExpectedIncomingRelation {
		for _, n := range nodes {
			if len(n.Ingoing) > 0 && len(present(n.Ingoing)) == 0 {
				return fail(n, n.DisplayUpper()+" expected to have an incoming relation")
			}
		}
	}
	if c.ExpectedArtifact {
		for _, n := range nodes {
			if len(n.Artifacts) > 0 && len(present(n.Artifacts)) == 0 {
				return fail(n, n.DisplayUpper()+" expected to have an deployment artifact")
			}
		}
	}
	if c.ExpectedTechnology {
		for _, n := range nodes {
			if len(n.Technologies) > 0 && len(present(n.Technologies)) == 0 {
				return fail(n, n.DisplayUpper()+" expected to have a technology")
			}
		}
	}
	if c.MissingTechnologyContainer {
		for _, t := range technologies {
			if !t.Container.Present {
				return fail(t, "Container of "+t.Display()+" does not exist")
			}
		}
	}
	if c.AmbiguousTechnology {
		for _, n := range nodes {
			if len(present(n.Technologies)) > 1 {
				return fail(n, n.DisplayUpper()+" has more than one technology")
			}
		}
	}
	if c.AmbiguousInput {
		if in := uniqueNames(inputs); in != nil {
			return fail(in, in.DisplayUpper()+" is ambiguous")
		}
	}
	// Quirk: the consumed-input check is gated by unproduced_output_check
	// (variability.md §17.9).
	if c.UnproducedOutput {
		for _, in := range inputs {
			if len(present(in.Consumers)) == 0 {
				return fail(in, in.DisplayUpper()+" is not consumed")
			}
		}
	}
	if c.AmbiguousOutput {
		if out := uniqueNames(outputs); out != nil {
			return fail(out, out.DisplayUpper()+" is ambiguous")
		}
	}
	if c.UnproducedOutput {
		for _, out := range outputs {
			if len(present(out.Producers)) != len(out.Producers) {
				return fail(out, out.DisplayUpper()+" is not produced")
			}
		}
	}
	if c.AmbiguousRelation {
		for _, n := range nodes {
			if r := uniqueNames(present(n.Outgoing)); r != nil {
				return fail(r, r.DisplayUpper()+" is ambiguous")
			}
		}
	}
	return nil
}
