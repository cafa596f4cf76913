package resolve

import (
	"v4t/model/diag"
	"v4t/model/graph"
)

// Spec variability.md §11 (checker): consistency and semantic checks on the
// chosen model, in the reference's order; the first violation is reported.
func check(g *graph.Graph) error {
	c := g.Options.Checks
	k := newChecker(g)
	for _, step := range []struct {
		on  bool
		run func(*checker) error
	}{
		{c.RelationSource, (*checker).relationSources},
		{c.RelationTarget, (*checker).relationTargets},
		{c.MissingArtifactContainer, (*checker).artifactContainers},
		{c.AmbiguousArtifact, (*checker).ambiguousArtifacts},
		{c.MissingPropertyContainer, (*checker).propertyContainers},
		{c.AmbiguousProperty, (*checker).ambiguousProperties},
		{c.MissingTypeContainer, (*checker).typeContainers},
		{c.AmbiguousType, (*checker).ambiguousTypes},
		{c.AmbiguousHosting, (*checker).ambiguousHosting},
		{c.ExpectedHosting, (*checker).expectedHosting},
		{c.ExpectedIncomingRelation, (*checker).expectedIncomingRelations},
		{c.ExpectedArtifact, (*checker).expectedArtifacts},
		{c.ExpectedTechnology, (*checker).expectedTechnologies},
		{c.MissingTechnologyContainer, (*checker).technologyContainers},
		{c.AmbiguousTechnology, (*checker).ambiguousTechnologies},
		{c.AmbiguousInput, (*checker).ambiguousInputs},
		// Quirk: the consumed-input check is gated by unproduced_output_check
		// (variability.md §17.9).
		{c.UnproducedOutput, (*checker).unconsumedInputs},
		{c.AmbiguousOutput, (*checker).ambiguousOutputs},
		{c.UnproducedOutput, (*checker).unproducedOutputs},
		{c.AmbiguousRelation, (*checker).ambiguousRelations},
	} {
		if !step.on {
			continue
		}
		if err := step.run(k); err != nil {
			return err
		}
	}
	return nil
}

// checker holds the present elements of each kind of the chosen model.
type checker struct {
	relations, nodes, artifacts     []*graph.Element
	properties, types, technologies []*graph.Element
	inputs, outputs                 []*graph.Element
	groups, policies                []*graph.Element
}

func newChecker(g *graph.Graph) *checker {
	return &checker{
		relations: present(g.Relations), nodes: present(g.Nodes), artifacts: present(g.Artifacts),
		properties: present(g.Properties), types: present(g.Types), technologies: present(g.Technologies),
		inputs: present(g.Inputs), outputs: present(g.Outputs),
		groups: present(g.Groups), policies: present(g.Policies),
	}
}

// violation is a failed check at e.
func violation(e *graph.Element, msg string) error { return diag.At(e.Pos(), diag.StageCheck, msg) }

// present returns the present elements of list.
func present(list []*graph.Element) []*graph.Element {
	var out []*graph.Element
	for _, e := range list {
		if e.Present {
			out = append(out, e)
		}
	}
	return out
}

// uniqueNames reports the first element whose name was seen before.
func uniqueNames(list []*graph.Element) *graph.Element {
	seen := map[string]bool{}
	for _, e := range list {
		if seen[e.Name] {
			return e
		}
		seen[e.Name] = true
	}
	return nil
}

// missingContainer reports the first element of list whose container is
// absent.
func missingContainer(list []*graph.Element) error {
	for _, e := range list {
		if !e.Container.Present {
			return violation(e, msgContainerMissing(e))
		}
	}
	return nil
}

func (k *checker) relationSources() error {
	for _, r := range k.relations {
		if !r.Container.Present {
			return violation(r, msgRelationSourceMissing(r))
		}
	}
	return nil
}

func (k *checker) relationTargets() error {
	for _, r := range k.relations {
		if !r.Target.Present {
			return violation(r, msgRelationTargetMissing(r))
		}
	}
	return nil
}

func (k *checker) artifactContainers() error { return missingContainer(k.artifacts) }

