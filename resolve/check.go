package resolve

import (
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/reuse"
)

// Spec variability.md §11 (checker): consistency and semantic checks on the
// chosen model, in the reference's order; the first violation is reported.
// The checker's lists come from lists (nil: allocated).
func check(g *graph.Graph, lists *reuse.Arrays[*graph.Element]) error {
	c := g.Options.Checks
	k := newChecker(g, lists)
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

func newChecker(g *graph.Graph, lists *reuse.Arrays[*graph.Element]) *checker {
	present := func(list []*graph.Element) []*graph.Element { return presentIn(list, lists) }
	return &checker{
		relations: present(g.Relations), nodes: present(g.Nodes), artifacts: present(g.Artifacts),
		properties: present(g.Properties), types: present(g.Types), technologies: present(g.Technologies),
		inputs: present(g.Inputs), outputs: present(g.Outputs),
		groups: present(g.Groups), policies: present(g.Policies),
	}
}

// violation is a failed check at e.
func violation(e *graph.Element, msg string) error { return diag.At(e.Pos(), diag.StageCheck, msg) }

// present returns the present elements of list, in one pass: counting
// them first read every element's memory twice, and on a large template
// the list does not stay in the cache between the passes. The result may
// have room to spare.
func present(list []*graph.Element) []*graph.Element { return presentIn(list, nil) }

// presentIn is present with the result taken from lists (nil: allocated):
// a batch worker's checks take it from the run before, where a large
// template's lists were a thirtieth of the bytes of the 256-run space of
// benchmarks/scaling.sh.
func presentIn(list []*graph.Element, lists *reuse.Arrays[*graph.Element]) []*graph.Element {
	var out []*graph.Element
	for i, e := range list {
		if e.Present {
			if out == nil {
				out = lists.Make(len(list) - i)[:0]
			}
			out = append(out, e)
		}
	}
	return out
}

// countPresent counts the present elements of list.
func countPresent(list []*graph.Element) int {
	n := 0
	for _, e := range list {
		if e.Present {
			n++
		}
	}
	return n
}

// uniqueNames reports the first element whose name was seen before.
func uniqueNames(list []*graph.Element) *graph.Element {
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		if seen[e.Name] {
			return e
		}
		seen[e.Name] = true
	}
	return nil
}

// ambiguousPresent is ambiguousName of the present elements of list. Member
// lists are short, and comparing with the earlier ones there beats a list
// and a map for each.
func ambiguousPresent(list []*graph.Element) error {
	if len(list) > 8 {
		return ambiguousName(present(list))
	}
	for i, e := range list {
		if !e.Present {
			continue
		}
		for _, d := range list[:i] {
			if d.Present && d.Name == e.Name {
				return violation(e, msgAmbiguous(e))
			}
		}
	}
	return nil
}

// ambiguousName reports the first element of list whose name an earlier
// one has.
func ambiguousName(list []*graph.Element) error {
	if e := uniqueNames(list); e != nil {
		return violation(e, msgAmbiguous(e))
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
	return k.relationEnds(func(r *graph.Element) *graph.Element { return r.Container }, msgRelationSourceMissing)
}

func (k *checker) relationTargets() error {
	return k.relationEnds(func(r *graph.Element) *graph.Element { return r.Target }, msgRelationTargetMissing)
}

// relationEnds reports the first relation whose end is absent.
func (k *checker) relationEnds(end func(*graph.Element) *graph.Element, msg func(*graph.Element) string) error {
	for _, r := range k.relations {
		if !end(r).Present {
			return violation(r, msg(r))
		}
	}
	return nil
}

func (k *checker) artifactContainers() error { return missingContainer(k.artifacts) }

func (k *checker) ambiguousArtifacts() error { return k.ambiguousMembers(nodeArtifacts) }

func (k *checker) propertyContainers() error { return missingContainer(k.properties) }

func (k *checker) ambiguousProperties() error { return k.ambiguousMembers(nodeProperties) }

func (k *checker) typeContainers() error { return missingContainer(k.types) }

// ambiguousTypes requires exactly one present type of each present node,
// group, policy and artifact.
func (k *checker) ambiguousTypes() error {
	for _, list := range [][]*graph.Element{k.nodes, k.groups, k.policies, k.artifacts} {
		for _, e := range list {
			if countPresent(e.Types) == 0 {
				return violation(e, graph.MsgHasNoType(e))
			}
			if err := ambiguousPresent(e.Types); err != nil {
				return err
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
	return k.expectedMembers(nodeIngoing, msgExpectedIncoming)
}

func (k *checker) expectedArtifacts() error {
	return k.expectedMembers(nodeArtifacts, msgExpectedArtifact)
}

func (k *checker) expectedTechnologies() error {
	return k.expectedMembers(nodeTechnologies, msgExpectedTechnology)
}

func (k *checker) technologyContainers() error { return missingContainer(k.technologies) }

func (k *checker) ambiguousTechnologies() error {
	for _, n := range k.nodes {
		if countPresent(n.Technologies) > 1 {
			return violation(n, msgMoreThanOneTechnology(n))
		}
	}
	return nil
}

func (k *checker) ambiguousInputs() error { return ambiguousName(k.inputs) }

func (k *checker) unconsumedInputs() error {
	for _, in := range k.inputs {
		if countPresent(in.Consumers) == 0 {
			return violation(in, msgNotConsumed(in))
		}
	}
	return nil
}

func (k *checker) ambiguousOutputs() error { return ambiguousName(k.outputs) }

func (k *checker) unproducedOutputs() error {
	for _, out := range k.outputs {
		if countPresent(out.Producers) != len(out.Producers) {
			return violation(out, msgNotProduced(out))
		}
	}
	return nil
}

func (k *checker) ambiguousRelations() error { return k.ambiguousMembers(nodeOutgoing) }

// ambiguousMembers reports the first present member of a node, in the list
// that of returns, whose name an earlier present member of it has.
func (k *checker) ambiguousMembers(of func(*graph.Element) []*graph.Element) error {
	for _, n := range k.nodes {
		if err := ambiguousPresent(of(n)); err != nil {
			return err
		}
	}
	return nil
}

// expectedMembers reports the first node that has members in the list that
// of returns but none of them present.
func (k *checker) expectedMembers(of func(*graph.Element) []*graph.Element, msg func(*graph.Element) string) error {
	for _, n := range k.nodes {
		if len(of(n)) > 0 && countPresent(of(n)) == 0 {
			return violation(n, msg(n))
		}
	}
	return nil
}

// The member lists of a node that the checks above look into.
func nodeArtifacts(n *graph.Element) []*graph.Element    { return n.Artifacts }
func nodeProperties(n *graph.Element) []*graph.Element   { return n.Properties }
func nodeOutgoing(n *graph.Element) []*graph.Element     { return n.Outgoing }
func nodeIngoing(n *graph.Element) []*graph.Element      { return n.Ingoing }
func nodeTechnologies(n *graph.Element) []*graph.Element { return n.Technologies }
