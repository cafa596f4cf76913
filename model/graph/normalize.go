package graph

import (
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec variability.md §3.2 (normalisation). The normaliser rewrites the
// document in place; running it again on a normalised document changes
// nothing.

// ArtifactDefaultType is the type given to artifacts without one.
const ArtifactDefaultType = "tosca.artifacts.File"

// typeRoots are the derived_from values appended to user types; note the
// reference's misspelt relationship root.
var typeRoots = []struct{ key, root string }{
	{"artifact_types", "tosca.artifacts.Root"},
	{"capability_types", "tosca.capabilities.Root"},
	{"data_types", "tosca.datatypes.Root"},
	{"group_types", "tosca.groups.Root"},
	{"interface_types", "tosca.interfaces.Root"},
	{"node_types", "tosca.nodes.Root"},
	{"policy_types", "tosca.policies.Root"},
	// Quirk: relationship root typo (variability.md §17.8).
	{"relationship_types", "tosca.relationship.Root"},
}

type normalizer struct {
	doc  *Value
	file string
}

func (n *normalizer) errAt(v *Value, msg string) error {
	p := diag.Pos{File: n.file}
	if v != nil {
		p.Line, p.Col = int(v.Line), int(v.Col)
	}
	return diag.At(p, diag.StageLoad, msg)
}

// entry returns the single entry of a list item map.
func entry(file string, item *Value) (string, *Value, error) {
	if !item.IsMap() || item.Map.Len() == 0 {
		p := diag.Pos{File: file}
		if item != nil {
			p.Line, p.Col = int(item.Line), int(item.Col)
		}
		return "", nil, diag.At(p, diag.StageLoad, "expected a map with one entry, found "+describe(item))
	}
	return item.Map.Key(0), item.Map.Val(0), nil
}

func describe(v *Value) string {
	if v == nil {
		return "nothing"
	}
	switch v.Kind {
	case yamlsrc.KindNull:
		return "null"
	case yamlsrc.KindMap:
		if v.Map.Len() == 0 {
			return "an empty map"
		}
		return "a map"
	case yamlsrc.KindList:
		return "a list"
	case yamlsrc.KindString:
		return "a string"
	case yamlsrc.KindNumber:
		return "a number"
	case yamlsrc.KindBool:
		return "a boolean"
	}
	return "a date"
}

// toEntryList converts a map of variability points into a list of
// single-entry maps; a list stays.
func (n *normalizer) toEntryList(v *Value, what string) (*Value, error) {
	if v.IsList() {
		return v, nil
	}
	if !v.IsMap() {
		return nil, n.errAt(v, "expected "+what+" as a map or a list, found "+describe(v))
	}
	list := make([]*Value, v.Map.Len())
	for i, k := range v.Map.Keys() {
		list[i] = yamlsrc.MapOf(k, v.Map.Val(i))
		list[i].Line, list[i].Col = v.Map.Val(i).Line, v.Map.Val(i).Col
	}
	out := yamlsrc.NewList(list...)
	out.Line, out.Col = v.Line, v.Col
	return out, nil
}

func normalize(doc *Value, file string) error {
	n := &normalizer{doc: doc, file: file}
	topo := doc.Get("topology_template")

	// Imports.
	if imps := doc.Get("imports"); !imps.IsNull() {
		if !imps.IsList() {
			return n.errAt(imps, "expected imports as a list, found "+describe(imps))
		}
		for i, it := range imps.List {
			if it != nil && it.Kind == yamlsrc.KindString {
				m := yamlsrc.MapOf("file", it)
				m.Line, m.Col = it.Line, it.Col
				imps.List[i] = m
			}
		}
	}
	if topo.IsMap() {
		for _, key := range []string{"inputs", "node_templates", "outputs"} {
			v := topo.Get(key)
			if v.IsNull() {
				continue
			}
			list, err := n.toEntryList(v, key)
			if err != nil {
				return err
			}
			topo.Map.Set(key, list)
			if key == "node_templates" {
				for _, item := range list.List {
					if err := n.node(item); err != nil {
						return err
					}
				}
			}
		}
		// Policies.
		if pols := topo.Get("policies"); !pols.IsNull() {
			if !pols.IsList() {
				return n.errAt(pols, "Policies must be an array")
			}
			for _, item := range pols.List {
				_, tmpl, err := entry(file, item)
				if err != nil {
					return err
				}
				if err := n.typesAndProperties(tmpl, item); err != nil {
					return err
				}
			}
		}
		// Groups.
		if grps := topo.Get("groups"); !grps.IsNull() {
			list, err := n.toEntryList(grps, "groups")
			if err != nil {
				return err
			}
			topo.Map.Set("groups", list)
			for _, item := range list.List {
				_, tmpl, err := entry(file, item)
				if err != nil {
					return err
				}
				if err := n.typesAndProperties(tmpl, item); err != nil {
					return err
				}
			}
		}
		// Relationship templates.
		if rts := topo.Get("relationship_templates"); rts.IsMap() {
			for i := 0; i < rts.Map.Len(); i++ {
				if err := n.typesAndProperties(rts.Map.Val(i), rts); err != nil {
					return err
				}
			}
		}
		// Technology rules.
		if err := n.rules(topo.Get("variability")); err != nil {
			return err
		}
	}
	// Type maps.
	for _, tr := range typeRoots {
		types := doc.Get(tr.key)
		if !types.IsMap() {
			continue
		}
		for i := 0; i < types.Map.Len(); i++ {
			t := types.Map.Val(i)
			if t.IsMap() && t.Get("derived_from").IsNull() {
				t.Map.Set("derived_from", yamlsrc.NewString(tr.root))
			}
		}
	}
	// Clean the variability definition.
	if topo.IsMap() {
		if vb := topo.Get("variability"); vb != nil {
			if opts := vb.Get("options"); opts.IsMap() {
				opts.Map.Delete("technology_required")
			}
			if isEmpty(vb.Get("options")) {
				vb.Map.Delete("options")
			}
			if isEmpty(vb) {
				topo.Map.Delete("variability")
			}
		}
	}
	return nil
}

// isEmpty is the reference's utils.isEmpty: undefined/null, empty list,
// empty string, or a map without keys.
func isEmpty(v *Value) bool {
	if v.IsNull() {
		return true
	}
	switch v.Kind {
	case yamlsrc.KindList:
		return len(v.List) == 0
	case yamlsrc.KindString:
		return v.Str == ""
	case yamlsrc.KindMap:
		return v.Map.Len() == 0
	}
	return false
}

// IsEmpty exposes the reference's emptiness test.
func IsEmpty(v *Value) bool { return isEmpty(v) }

func (n *normalizer) node(item *Value) error {
	_, tmpl, err := entry(n.file, item)
	if err != nil {
		return err
	}
	if !tmpl.IsMap() {
		return n.errAt(item, "expected a node template map, found "+describe(tmpl))
	}
	if err := n.types(tmpl, item); err != nil {
		return err
	}
	if err := n.properties(tmpl); err != nil {
		return err
	}
	// Requirements.
	if reqs := tmpl.Get("requirements"); !reqs.IsNull() {
		if !reqs.IsList() {
			return n.errAt(reqs, "expected requirements as a list, found "+describe(reqs))
		}
		for _, r := range reqs.List {
			name, a, err := entry(n.file, r)
			if err != nil {
				return err
			}
			if a != nil && a.Kind == yamlsrc.KindString {
				m := yamlsrc.MapOf("node", a)
				m.Line, m.Col = a.Line, a.Col
				r.Map.Set(name, m)
			}
		}
	}
	// Artifacts.
	if arts := tmpl.Get("artifacts"); !arts.IsNull() {
		list, err := n.toEntryList(arts, "artifacts")
		if err != nil {
			return err
		}
		tmpl.Map.Set("artifacts", list)
		for _, it := range list.List {
			name, a, err := entry(n.file, it)
			if err != nil {
				return err
			}
			switch {
			case a.IsMap():
				if a.Get("type").IsNull() {
					a.Map.Set("type", yamlsrc.NewString(ArtifactDefaultType))
				}
			case a != nil && a.Kind == yamlsrc.KindString:
				m := yamlsrc.MapOf("file", a, "type", yamlsrc.NewString(ArtifactDefaultType))
				m.Line, m.Col = a.Line, a.Col
				it.Map.Set(name, m)
				a = m
			default:
				return n.errAt(it, "expected an artifact as a map or a string, found "+describe(a))
			}
			if err := n.properties(a); err != nil {
				return err
			}
			if err := n.types(a, it); err != nil {
				return err
			}
		}
	}
	// Technologies.
	tech := tmpl.Get("technology")
	switch {
	case tech.IsNull():
		tech = yamlsrc.NewList()
		tmpl.Map.Set("technology", tech)
	case tech.Kind == yamlsrc.KindString:
		tech = yamlsrc.NewList(yamlsrc.MapOf(tech.Str, yamlsrc.NewMap()))
		tmpl.Map.Set("technology", tech)
	case !tech.IsList():
		return n.errAt(tech, "Element \""+JSONOf(tech)+"\" is not an array")
	}
	types := tmpl.Get("type")
	for i, it := range tech.List {
		name, def, err := entry(n.file, it)
		if err != nil {
			return err
		}
		lower := strings.ToLower(name)
		if lower != name {
			m := yamlsrc.MapOf(lower, def)
			m.Line, m.Col = it.Line, it.Col
			tech.List[i] = m
		}
		if !def.IsMap() {
			return n.errAt(it, "expected a technology map, found "+describe(def))
		}
		if def.Get("assign").IsNull() {
			t0 := ""
			if types.IsList() && len(types.List) > 0 && types.List[0].IsMap() && types.List[0].Map.Len() > 0 {
				t0 = types.List[0].Map.Key(0)
			}
			def.Map.Set("assign", yamlsrc.NewString(t0+"~"+t0+"::"+lower))
		}
	}
	return nil
}

func (n *normalizer) typesAndProperties(tmpl, at *Value) error {
	if !tmpl.IsMap() {
		return n.errAt(at, "expected a map, found "+describe(tmpl))
	}
	if err := n.types(tmpl, at); err != nil {
		return err
	}
	return n.properties(tmpl)
}

// types normalises "type" into a list of single-entry maps.
func (n *normalizer) types(tmpl, at *Value) error {
	t := tmpl.Get("type")
	if t.IsNull() {
		return n.errAt(at, "Unexpected error")
	}
	if t.IsList() {
		return nil
	}
	if t.Kind == yamlsrc.KindString {
		m := yamlsrc.MapOf(t.Str, yamlsrc.NewMap())
		m.Line, m.Col = t.Line, t.Col
		l := yamlsrc.NewList(m)
		l.Line, l.Col = t.Line, t.Col
		tmpl.Map.Set("type", l)
	}
	return nil
}

// properties normalises property assignments into a list of wrapped
// assignments (§3.2).
func (n *normalizer) properties(tmpl *Value) error {
	props := tmpl.Get("properties")
	if props.IsNull() {
		return nil
	}
	if !props.IsList() {
		if !props.IsMap() {
			return n.errAt(props, "expected properties as a map or a list, found "+describe(props))
		}
		list := make([]*Value, props.Map.Len())
		for i, k := range props.Map.Keys() {
			v := props.Map.Val(i)
			wrapped := yamlsrc.MapOf("value", v)
			if v != nil {
				wrapped.Line, wrapped.Col = v.Line, v.Col
			}
			list[i] = yamlsrc.MapOf(k, wrapped)
			list[i].Line, list[i].Col = wrapped.Line, wrapped.Col
		}
		props = yamlsrc.NewList(list...)
		tmpl.Map.Set("properties", props)
	}
	for _, it := range props.List {
		name, a, err := entry(n.file, it)
		if err != nil {
			return err
		}
		if a == nil || a.Kind == yamlsrc.KindNull {
			return n.errAt(it, "Cannot read properties of null (reading 'value')")
		}
		wrap := false
		switch a.Kind {
		case yamlsrc.KindString, yamlsrc.KindNumber, yamlsrc.KindBool, yamlsrc.KindList:
			wrap = true
		default:
			// Maps and dates: wrap unless value or expression is defined.
			wrap = a.Get("value").IsNull() && a.Get("expression").IsNull()
		}
		if wrap {
			m := yamlsrc.MapOf("value", a)
			m.Line, m.Col = a.Line, a.Col
			it.Map.Set(name, m)
		}
	}
	return nil
}

// rules validates technology rules (variability.qualities).
func (n *normalizer) rules(vb *Value) error {
	rules := vb.Get("qualities")
	if rules.IsNull() {
		return nil
	}
	if !rules.IsList() && !rules.IsMap() {
		return n.errAt(rules, "Rules not loaded")
	}
	if !rules.IsList() {
		return nil
	}
	for _, rule := range rules.List {
		if !rule.IsMap() {
			return n.errAt(rule, "expected a technology rule map, found "+describe(rule))
		}
		if c := rule.Get("component"); c == nil || c.Kind != yamlsrc.KindString {
			return n.errAt(rule, "Element \""+JSONOf(c)+"\" is not a string")
		}
		h := rule.Get("hosting")
		if h.IsNull() {
			h = yamlsrc.NewList()
			rule.Map.Set("hosting", h)
		}
		if !h.IsList() {
			return n.errAt(h, "Element \""+JSONOf(h)+"\" is not an array")
		}
		for _, x := range h.List {
			if x == nil || x.Kind != yamlsrc.KindString {
				return n.errAt(h, "Element \""+JSONOf(x)+"\" is not a string")
			}
		}
		if c := rule.Get("conditions"); !c.IsNull() && !c.IsMap() && !c.IsList() {
			return n.errAt(c, "Element \""+JSONOf(c)+"\" is not an object")
		}
		if w := rule.Get("weight"); !w.IsNull() && w.Kind != yamlsrc.KindNumber {
			return n.errAt(w, "Element \""+JSONOf(w)+"\" is not a number")
		}
		if a := rule.Get("assign"); !a.IsNull() && a.Kind != yamlsrc.KindString {
			return n.errAt(a, "Element \""+JSONOf(a)+"\" is not a string")
		}
	}
	return nil
}
