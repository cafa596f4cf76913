package resolve

import (
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Spec variability.md §12 (output transformation): the present elements are
// written back into the document as plain tosca_simple_yaml_1_3.

// cleanKeys are removed from every emitted entity.
var cleanKeys = []string{"conditions", "weight", "implies", "technology", "managed", "persistent"}

func clean(raw *yamlsrc.Value) {
	if !raw.IsMap() {
		return
	}
	raw.Map().DeleteAll(cleanKeys)
}

// transformer holds the graph being written back and the document's
// topology_template (nil where it is not a map).
type transformer struct {
	g    *graph.Graph
	topo *yamlsrc.Value
}

func (t *transformer) fail(e *graph.Element, msg string) error {
	return diag.At(e.Pos(), diag.StageTransform, msg)
}

// transform builds the output document. topology is the template's
// topology_template where it is a list or a date (the loader replaced it by
// an empty map, loaded.topology), else nil.
//
// The steps run in the reference's order: inputs (before any properties
// are written: consumers get {get_input: <name>}), node templates,
// relationship templates, groups, policies, outputs, imports, the
// topology template itself, and the loaded types.
func transform(g *graph.Graph, topology *yamlsrc.Value) error {
	t := &transformer{g: g}
	doc := g.Doc
	t.topo = doc.Get("topology_template")
	if !t.topo.IsMap() {
		t.topo = nil
	}
	if t.topo != nil {
		for _, step := range []func() error{t.inputs, t.nodes, t.relationships, t.groups, t.policies, t.outputs} {
			if err := step(); err != nil {
				return err
			}
		}
	}
	t.imports()
	doc.Map().Set("tosca_definitions_version", yamlsrc.NewString("tosca_simple_yaml_1_3"))
	t.topology(topology)
	t.loadedTypes()
	return nil
}

// setOrDelete sets key of the topology template to v, or deletes it where v
// is empty.
func (t *transformer) setOrDelete(key string, v *yamlsrc.Value) {
	if graph.IsEmpty(v) {
		t.topo.Map().Delete(key)
	} else {
		t.topo.Map().Set(key, v)
	}
}

// setOrDrop sets key of the map raw to v, or deletes it where v is nil.
func setOrDrop(raw *yamlsrc.Value, key string, v *yamlsrc.Value) {
	if v == nil {
		raw.Map().Delete(key)
	} else {
		raw.Map().Set(key, v)
	}
}

// setListOrDrop sets key of the map raw to the list of items, or deletes
// it where there are none.
func setListOrDrop(raw *yamlsrc.Value, key string, items []*yamlsrc.Value) {
	if len(items) == 0 {
		raw.Map().Delete(key)
	} else {
		raw.Map().Set(key, yamlsrc.NewList(items...))
	}
}

// cleanShrunk cleans raw and returns it, or, where key is its only key,
// the value of key: an assignment that names nothing else shrinks to the
// name.
func cleanShrunk(raw *yamlsrc.Value, key string) *yamlsrc.Value {
	clean(raw)
	if raw.IsMap() && raw.Map().Len() == 1 && raw.Map().Key(0) == key {
		return raw.Map().Val(0)
	}
	return raw
}

// inputs keeps the present inputs and points their consumers at them with
// {get_input: <name>}.
func (t *transformer) inputs() error {
	return t.keepPresent("inputs", t.g.Inputs, false, func(in *graph.Element, _ *yamlsrc.Value) error {
		for _, c := range in.Consumers {
			c.Value = yamlsrc.MapOf("get_input", yamlsrc.NewString(in.Name))
		}
		return nil
	})
}

// keepPresent replaces the map at key of the topology template, where it
// has one, by the map of the present elements of list, in order: keep (if
// not nil) transforms the raw entry of each, which is then cleaned. Without
// any present element the key goes. unique says that no two elements of
// list have the same name (the graph rejects two node templates or groups
// of one name), so that each is added without a lookup.
func (t *transformer) keepPresent(key string, list []*graph.Element, unique bool, keep func(e *graph.Element, raw *yamlsrc.Value) error) error {
	if t.topo.Get(key).IsNull() {
		return nil
	}
	n := 0
	for _, e := range list {
		if e.Present {
			n++
		}
	}
	m := yamlsrc.NewMapSize(n)
	for _, e := range list {
		if !e.Present {
			continue
		}
		if keep != nil {
			if err := keep(e, e.Raw); err != nil {
				return err
			}
		}
		clean(e.Raw)
		if unique {
			m.Map().SetNew(e.Name, e.Raw)
		} else {
			m.Map().Set(e.Name, e.Raw)
		}
	}
	t.setOrDelete(key, m)
	return nil
}

// typeAndProperties sets the type and the properties of an element.
func (t *transformer) typeAndProperties(e *graph.Element, raw *yamlsrc.Value) error {
	if err := t.typ(e, raw); err != nil {
		return err
	}
	return t.properties(e, raw)
}

// nodes keeps the present node templates, each with its type, properties,
// requirements and artifacts.
func (t *transformer) nodes() error {
	return t.keepPresent("node_templates", t.g.Nodes, true, func(n *graph.Element, raw *yamlsrc.Value) error {
		if err := t.nodeType(n, raw); err != nil {
			return err
		}
		if err := t.properties(n, raw); err != nil {
			return err
		}
		t.requirements(n, raw)
		return t.artifacts(n, raw)
	})
}

// nodeType sets the type of a node template: its first present type, or,
// where it has technologies, the type its first present technology assigns.
func (t *transformer) nodeType(n *graph.Element, raw *yamlsrc.Value) error {
	if err := t.typ(n, raw); err != nil {
		return err
	}
	if len(n.Technologies) == 0 {
		return nil
	}
	var tech *graph.Element
	for _, x := range n.Technologies {
		if x.Present {
			tech = x
			break
		}
	}
	if tech == nil {
		return t.fail(n, msgNoPresentTechnology(n))
	}
	raw.Map().Set("type", yamlsrc.NewString(tech.Assign))
	return nil
}

// requirements rebuilds "requirements" of a node template from its present
// outgoing relations; an assignment that only names the node shrinks to
// the node's name.
func (t *transformer) requirements(n *graph.Element, raw *yamlsrc.Value) {
	if t.g.Lean && requirementsInPlace(n, raw) {
		return
	}
	var reqs []*yamlsrc.Value
	for _, r := range n.Outgoing {
		if !r.Present {
			continue
		}
		reqs = append(reqs, yamlsrc.MapOf(r.Name, cleanShrunk(r.Raw, "node")))
	}
	setListOrDrop(raw, "requirements", reqs)
}

// requirementsInPlace is requirements for a lean build, whose document
// shares no value: the present relations' entries of the template's own
// list are rewritten and kept, rather than copied into new maps and a new
// list (a map per relation). It reports false, having changed nothing,
// where the list is not the relations' own entries, one each, in order.
func requirementsInPlace(n *graph.Element, raw *yamlsrc.Value) bool {
	list := raw.Get("requirements")
	if !list.IsList() || len(list.List()) != len(n.Outgoing) {
		return false
	}
	for i, r := range n.Outgoing {
		if e := r.Entry; list.List()[i] != e || !e.IsMap() || e.Map().Len() != 1 || e.Map().Key(0) != r.Name {
			return false
		}
	}
	kept := list.List()[:0]
	for _, r := range n.Outgoing {
		if r.Present {
			r.Entry.Map().Set(r.Name, cleanShrunk(r.Raw, "node"))
			kept = append(kept, r.Entry)
		}
	}
	clear(list.List()[len(kept):])
	list.SetList(kept)
	if len(kept) == 0 {
		raw.Map().Delete("requirements")
	}
	return true
}

// artifacts rebuilds "artifacts" of a node template from its present
// artifacts, each with its type and properties.
func (t *transformer) artifacts(n *graph.Element, raw *yamlsrc.Value) error {
	var arts *yamlsrc.Value // made for the first present artifact, with room for all
	for i, a := range n.Artifacts {
		if !a.Present {
			continue
		}
		clean(a.Raw)
		if err := t.typeAndProperties(a, a.Raw); err != nil {
			return err
		}
		if arts == nil {
			k := 0
			for _, b := range n.Artifacts[i:] {
				if b.Present {
					k++
				}
			}
			arts = yamlsrc.NewMapSize(k)
		}
		arts.Map().Set(a.Name, a.Raw)
	}
	setOrDrop(raw, "artifacts", arts)
	return nil
}

// relationships deletes the relationship templates of absent relations and
// sets type and properties of the present ones.
func (t *transformer) relationships() error {
	rts := t.topo.Get("relationship_templates")
	if rts.IsNull() {
		return nil
	}
	for _, r := range t.g.Relations {
		if r.Relationship == nil {
			continue
		}
		if !r.Present {
			if rts.IsMap() {
				rts.Map().Delete(r.Relationship.Name)
			}
			continue
		}
		if err := t.typeAndProperties(r, r.Relationship.Raw); err != nil {
			return err
		}
	}
	if graph.IsEmpty(rts) {
		t.topo.Map().Delete("relationship_templates")
	}
	return nil
}

// groups keeps the present groups, each with its present members, type and
// properties.
func (t *transformer) groups() error {
	return t.keepPresent("groups", t.g.Groups, true, func(gr *graph.Element, raw *yamlsrc.Value) error {
		if err := t.members(raw); err != nil {
			return err
		}
		return t.typeAndProperties(gr, raw)
	})
}

// members keeps the members of a group that are present: a string names a
// node template, anything else a relation.
func (t *transformer) members(raw *yamlsrc.Value) error {
	var members []*yamlsrc.Value
	for _, it := range raw.Get("members").List() {
		var el *graph.Element
		var err error
		if it.IsString() {
			el, err = t.g.GetNode(it, graph.Context{})
		} else {
			el, err = t.g.GetRelation(it, graph.Context{})
		}
		if err != nil {
			return err
		}
		if el.Present {
			members = append(members, it)
		}
	}
	raw.Map().Set("members", yamlsrc.NewList(members...))
	return nil
}

// policies keeps the present policies, each with its type, properties and
// present targets.
func (t *transformer) policies() error {
	if t.topo.Get("policies").IsNull() {
		return nil
	}
	var list []*yamlsrc.Value
	for _, p := range t.g.Policies {
		if !p.Present {
			continue
		}
		raw := p.Raw
		clean(raw)
		if err := t.typeAndProperties(p, raw); err != nil {
			return err
		}
		if err := t.targets(p, raw); err != nil {
			return err
		}
		list = append(list, yamlsrc.MapOf(p.Name, raw))
	}
	setListOrDrop(t.topo, "policies", list)
	return nil
}

// targets keeps the targets of a policy that name a present node template
// or group.
func (t *transformer) targets(p *graph.Element, raw *yamlsrc.Value) error {
	targets := raw.Get("targets")
	if targets.IsNull() {
		// The reference sets targets to targets?.filter(...),
		// undefined, which its writer leaves out.
		raw.Map().Delete("targets")
		return nil
	}
	if !targets.IsList() {
		return nil
	}
	var kept []*yamlsrc.Value
	for _, target := range targets.List() {
		name := yamlsrc.String(target)
		if n := t.g.NodeByName(name); n != nil {
			if n.Present {
				kept = append(kept, target)
			}
			continue
		}
		if gr := t.g.GroupByName(name); gr != nil {
			if gr.Present {
				kept = append(kept, target)
			}
			continue
		}
		return t.fail(p, msgPolicyTargetNotNodeOrGroup(name, p))
	}
	raw.Map().Set("targets", yamlsrc.NewList(kept...))
	return nil
}

// outputs keeps the present outputs.
func (t *transformer) outputs() error { return t.keepPresent("outputs", t.g.Outputs, false, nil) }

// imports keeps the present imports; one that only names a file shrinks to
// the file.
func (t *transformer) imports() {
	doc := t.g.Doc
	if doc.Get("imports").IsNull() {
		return
	}
	var list []*yamlsrc.Value
	for _, imp := range t.g.Imports {
		if !imp.Present {
			continue
		}
		list = append(list, cleanShrunk(imp.Raw, "file"))
	}
	setListOrDrop(doc, "imports", list)
}

// topology drops the variability definition and an empty topology
// template. The reference deletes an empty topology template, which a null
// one is (it reads topology_template || {}); a non-empty list stands for
// itself (loaded.topology).
func (t *transformer) topology(topology *yamlsrc.Value) {
	doc := t.g.Doc
	if t.topo != nil {
		t.topo.Map().Delete("variability")
	}
	if t.topo != nil && !graph.IsEmpty(t.topo) {
		return
	}
	if topology.IsList() && len(topology.List()) > 0 {
		doc.Map().Set("topology_template", topology)
	} else {
		doc.Map().Delete("topology_template")
	}
}

// loadedTypes drops the types that imports loaded (marked _loaded) from the
// type maps, and the type maps left empty. It stops at the first type map
// the document lacks.
func (t *transformer) loadedTypes() {
	doc := t.g.Doc
	for _, key := range tosca.TypeMaps() {
		types := doc.Get(key)
		if types.IsNull() {
			break
		}
		if types.IsMap() {
			dropLoaded(types)
		}
		if graph.IsEmpty(types) {
			doc.Map().Delete(key)
		}
	}
}

// dropLoaded rebuilds the type map types without its _loaded types, keeping
// the order of the others.
func dropLoaded(types *yamlsrc.Value) {
	var drop []string
	for i, name := range types.Map().Keys() {
		if types.Map().Val(i).Get("_loaded").Truthy() {
			drop = append(drop, name)
		}
	}
	if len(drop) == 0 {
		return
	}
	rebuilt := yamlsrc.NewMap()
	dropped := make(map[string]bool, len(drop))
	for _, d := range drop {
		dropped[d] = true
	}
	for i, name := range types.Map().Keys() {
		if !dropped[name] {
			rebuilt.Map().Set(name, types.Map().Val(i))
		}
	}
	types.SetMap(rebuilt.Map())
}

// typ sets "type" to the first present type (§12).
func (t *transformer) typ(e *graph.Element, raw *yamlsrc.Value) error {
	for _, ty := range e.Types {
		if ty.Present {
			// A lean build leaves `type: name` as it is.
			if cur := raw.Get("type"); !cur.IsString() || cur.Str() != ty.Name {
				raw.Map().Set("type", yamlsrc.NewString(ty.Name))
			}
			return nil
		}
	}
	return t.fail(e, msgNoPresentType(e))
}

// properties rebuilds "properties" from the present properties.
func (t *transformer) properties(e *graph.Element, raw *yamlsrc.Value) error {
	if !raw.IsMap() {
		return nil
	}
	// The map is made for the first present property (most templates of
	// a large topology have none), with room for them all: grown one
	// property at a time, it was a sixth of a batch run's allocations on
	// the pruning family.
	var m *yamlsrc.Value
	kept := func(p *graph.Element) bool {
		return p.Present && !(p.Value.IsString() && p.Value.Str() == graph.VintnerUndefined)
	}
	for i, p := range e.Properties {
		if !kept(p) {
			continue
		}
		if p.Value == nil {
			return t.fail(p, msgHasNoValue(p))
		}
		if m == nil {
			n := 0
			for _, q := range e.Properties[i:] {
				if kept(q) {
					n++
				}
			}
			m = yamlsrc.NewMapSize(n)
		}
		m.Map().Set(p.Name, p.Value)
	}
	setOrDrop(raw, "properties", m)
	return nil
}
