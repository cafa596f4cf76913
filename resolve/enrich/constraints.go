package enrich

import (
	"slices"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Constraints runs constraint enrichment on graph #2 (§5.11, §5.12) and
// appends the generated constraints to variability.constraints. The
// constraints of each enabled option come in the reference's order, then
// the implications.
func Constraints(g *graph.Graph) error {
	k := &constraintSet{g: g}
	c := g.Options.Constraints
	for _, step := range []struct {
		on  bool
		run func() error
	}{
		{c.RelationSource, done(k.relationSources)},
		{c.RelationTarget, done(k.relationTargets)},
		{c.UniqueArtifact, done(k.uniqueArtifacts)},
		{c.ArtifactContainer, done(func() { k.containers(g.Artifacts) })},
		{c.PropertyContainer, done(func() { k.containers(g.Properties) })},
		{c.UniqueProperty, done(k.uniqueProperties)},
		{c.TypeContainer, done(func() { k.containers(g.Types) })},
		{c.HostingStack, done(k.hostingStacks)},
		{c.RequiredIncomingRelation, done(k.requiredIncomingRelations)},
		{c.RequiredArtifact, done(k.requiredArtifacts)},
		{c.Technology, k.technologies},
		{c.UniqueInput, done(func() { k.unique(g.Inputs) })},
		{c.UniqueOutput, done(func() { k.unique(g.Outputs) })},
		{c.UniqueRelation, done(k.uniqueRelations)},
	} {
		if !step.on {
			continue
		}
		if err := step.run(); err != nil {
			return err
		}
	}
	if err := k.implications(); err != nil {
		return err
	}
	if len(k.out) == 0 {
		return nil
	}
	return appendConstraints(g, k.out)
}

// done adapts a step that cannot fail to the steps of Constraints.
func done(step func()) func() error {
	return func() error {
		step()
		return nil
	}
}

// constraintSet collects the constraints generated for g.
type constraintSet struct {
	g   *graph.Graph
	out []*Value
	// groups groups the short lists the unique constraints go through;
	// each list's groups are used before the next list's are made.
	groups graph.NameGrouper
}

func (k *constraintSet) add(c *Value) { k.out = append(k.out, c) }

func id(e *Element) *Value { return e.IDValue() }

// ids returns the id values of es.
func ids(es []*Element) []*Value {
	l := make([]*Value, len(es))
	for i, e := range es {
		l[i] = id(e)
	}
	return l
}

// implies is {implies: [a, b]}, made in the graph's Values.
func (k *constraintSet) implies(a, b *Value) *Value { return k.g.Values.PairOf("implies", a, b) }

// relationSources makes each relation imply its target.
func (k *constraintSet) relationSources() {
	for _, r := range k.g.Relations {
		// Quirk: source and target are swapped (§17.7).
		k.add(k.implies(id(r), id(r.Target)))
	}
}

// relationTargets makes each relation imply its source.
func (k *constraintSet) relationTargets() {
	for _, r := range k.g.Relations {
		k.add(k.implies(id(r), id(r.Container)))
	}
}

// uniqueArtifacts allows at most one of the artifacts of a node that share
// a name.
func (k *constraintSet) uniqueArtifacts() {
	for _, n := range k.g.Nodes {
		for _, group := range k.groups.Groups(n.Artifacts) {
			k.add(k.g.Values.OpOf("amo", ids(group)))
		}
	}
}

// containers makes each element of es imply its container.
func (k *constraintSet) containers(es []*Element) {
	for _, e := range es {
		k.add(k.implies(id(e), id(e.Container)))
	}
}

// uniqueProperties makes each container imply exactly one of its
// properties that share a name.
func (k *constraintSet) uniqueProperties() {
	g := k.g
	for _, containers := range [][]*Element{g.Nodes, g.Relations, g.Policies, g.Groups, g.Artifacts} {
		for _, e := range containers {
			for _, group := range k.groups.Groups(e.Properties) {
				k.add(k.implies(id(group[0].Container), k.g.Values.OpOf("exo", ids(group))))
			}
		}
	}
}

// hostingStacks makes each node with hosting relations imply exactly one
// of them.
func (k *constraintSet) hostingStacks() {
	for _, n := range k.g.Nodes {
		var hostings []*Element
		for _, r := range n.Outgoing {
			if r.IsHostedOn() {
				hostings = append(hostings, r)
			}
		}
		switch len(hostings) {
		case 0:
		case 1:
			k.add(k.implies(id(n), id(hostings[0])))
		default:
			k.add(k.implies(id(n), k.g.Values.OpOf("exo", ids(hostings))))
		}
	}
}

// requiredIncomingRelations makes each node with incoming relations imply
// one of them.
func (k *constraintSet) requiredIncomingRelations() {
	for _, n := range k.g.Nodes {
		if len(n.Ingoing) > 0 {
			k.add(k.implies(id(n), k.g.Values.OpOf("or", ids(n.Ingoing))))
		}
	}
}

// requiredArtifacts makes each node with artifacts imply exactly one of
// them.
func (k *constraintSet) requiredArtifacts() {
	for _, n := range k.g.Nodes {
		if len(n.Artifacts) > 0 {
			k.add(k.implies(id(n), k.g.Values.OpOf("exo", ids(n.Artifacts))))
		}
	}
}

// technologies makes each managed node imply exactly one of its
// technologies.
func (k *constraintSet) technologies() error {
	nodes, err := managedNodes(k.g)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if len(n.Technologies) == 1 {
			k.add(k.implies(id(n), id(n.Technologies[0])))
		} else {
			k.add(k.implies(id(n), k.g.Values.OpOf("exo", ids(n.Technologies))))
		}
	}
	return nil
}

