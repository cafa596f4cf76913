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
	for _, k := range cleanKeys {
		raw.Map.Delete(k)
	}
}

type transformer struct {
	g *graph.Graph
}

func (t *transformer) fail(e *graph.Element, msg string) error {
	return diag.At(e.Pos(), diag.StageTransform, msg)
}

// transform builds the output document. topology is the template's
// topology_template where it is a list or a date (the loader replaced it by
// an empty map, loaded.topology), else nil.
func transform(g *graph.Graph, topology *yamlsrc.Value) error {
	t := &transformer{g: g}
	doc := g.Doc
	topo := doc.Get("topology_template")
	if !topo.IsMap() {
		topo = nil
	}
	setOrDelete := func(key string, v *yamlsrc.Value) {
		if graph.IsEmpty(v) {
			topo.Map.Delete(key)
		} else {
			topo.Map.Set(key, v)
		}
	}
	if topo != nil {
		// Inputs (before any properties are written: consumers get
		// {get_input: <name>}).
		if !topo.Get("inputs").IsNull() {
			m := yamlsrc.NewMap()
			for _, in := range g.Inputs {
				if !in.Present {
					continue
				}
				clean(in.Raw)
				m.Map.Set(in.Name, in.Raw)
				for _, c := range in.Consumers {
					c.Value = yamlsrc.MapOf("get_input", yamlsrc.NewString(in.Name))
				}
			}
			setOrDelete("inputs", m)
		}
		// Nodes.
		if !topo.Get("node_templates").IsNull() {
			m := yamlsrc.NewMap()
			for _, n := range g.Nodes {
				if !n.Present {
					continue
				}
				raw := n.Raw
				if err := t.typ(n, raw); err != nil {
					return err
				}
				if len(n.Technologies) > 0 {
					var tech *graph.Element
					for _, x := range n.Technologies {
						if x.Present {
							tech = x
							break
						}
					}
					if tech == nil {
						return t.fail(n, n.DisplayUpper()+" has no present technology")
					}
					raw.Map.Set("type", yamlsrc.NewString(tech.Assign))
				}
				if err := t.properties(n, raw); err != nil {
					return err
				}
				var reqs []*yamlsrc.Value
				for _, r := range n.Outgoing {
					if !r.Present {
						continue
					}
					a := r.Raw
					clean(a)
					if a.IsMap() && a.Map.Len() == 1 && a.Map.Key(0) == "node" {
						a = a.Map.Val(0)
					}
					reqs = append(reqs, yamlsrc.MapOf(r.Name, a))
				}
				if len(reqs) == 0 {
					raw.Map.Delete("requirements")
				} else {
					raw.Map.Set("requirements", yamlsrc.NewList(reqs...))
				}
				arts := yamlsrc.NewMap()
				for _, a := range n.Artifacts {
					if !a.Present {
						continue
					}
					clean(a.Raw)
					if err := t.typ(a, a.Raw); err != nil {
						return err
					}
					if err := t.properties(a, a.Raw); err != nil {
						return err
					}
					arts.Map.Set(a.Name, a.Raw)
				}
				if arts.Map.Len() == 0 {
					raw.Map.Delete("artifacts")
				} else {
					raw.Map.Set("artifacts", arts)
				}
				clean(raw)
				m.Map.Set(n.Name, raw)
			}
			setOrDelete("node_templates", m)
		}
		// Relationship templates.
		if rts := topo.Get("relationship_templates"); !rts.IsNull() {
			for _, r := range g.Relations {
				if r.Relationship == nil {
					continue
				}
				if !r.Present {
					if rts.IsMap() {
						rts.Map.Delete(r.Relationship.Name)
					}
					continue
				}
				if err := t.typ(r, r.Relationship.Raw); err != nil {
					return err
				}
				if err := t.properties(r, r.Relationship.Raw); err != nil {
					return err
				}
			}
			if graph.IsEmpty(rts) {
				topo.Map.Delete("relationship_templates")
			}
		}
		// Groups.
		if !topo.Get("groups").IsNull() {
			m := yamlsrc.NewMap()
			for _, gr := range g.Groups {
				if !gr.Present {
					continue
				}
				raw := gr.Raw
				var members []*yamlsrc.Value
				for _, it := range raw.Get("members").List {
					var el *graph.Element
					var err error
					if it.IsString() {
						el, err = g.GetNode(it, graph.Context{})
					} else {
						el, err = g.GetRelation(it, graph.Context{})
					}
					if err != nil {
						return err
					}
					if el.Present {
						members = append(members, it)
					}
				}
				raw.Map.Set("members", yamlsrc.NewList(members...))
				if err := t.typ(gr, raw); err != nil {
					return err
				}
				if err := t.properties(gr, raw); err != nil {
					return err
				}
				clean(raw)
				m.Map.Set(gr.Name, raw)
			}
			setOrDelete("groups", m)
		}
		// Policies.
		if !topo.Get("policies").IsNull() {
			var list []*yamlsrc.Value
			for _, p := range g.Policies {
				if !p.Present {
					continue
				}
				raw := p.Raw
				clean(raw)
				if err := t.typ(p, raw); err != nil {
					return err
				}
				if err := t.properties(p, raw); err != nil {
					return err
				}
				if targets := raw.Get("targets"); targets.IsList() {
					var kept []*yamlsrc.Value
					for _, target := range targets.List {
						name := graph.JSString(target)
						if n := g.NodeByName(name); n != nil {
							if n.Present {
								kept = append(kept, target)
							}
							continue
						}
						if gr := g.GroupByName(name); gr != nil {
							if gr.Present {
								kept = append(kept, target)
							}
							continue
						}
						return t.fail(p, `Policy target "`+name+`" of "`+p.Display()+`" is neither a node template nor a group template`)
					}
					raw.Map.Set("targets", yamlsrc.NewList(kept...))
				} else if targets.IsNull() {
					// The reference sets targets to targets?.filter(...),
					// undefined, which its writer leaves out.
					raw.Map.Delete("targets")
				}
				list = append(list, yamlsrc.MapOf(p.Name, raw))
			}
			if len(list) == 0 {
				topo.Map.Delete("policies")
			} else {
				topo.Map.Set("policies", yamlsrc.NewList(list...))
			}
		}
		// Outputs.
		if !topo.Get("outputs").IsNull() {
			m := yamlsrc.NewMap()
			for _, out := range g.Outputs {
				if !out.Present {
					continue
				}
				clean(out.Raw)
				m.Map.Set(out.Name, out.Raw)
			}
			setOrDelete("outputs", m)
		}
	}
	// Imports.
	if !doc.Get("imports").IsNull() {
		var list []*yamlsrc.Value
		for _, imp := range g.Imports {
			if !imp.Present {
				continue
			}
			raw := imp.Raw
			clean(raw)
			if raw.IsMap() && raw.Map.Len() == 1 && raw.Map.Key(0) == "file" {
				raw = raw.Map.Val(0)
			}
			list = append(list, raw)
		}
		if len(list) == 0 {
			doc.Map.Delete("imports")
		} else {
			doc.Map.Set("imports", yamlsrc.NewList(list...))
		}
	}
	doc.Map.Set("tosca_definitions_version", yamlsrc.NewString("tosca_simple_yaml_1_3"))
	// The reference deletes an empty topology template, which a null
	// one is (it reads topology_template || {}); a non-empty list stands
	// for itself (loaded.topology).
	if topo != nil {
		topo.Map.Delete("variability")
	}
	if topo == nil || graph.IsEmpty(topo) {
		if topology.IsList() && len(topology.List) > 0 {
			doc.Map.Set("topology_template", topology)
		} else {
			doc.Map.Delete("topology_template")
		}
	}
	// Loaded types.
	for _, key := range tosca.TypeMaps() {
		types := doc.Get(key)
		if types.IsNull() {
			break
		}
		if types.IsMap() {
			var drop []string
			for i, name := range types.Map.Keys() {
				if types.Map.Val(i).Get("_loaded").Truthy() {
					drop = append(drop, name)
				}
			}
			if len(drop) > 0 {
				rebuilt := yamlsrc.NewMap()
				dropped := make(map[string]bool, len(drop))
				for _, d := range drop {
					dropped[d] = true
				}
				for i, name := range types.Map.Keys() {
					if !dropped[name] {
						rebuilt.Map.Set(name, types.Map.Val(i))
					}
				}
				types.Map = rebuilt.Map
			}
		}
		if graph.IsEmpty(types) {
			doc.Map.Delete(key)
		}
	}
	return nil
}

// typ sets "type" to the first present type (§12).
func (t *transformer) typ(e *graph.Element, raw *yamlsrc.Value) error {
	for _, ty := range e.Types {
		if ty.Present {
			raw.Map.Set("type", yamlsrc.NewString(ty.Name))
			return nil
		}
	}
	return t.fail(e, e.DisplayUpper()+" has no present type")
}

// properties rebuilds "properties" from the present properties.
func (t *transformer) properties(e *graph.Element, raw *yamlsrc.Value) error {
	if !raw.IsMap() {
		return nil
	}
	m := yamlsrc.NewMap()
	for _, p := range e.Properties {
		if !p.Present {
			continue
		}
		if p.Value.IsString() && p.Value.Str == graph.VintnerUndefined {
			continue
		}
		if p.Value == nil {
			return t.fail(p, p.DisplayUpper()+" has no value")
		}
		m.Map.Set(p.Name, p.Value)
	}
	if m.Map.Len() == 0 {
		raw.Map.Delete("properties")
	} else {
		raw.Map.Set("properties", m)
	}
	return nil
}