func (k *checker) ambiguousArtifacts() error {
	for _, n := range k.nodes {
		if a := uniqueNames(present(n.Artifacts)); a != nil {
			return violation(a, msgAmbiguous(a))
		}
	}
	return nil
}

func (k *checker) propertyContainers() error { return missingContainer(k.properties) }

func (k *checker) ambiguousProperties() error {
	for _, n := range k.nodes {
		if p := uniqueNames(present(n.Properties)); p != nil {
			return violation(p, msgAmbiguous(p))
		}
	}
	return nil
}

func (k *checker) typeContainers() error { return missingContainer(k.types) }

// ambiguousTypes requires exactly one present type of each present node,
// group, policy and artifact.
func (k *checker) ambiguousTypes() error {
	for _, list := range [][]*graph.Element{k.nodes, k.groups, k.policies, k.artifacts} {
		for _, e := range list {
			ts := present(e.Types)
			if len(ts) == 0 {
				return violation(e, graph.MsgHasNoType(e))
			}
			if t := uniqueNames(ts); t != nil {
				return violation(t, msgAmbiguous(t))
			}
		}
	}
	return nil
}

func (k *checker) ambiguousHosting() error {
	for _, n := range k.nodes {
		count := 0
		for _, r := range n.Outgoing {
			if r.IsHostedOn() && r.Present {
				count++
			}
		}
		if count > 1 {
			return violation(n, msgMoreThanOneHosting(n))
		}
	}
	return nil
}

// expectedHosting requires a present hosting relation of each node that
// has hosting relations.
func (k *checker) expectedHosting() error {
	for _, n := range k.nodes {
		had, has := false, false
		for _, r := range n.Outgoing {
			if r.IsHostedOn() {
				had = true
				has = has || r.Present
			}
		}
		if had && !has {
			return violation(n, msgExpectedHosting(n))
		}
	}
	return nil
}

func (k *checker) expectedIncomingRelations() error {
	for _, n := range k.nodes {
		if len(n.Ingoing) > 0 && len(present(n.Ingoing)) == 0 {
			return violation(n, msgExpectedIncoming(n))
		}
	}
	return nil
}

func (k *checker) expectedArtifacts() error {
	for _, n := range k.nodes {
		if len(n.Artifacts) > 0 && len(present(n.Artifacts)) == 0 {
			return violation(n, msgExpectedArtifact(n))
		}
	}
	return nil
}

func (k *checker) expectedTechnologies() error {
	for _, n := range k.nodes {
		if len(n.Technologies) > 0 && len(present(n.Technologies)) == 0 {
			return violation(n, msgExpectedTechnology(n))
		}
	}
	return nil
}

func (k *checker) technologyContainers() error { return missingContainer(k.technologies) }

func (k *checker) ambiguousTechnologies() error {
	for _, n := range k.nodes {
		if len(present(n.Technologies)) > 1 {
			return violation(n, msgMoreThanOneTechnology(n))
		}
	}
	return nil
}

func (k *checker) ambiguousInputs() error {
	if in := uniqueNames(k.inputs); in != nil {
		return violation(in, msgAmbiguous(in))
	}
	return nil
}

func (k *checker) unconsumedInputs() error {
	for _, in := range k.inputs {
		if len(present(in.Consumers)) == 0 {
			return violation(in, msgNotConsumed(in))
		}
	}
	return nil
}

func (k *checker) ambiguousOutputs() error {
	if out := uniqueNames(k.outputs); out != nil {
		return violation(out, msgAmbiguous(out))
	}
	return nil
}

func (k *checker) unproducedOutputs() error {
	for _, out := range k.outputs {
		if len(present(out.Producers)) != len(out.Producers) {
			return violation(out, msgNotProduced(out))
		}
	}
	return nil
}

func (k *checker) ambiguousRelations() error {
	for _, n := range k.nodes {
		if r := uniqueNames(present(n.Outgoing)); r != nil {
			return violation(r, msgAmbiguous(r))
		}
	}
	return nil
}