// unique allows at most one of the elements of es that share a name.
func (k *constraintSet) unique(es []*Element) {
	for _, group := range k.groups.Groups(es) {
		k.add(k.g.Values.OpOf("amo", ids(group)))
	}
}

// uniqueRelations makes each node imply at most one of its outgoing
// relations that share a name.
func (k *constraintSet) uniqueRelations() {
	for _, n := range k.g.Nodes {
		for _, group := range k.groups.Groups(n.Outgoing) {
			k.add(k.implies(id(n), k.g.Values.OpOf("amo", ids(group))))
		}
	}
}

// implications makes the container and the manual variable of each
// implied element imply it (§5.12).
func (k *constraintSet) implications() error {
	for _, e := range k.g.Elements {
		if e.Container == nil {
			continue
		}
		imp := implied(e)
		if !imp.Truthy() {
			continue
		}
		ok := imp.IsTrue()
		if imp.Kind == yamlsrc.KindString {
			switch imp.Str() {
			case "TARGET":
				if e.Kind != graph.KindRelation {
					return errAt(e, graph.MsgIsNot(e, "a relation"))
				}
				ok = true
			case "SOURCE", "CONTAINER":
				ok = true
			}
		}
		if !ok {
			return errAt(e, msgLeftNotDefined)
		}
		k.add(k.implies(k.g.Values.PairOf("and", id(e.Container), e.ManualIDValue()), id(e)))
	}
	return nil
}

// appendConstraints appends out to variability.constraints, creating the
// variability definition and its constraints where missing.
func appendConstraints(g *graph.Graph, out []*Value) error {
	topo := g.Topology()
	if !topo.IsMap() {
		return errAt(g.Nodes[0], msgNoTopologyTemplate)
	}
	vb := topo.Get("variability")
	if !vb.IsMap() {
		vb = yamlsrc.NewMap()
		topo.Map().Set("variability", vb)
	}
	cs := vb.Get("constraints")
	switch {
	case cs.IsNull():
		cs = yamlsrc.NewList()
		vb.Map().Set("constraints", cs)
	case !cs.IsList():
		// The reference pushes onto what is there.
		return diag.AtRef(diag.Pos{File: g.File, Line: int(cs.Line), Col: int(cs.Col)}, diag.StageEnrich,
			"expected the variability constraints as a list, found "+graph.Describe(cs),
			graph.MsgNotAFunction("this.serviceTemplate.topology_template.variability.constraints.push"))
	}
	cs.SetList(append(cs.List(), out...))
	return nil
}

// valueTrue and valueFalse are the booleans enrichment writes: implied's
// defaults and the value of every "_generated" and "_bratan" marker. One
// value serves them all (a template has one marker per generated
// condition): nothing changes a value in place, and cleanup or the output
// drops the markers.
var valueTrue, valueFalse = yamlsrc.NewBool(true), yamlsrc.NewBool(false)

// implied returns the element's implied value (§5.12), not to be modified.
func implied(e *Element) *Value {
	var raw *Value
	if e.Keys&graph.KeyImplied != 0 {
		raw = e.Raw.Get("implied")
	}
	switch e.Kind {
	case graph.KindRelation:
		if !raw.IsNull() {
			return raw
		}
		if e.IsHostedOn() || !e.Graph.Options.RelationDefaultImplied {
			return valueFalse
		}
		return valueTrue
	case graph.KindProperty:
		if !raw.IsNull() {
			return raw
		}
		return valueTrue
	}
	return raw
}

// cleanedKeys are removed from every element by the enricher cleanup.
var cleanedKeys = [...]string{"default_condition", "default_consistency_condition", "default_semantic_condition",
	"default_condition_mode", "pruning", "consistency_pruning", "semantic_pruning", "default_alternative", "implied"}

// cleanedSet is cleanedKeys as a graph.KeySet.
var cleanedSet = graph.KeysOf(cleanedKeys[:]...)

// cleanKeys deletes the cleanedKeys from m in one walk over its keys, and
// at once (DeleteAll): deleted one by one, each map left with a
// tombstone got the state that marks it, two allocations per element map
// that had such a key (an eighth of a batch run's allocations on the
// pruning family).
func cleanKeys(m *yamlsrc.Map) {
	var found [len(cleanedKeys)]string
	n := 0
	for _, k := range m.Keys() {
		for _, c := range cleanedKeys {
			if k == c {
				found[n] = k
				n++
				break
			}
		}
	}
	if n > 0 {
		m.DeleteAll(found[:n])
	}
}

// cleanedOptions are the options the enricher cleanup removes (§5.13).
var cleanedOptions = []string{
	"mode", "default_condition",
	"node_default_condition", "node_default_condition_mode", "node_default_consistency_condition", "node_default_semantic_condition",
	"relation_default_condition", "relation_default_condition_mode", "relation_default_consistency_condition",
	"relation_default_semantic_condition", "relation_default_implied",
	"policy_default_condition", "policy_default_consistency_condition", "policy_default_semantic_condition",
	"group_default_condition", "group_default_consistency_condition", "group_default_semantic_condition",
	"artifact_default_condition", "artifact_default_consistency_condition", "artifact_default_semantic_condition",
	"property_default_condition", "property_default_consistency_condition", "property_default_semantic_condition",
	"type_default_condition", "type_default_consistency_condition", "type_default_semantic_condition",
	"pruning", "consistency_pruning", "semantic_pruning",
	"node_pruning", "node_consistency_pruning", "node_semantic_pruning",
	"relation_pruning", "relation_consistency_pruning", "relation_semantic_pruning",
	"policy_pruning", "policy_consistency_pruning", "policy_semantic_pruning",
	"group_pruning", "group_consistency_pruning", "group_semantic_pruning",
	"artifact_pruning", "artifact_consistency_pruning", "artifact_semantic_pruning",
	"property_pruning", "property_consistency_pruning", "property_semantic_pruning",
	"type_pruning", "type_consistency_pruning", "type_semantic_pruning",
	"relation_source_constraint", "relation_target_constraint", "artifact_container_constraint",
	"property_container_constraint", "type_container_constraint", "hosting_stack_constraint", "technology_constraint",
	"unique_property_constraint", "unique_artifact_constraint", "unique_input_constraint", "unique_output_constraint",
	"required_artifact_constraint", "required_incoming_relation_constraint",
	"required_technology_check",
	"enrich_input_condition", "enrich_technologies", "enrich_implementations",
}

// cleanConditions is the reference's cleanup walk over every element's final
// conditions (§5.13), which deletes an internal key from every object it
// meets: it descends into list items and into the first value of each map
// (in JavaScript key order), stops at numbers and strings, and fails on null,
// even where the condition would never be evaluated (an in_range bound, an
// operand of a short-circuited operator). Top-level nulls were removed by
// condition enrichment (§5.6 step 3).
func cleanConditions(g *graph.Graph) error {
	for _, e := range g.Elements {
		if err := cleanConditionsOf(e); err != nil {
			return err
		}
	}
	return nil
}

// cleanConditionsOf is cleanConditions for one element.
func cleanConditionsOf(e *Element) error {
	for _, c := range e.Conditions {
		if err := cleanCondition(e, c); err != nil {
			return err
		}
	}
	return nil
}

func cleanCondition(e *Element, c *Value) error {
	// nil is JavaScript's undefined (an empty map's first value), which is
	// not an object; a YAML null is.
	for c != nil {
		switch c.Kind {
		case yamlsrc.KindNull:
			// Quirk: null-in-condition (§5.13): `delete null._cached_element`.
			return errAt(e, graph.MsgNullToObject)
		case yamlsrc.KindList:
			for _, x := range c.List() {
				if err := cleanCondition(e, x); err != nil {
					return err
				}
			}
			return nil
		case yamlsrc.KindMap:
			if c.Map().Len() == 0 {
				return nil
			}
			c = c.Map().Val(0)
			if c.Kind == yamlsrc.KindNumber || c.Kind == yamlsrc.KindString {
				return nil
			}
		default:
			// Booleans are no objects; a date is one without values.
			return nil
		}
	}
	return nil
}

// Cleanup removes enrichment-only keys and options and, with writeBack,
// writes the final condition lists back into the document (§5.13). It
// fails where the reference's cleanup does: on a null inside a final
// condition (cleanConditions), and on variability inputs that are a number
// or a boolean, whose emptiness the reference cannot check.
//
// Graph #3 is not rebuilt but derived from graph #2 (graph.AfterCleanup),
// which also drops what the removal of variability groups takes away. So
// the written lists are read only where the document is read again: a
// graph built anew from it (enumerate's variants), the positions of
// --explain, or a value of the output that is also an element's map
// through an alias. Without these, the output cannot show them (it drops
// every emitted element's conditions, §12), and the caller passes
// writeBack false: on a large template the lists are a tenth of the
// memory of enrichment.
func Cleanup(g *graph.Graph, writeBack bool) error {
	if err := cleanConditions(g); err != nil {
		return err
	}
	return cleanup(g, writeBack)
}

// cleanup is Cleanup after the walk over the final conditions.
func cleanup(g *graph.Graph, writeBack bool) error {
	elements := g.Elements
	if !writeBack && g.AnyKeys()&cleanedSet == 0 {
		elements = nil // no element has a key to clean
	}
	for _, e := range elements {
		if !writeBack && e.Keys&cleanedSet == 0 {
			continue
		}
		if !e.Raw.IsMap() {
			continue
		}
		cleanKeys(e.Raw.Map())
		e.Keys &^= cleanedSet
		if !writeBack {
			continue
		}
		// A list that already holds the final conditions stays: the
		// reference assigns a fresh array, which reads the same.
		if cur := e.Raw.Map().Get("conditions"); !cur.IsList() || !slices.Equal(cur.List(), e.Conditions) {
			e.Raw.Map().Set("conditions", list(e.Conditions...))
		}
	}
	topo := g.Topology()
	if !topo.IsMap() {
		return nil
	}
	if topo.Has("groups") && !topo.Get("groups").IsNull() {
		m := yamlsrc.NewMap()
		for _, gr := range g.Groups {
			if !gr.Variability {
				m.Map().Set(gr.Name, gr.Raw)
			}
		}
		if m.Map().Len() == 0 {
			topo.Map().Delete("groups")
		} else {
			topo.Map().Set("groups", m)
		}
	}
	vb := topo.Get("variability")
	if !vb.IsMap() {
		return nil
	}
	vb.Map().Delete("qualities")
	vb.Map().Delete("type_specific_conditions")
	if in := vb.Get("inputs"); !in.IsNull() {
		empty, ok := graph.JSIsEmpty(in)
		if !ok {
			return diag.AtRef(diag.Pos{File: g.File, Line: int(in.Line), Col: int(in.Col)}, diag.StageEnrich,
				"expected variability inputs as a map, found "+graph.Describe(in), graph.MsgCannotCheckEmpty(in))
		}
		if empty {
			vb.Map().Delete("inputs")
		}
	}
	vb.Map().Delete("plugins")
	if opts := vb.Get("options"); opts.IsMap() {
		for _, k := range cleanedOptions {
			opts.Map().Delete(k)
		}
	}
	if graph.IsEmpty(vb.Get("options")) {
		vb.Map().Delete("options")
	}
	if graph.IsEmpty(vb) {
		topo.Map().Delete("variability")
	}
	return nil
}
