package graph

import (
	"strings"
	"unicode/utf8"

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
	w    *warner
	// emptyType is set in a lean build (BuildOptions.Lean): the map of
	// every `type: name` of an artifact, group or policy made into
	// [{name: {}}], and the Raw of the type elements of node and
	// relationship templates, whose `type: name` stays a string.
	emptyType *Value
}

func (n *normalizer) errAt(v *Value, msg string) error {
	return diag.At(posOf(n.file, v), diag.StageLoad, msg)
}

// errRef is an error at v where the reference fails with a JavaScript
// error: msg says what is wrong, reference is the reference's message.
func (n *normalizer) errRef(v *Value, msg, reference string) error {
	return diag.AtRef(posOf(n.file, v), diag.StageLoad, msg, reference)
}

// posOf is the position of v in file (line 0 when v is nil or made by v4t).
func posOf(file string, v *Value) diag.Pos {
	p := diag.Pos{File: file}
	if v != nil {
		p.Line, p.Col = int(v.Line), int(v.Col)
	}
	return p
}

// warner collects the warnings of a graph build and passes each to a sink.
type warner struct {
	file string
	sink diag.Sink
	list diag.List
}

// at reports a warning at v.
func (w *warner) at(v *Value, msg string) {
	d := diag.Warning(posOf(w.file, v), diag.StageLoad, msg)
	w.list.Add(d)
	if w.sink != nil {
		w.sink(d)
	}
}

// entry returns the single entry of a list item map.
func entry(file string, item *Value) (string, *Value, error) {
	if !item.IsMap() || item.Map().Len() == 0 {
		p := diag.Pos{File: file}
		if item != nil {
			p.Line, p.Col = int(item.Line), int(item.Col)
		}
		return "", nil, diag.At(p, diag.StageLoad, "expected a map with one entry, found "+describe(item))
	}
	return item.Map().Key(0), item.Map().Val(0), nil
}

// Describe names the kind of a value for messages: "null", "a map", "an
// empty map", "a list", "a string", "a number", "a boolean", "a date", or
// "nothing" for a missing value. The resolver and the validator (package
// validate) both name kinds with it, so that they say the same words.
func Describe(v *Value) string { return describe(v) }

func describe(v *Value) string {
	if v == nil {
		return "nothing"
	}
	switch v.Kind {
	case yamlsrc.KindNull:
		return "null"
	case yamlsrc.KindMap:
		if v.Map().Len() == 0 {
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

// entryList replaces the value of key in the map m, which is set, by its
// list of entries (toEntryList) and returns that list.
func (n *normalizer) entryList(m *Value, key string) (*Value, error) {
	list, err := n.toEntryList(m.Get(key), key)
	if err != nil {
		return nil, err
	}
	m.Map().Set(key, list)
	return list, nil
}

// toEntryList converts a map of variability points into a list of
// single-entry maps; a list stays.
func (n *normalizer) toEntryList(v *Value, what string) (*Value, error) {
	if v.IsList() {
		return v, nil
	}
	var list []*Value
	if v.IsMap() {
		list = make([]*Value, v.Map().Len())
		for i, k := range v.Map().Keys() {
			list[i] = yamlsrc.MapOf(k, v.Map().Val(i))
			list[i].Line, list[i].Col = v.Map().Val(i).Line, v.Map().Val(i).Col
		}
	} else {
		entries, err := n.scalarEntries(v, what)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			m := yamlsrc.MapOf(e.key, e.val)
			m.Line, m.Col = v.Line, v.Col
			list = append(list, m)
		}
	}
	out := yamlsrc.NewList(list...)
	out.Line, out.Col = v.Line, v.Col
	return out, nil
}

type jsEntry struct {
	key string
	val *Value
}

// scalarEntries is the reference's Object.entries of a scalar where a map
// is expected, with a warning (README, "Malformed input"): a string gives
// one entry per character, keyed by its position; a number, a boolean or a
// date gives none.
//
// Quirk: scalar maps (variability.md §3.2).
func (n *normalizer) scalarEntries(v *Value, what string) ([]jsEntry, error) {
	found := "expected " + what + " as a map or a list, found " + describe(v)
	if v.Kind != yamlsrc.KindString {
		n.w.at(v, found+": read as no "+what+", as the reference does")
		return nil, nil
	}
	var out []jsEntry
	for _, r := range v.Str() {
		if r > 0xFFFF {
			// The reference splits it into two lone UTF-16 surrogates,
			// which v4t cannot represent.
			return nil, n.errAt(v, found+" with a character outside the Basic Multilingual Plane, which the reference splits into UTF-16 surrogates; v4t does not")
		}
		out = append(out, jsEntry{key: itoa(len(out)), val: posAt(yamlsrc.NewString(string(r)), v)})
	}
	if len(out) == 0 {
		n.w.at(v, found+": read as no "+what+", as the reference does")
	} else {
		n.w.at(v, found+": read as a map from each character's position to the character, as the reference does")
	}
	return out, nil
}

// posAt gives v the position of at and returns v.
func posAt(v, at *Value) *Value {
	v.Line, v.Col = at.Line, at.Col
	return v
}

// normalize normalises doc in place; emptyType is set for a lean build.
func normalize(doc *Value, file string, w *warner, emptyType *Value) error {
	n := &normalizer{doc: doc, file: file, w: w, emptyType: emptyType}
	topo := doc.Get("topology_template")

	// Imports.
	if imps := doc.Get("imports"); !imps.IsNull() {
		if !imps.IsList() {
			return n.errRef(imps, "expected imports as a list, found "+describe(imps),
				MsgNotAFunction("this.serviceTemplate.imports.map"))
		}
		for i, it := range imps.List() {
			if it != nil && it.Kind == yamlsrc.KindString {
				m := yamlsrc.MapOf("file", it)
				m.Line, m.Col = it.Line, it.Col
				imps.List()[i] = m
			}
		}
	}
	if topo.IsMap() {
		for _, key := range []string{"inputs", "node_templates", "outputs"} {
			v := topo.Get(key)
			if v.IsNull() {
				continue
			}
			if key == "node_templates" && n.emptyType != nil && v.IsMap() {
				// A lean build leaves the node templates a map (the
				// populator reads its entries): a list of single-entry
				// maps in its place cost a map per node, and the
				// transform writes a map again.
				for i := range v.Map().Len() {
					if err := n.nodeTemplate(v.Map().Val(i), v.Map().Val(i)); err != nil {
						return err
					}
				}
				continue
			}
			list, err := n.entryList(topo, key)
			if err != nil {
				return err
			}
			if key == "node_templates" {
				for _, item := range list.List() {
					if err := n.node(item); err != nil {
						return err
					}
				}
			}
		}
		// Policies.
		if pols := topo.Get("policies"); !pols.IsNull() {
			if !pols.IsList() {
				return n.errAt(pols, msgPoliciesNotArray)
			}
			if err := n.templates(pols.List(), "policy"); err != nil {
				return err
			}
		}
		// Groups.
		if grps := topo.Get("groups"); !grps.IsNull() {
			list, err := n.entryList(topo, "groups")
			if err != nil {
				return err
			}
			if err := n.templates(list.List(), "group"); err != nil {
				return err
			}
		}
		// Relationship templates.
		if rts := topo.Get("relationship_templates"); rts.IsMap() {
			for i := 0; i < rts.Map().Len(); i++ {
				if err := n.typesAndProperties(rts.Map().Val(i), rts, "a relationship template", n.emptyType != nil); err != nil {
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
		for i := 0; i < types.Map().Len(); i++ {
			t := types.Map().Val(i)
			if t.IsMap() && t.Get("derived_from").IsNull() {
				t.Map().Set("derived_from", yamlsrc.NewString(tr.root))
			}
		}
	}
	// Clean the variability definition.
	if topo.IsMap() {
		if vb := topo.Get("variability"); vb.IsMap() {
			opts := vb.Get("options")
			if opts.IsMap() {
				opts.Map().Delete("technology_required")
			}
			empty, ok := jsIsEmpty(opts)
			if !ok {
				return n.errRef(opts, "expected variability options as a map, found "+describe(opts), MsgCannotCheckEmpty(opts))
			}
			if opts != nil && (opts.Kind == yamlsrc.KindTime || opts.IsList() && !empty) {
				// Quirk: scalar maps (variability.md §3.2): the options
				// are read as a map without keys.
				n.w.at(opts, "expected variability options as a map, found "+describe(opts)+": read as no options, as the reference does")
			}
			if empty {
				vb.Map().Delete("options")
			}
			if isEmpty(vb) {
				topo.Map().Delete("variability")
			}
		}
	}
	return nil
}

// JSIsEmpty is the reference's utils.isEmpty with its failure: ok is false
// for a number or a boolean, where the reference throws "Cannot check if
// object <pretty> is empty" (MsgCannotCheckEmpty).
func JSIsEmpty(v *Value) (empty, ok bool) { return jsIsEmpty(v) }

func jsIsEmpty(v *Value) (empty, ok bool) {
	if v != nil && (v.Kind == yamlsrc.KindNumber || v.Kind == yamlsrc.KindBool) {
		return false, false
	}
	return isEmpty(v), true
}

// isEmpty is the reference's utils.isEmpty: undefined/null, empty list,
// empty string, a map without keys, or a date (an object without own keys).
// Numbers and booleans, where the reference throws, are not empty here (see
// jsIsEmpty).
func isEmpty(v *Value) bool {
	if v.IsNull() {
		return true
	}
	switch v.Kind {
	case yamlsrc.KindList:
		return len(v.List()) == 0
	case yamlsrc.KindString:
		return v.Str() == ""
	case yamlsrc.KindMap:
		return v.Map().Len() == 0
	case yamlsrc.KindTime:
		return true
	}
	return false
}

// IsEmpty exposes the reference's emptiness test.
func IsEmpty(v *Value) bool { return isEmpty(v) }

func (n *normalizer) node(item *Value) error {
	tmpl, err := n.template(item, "node template")
	if err != nil {
		return err
	}
	return n.nodeTemplate(tmpl, item)
}

// nodeTemplate normalises the node template tmpl of the entry item (in a
// lean build's map of node templates, item is tmpl itself: an entry of the
// list has the position of its template).
func (n *normalizer) nodeTemplate(tmpl, item *Value) error {
	if !tmpl.IsMap() {
		return n.notTemplate(tmpl, item, "a node template")
	}
	if err := n.types(tmpl, item, n.emptyType != nil); err != nil {
		return err
	}
	if err := n.properties(tmpl); err != nil {
		return err
	}
	// Requirements.
	if reqs := tmpl.Get("requirements"); !reqs.IsNull() {
		if !reqs.IsList() {
			return n.errRef(reqs, "expected requirements as a list, found "+describe(reqs),
				msgNotAFunctionOrIterable("template.requirements.entries"))
		}
		for i := range reqs.List() {
			name, a, err := n.keyedItem(reqs, i, "a requirement")
			if err != nil {
				return err
			}
			if a != nil && a.Kind == yamlsrc.KindString {
				m := yamlsrc.MapOf("node", a)
				m.Line, m.Col = a.Line, a.Col
				reqs.List()[i].Map().Set(name, m)
			}
		}
	}
	// Artifacts.
	if arts := tmpl.Get("artifacts"); !arts.IsNull() {
		list, err := n.entryList(tmpl, "artifacts")
		if err != nil {
			return err
		}
		for i := range list.List() {
			name, a, err := n.keyedItem(list, i, "an artifact")
			if err != nil {
				return err
			}
			it := list.List()[i]
			switch {
			case a.IsMap():
				if a.Get("type").IsNull() {
					a.Map().Set("type", yamlsrc.NewString(ArtifactDefaultType))
				}
			case a != nil && a.Kind == yamlsrc.KindString:
				m := yamlsrc.MapOf("file", a, "type", yamlsrc.NewString(ArtifactDefaultType))
				m.Line, m.Col = a.Line, a.Col
				it.Map().Set(name, m)
				a = m
			case a.IsNull():
				return n.errRef(valueOr(a, it), "expected an artifact as a map or a string, found null",
					MsgCannotReadNull("type"))
			case a.Kind == yamlsrc.KindNumber || a.Kind == yamlsrc.KindBool:
				return n.errRef(valueOr(a, it), "expected an artifact as a map or a string, found "+describe(a),
					MsgNotObject(a))
			default:
				return n.errAt(it, "expected an artifact as a map or a string, found "+describe(a))
			}
			if err := n.properties(a); err != nil {
				return err
			}
			if err := n.types(a, it, false); err != nil {
				return err
			}
		}
	}
	// Technologies.
	tech := tmpl.Get("technology")
	switch {
	case tech.IsNull():
		if n.emptyType != nil {
			return nil
		}
		tech = yamlsrc.NewList()
		tmpl.Map().Set("technology", tech)
	case tech.Kind == yamlsrc.KindString:
		tech = yamlsrc.NewList(yamlsrc.MapOf(tech.Str(), yamlsrc.NewMap()))
		tmpl.Map().Set("technology", tech)
	case !tech.IsList():
		return n.errAt(tech, MsgNotArray(tech))
	}
	// The reference first rebuilds every entry as {lower-cased name:
	// definition}, then gives each its default assign.
	for i, it := range tech.List() {
		name, def, err := itemEntry(n.file, it, "a technology", refNoEntry)
		if err != nil {
			return err
		}
		if lower := strings.ToLower(name); lower != name || !it.IsMap() || it.Map().Len() != 1 {
			m := yamlsrc.MapOf(lower, def)
			m.Line, m.Col = it.Line, it.Col
			tech.List()[i] = m
		}
	}
	types := tmpl.Get("type")
	for _, it := range tech.List() {
		lower, def := it.Map().Key(0), it.Map().Val(0)
		if !def.IsMap() {
			msg := "expected a technology map, found " + describe(def)
			switch {
			case def.IsNull():
				return n.errRef(valueOr(def, it), msg, MsgCannotReadNull("assign"))
			case def.Kind == yamlsrc.KindString, def.Kind == yamlsrc.KindNumber, def.Kind == yamlsrc.KindBool:
				return n.errRef(valueOr(def, it), msg, MsgCannotCreateProperty("assign", def))
			}
			return n.errAt(it, msg)
		}
		if def.Get("assign").IsNull() {
			// The reference names the first type entry's first key
			// (utils.firstKey), which fails for a missing or null entry.
			if types.IsString() {
				// A lean build's [{name: {}}] (types).
				def.Map().Set("assign", yamlsrc.NewString(types.Str()+"~"+types.Str()+"::"+lower))
				continue
			}
			if !types.IsList() {
				return n.errAt(valueOr(types, it), MsgNotArray(types))
			}
			var first *Value
			if len(types.List()) > 0 {
				first = types.List()[0]
			}
			if first.IsNull() {
				at := valueOr(first, types)
				return n.errRef(valueOr(at, it), "the technology \""+lower+"\" has no assign and its node no first type to name the implementation",
					MsgNullToObject)
			}
			t0 := "undefined"
			if k, _, ok := firstEntry(first); ok {
				t0 = k
			}
			def.Map().Set("assign", yamlsrc.NewString(t0+"~"+t0+"::"+lower))
		}
	}
	return nil
}

// valueOr returns v, or at where v has no position (nil, or made by v4t).
func valueOr(v, at *Value) *Value {
	if v == nil || v.Line == 0 {
		return at
	}
	return v
}

// notTemplate is the error for a template (node, group, policy or
// relationship template) that is not a map: the reference reads its type
// and fails (§3.2).
func (n *normalizer) notTemplate(tmpl, at *Value, what string) error {
	if tmpl.IsNull() {
		return n.errRef(valueOr(tmpl, at), "expected "+what+" as a map, found null",
			MsgCannotReadNull("type"))
	}
	return n.errRef(valueOr(tmpl, at), "expected "+what+" as a map, found "+describe(tmpl), MsgUnexpected)
}

// firstEntry is the reference's utils.firstEntry (Object.entries(v)[0]) of
// a non-null value: a map's first entry, a string's first character or a
// list's first item under the key "0"; ok is false where there is none (an
// empty map, list or string, a number, a boolean, a date).
func firstEntry(v *Value) (key string, val *Value, ok bool) {
	switch {
	case v.IsMap() && v.Map().Len() > 0:
		return v.Map().Key(0), v.Map().Val(0), true
	case v.IsList() && len(v.List()) > 0:
		return "0", v.List()[0], true
	case v.IsString() && v.Str() != "":
		r, _ := utf8.DecodeRuneInString(v.Str())
		return "0", posAt(yamlsrc.NewString(string(r)), v), true
	}
	return "", nil, false
}

// The reference's failures when it reads a list item as a single-entry
// map: Object.entries(null), destructuring the entry of an item that has
// none, and reading the type of a template an item has none of.
var (
	refNullEntries = MsgNullToObject
	refNoEntry     = MsgNotIterableSymbol("undefined")
	refNoTemplate  = MsgCannotReadUndefined("type")
)

// itemEntry reads a list item as the reference does (utils.firstEntry or
// firstValue): a map's first entry, or "0" and the first character or item
// of a non-empty string or list. It fails like the reference for null and
// for an item without an entry (none is the reference's message then).
func itemEntry(file string, item *Value, what, none string) (string, *Value, error) {
	if item.IsNull() {
		return "", nil, diag.AtRef(posOf(file, item), diag.StageLoad,
			"expected "+what+" as a map with one entry, found null", refNullEntries)
	}
	k, v, ok := firstEntry(item)
	if !ok {
		return "", nil, diag.AtRef(posOf(file, item), diag.StageLoad,
			"expected "+what+" as a map with one entry, found "+describe(item), none)
	}
	return k, v, nil
}

// templates normalises the policy or group templates (what) of a list:
// each one's types and properties.
func (n *normalizer) templates(items []*Value, what string) error {
	for _, item := range items {
		tmpl, err := n.template(item, what)
		if err != nil {
			return err
		}
		if err := n.typesAndProperties(tmpl, item, "a "+what+" template", false); err != nil {
			return err
		}
	}
	return nil
}

// template reads a node template, group or policy entry (what) of a list:
// the reference takes its first value as the template (utils.firstValue)
// and reads its type.
func (n *normalizer) template(item *Value, what string) (*Value, error) {
	_, tmpl, err := itemEntry(n.file, item, "a "+what+" entry", refNoTemplate)
	if err != nil {
		return nil, err
	}
	if !item.IsMap() {
		msg := "expected a " + what + " entry as a map with one entry, found " + describe(item)
		switch {
		case tmpl.IsNull():
			return nil, n.errRef(item, msg, MsgCannotReadNull("type"))
		case !tmpl.IsMap():
			return nil, n.errRef(item, msg, MsgUnexpected)
		}
		// The reference reads on, with the map as template of "0".
		return nil, n.errAt(item, msg)
	}
	return tmpl, nil
}

// keyedItem reads an entry (what) of a requirement, artifact or property
// list that the reference writes back into the item under its key: a
// string item fails (its characters are read-only), a list item is
// rewritten as the map {"0": first item} that it stands for, with a
// warning.
func (n *normalizer) keyedItem(list *Value, i int, what string) (string, *Value, error) {
	item := list.List()[i]
	name, v, err := itemEntry(n.file, item, what, refNoEntry)
	if err != nil || item.IsMap() {
		return name, v, err
	}
	if item.IsString() {
		return "", nil, n.errRef(item, "expected "+what+" as a map with one entry, found a string",
			msgCannotAssignReadOnly(item.Str()))
	}
	// Quirk: scalar maps (variability.md §3.2).
	n.w.at(item, "expected "+what+" as a map with one entry, found a list: read as \"0\" with its first item, as the reference does")
	m := posAt(yamlsrc.MapOf(name, v), item)
	list.List()[i] = m
	return name, v, nil
}

// typesAndProperties normalises a template's types and properties;
// keepString is types'.
func (n *normalizer) typesAndProperties(tmpl, at *Value, what string, keepString bool) error {
	if !tmpl.IsMap() {
		return n.notTemplate(tmpl, at, what)
	}
	if err := n.types(tmpl, at, keepString); err != nil {
		return err
	}
	return n.properties(tmpl)
}

// types normalises "type" into a list of single-entry maps. keepString
// leaves a string as it is, for a lean build of node and relationship
// templates: the populator reads it as [{name: {}}], and nothing else reads
// their types from the document (groups and policies keep the list, which
// the populator's variability group check reads, and artifacts too, whose
// list the type-specific conditions read as a string, §5.9).
func (n *normalizer) types(tmpl, at *Value, keepString bool) error {
	t := tmpl.Get("type")
	if t.IsNull() {
		return n.errAt(at, MsgUnexpected)
	}
	if t.IsList() {
		return nil
	}
	if t.Kind == yamlsrc.KindString && !keepString {
		var l *Value
		if n.emptyType != nil {
			l = yamlsrc.EntryListOf(t.Str(), n.emptyType)
		} else {
			l = yamlsrc.EntryList(t.Str())
		}
		l.Line, l.Col = t.Line, t.Col
		l.List()[0].Line, l.List()[0].Col = t.Line, t.Col
		tmpl.Map().Set("type", l)
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
		var entries []jsEntry
		if props.IsMap() {
			entries = make([]jsEntry, props.Map().Len())
			for i, k := range props.Map().Keys() {
				entries[i] = jsEntry{key: k, val: props.Map().Val(i)}
			}
		} else {
			var err error
			if entries, err = n.scalarEntries(props, "properties"); err != nil {
				return err
			}
		}
		list := make([]*Value, len(entries))
		for i, e := range entries {
			wrapped := yamlsrc.MapOf("value", e.val)
			if e.val != nil {
				wrapped.Line, wrapped.Col = e.val.Line, e.val.Col
			}
			list[i] = yamlsrc.MapOf(e.key, wrapped)
			list[i].Line, list[i].Col = wrapped.Line, wrapped.Col
		}
		props = yamlsrc.NewList(list...)
		tmpl.Map().Set("properties", props)
	}
	for i := range props.List() {
		name, a, err := n.keyedItem(props, i, "a property")
		if err != nil {
			return err
		}
		it := props.List()[i]
		if a == nil || a.Kind == yamlsrc.KindNull {
			return n.errRef(valueOr(a, it), "expected a property assignment, found null",
				MsgCannotReadNull("value"))
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
			it.Map().Set(name, m)
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
	switch {
	case rules.IsMap() || rules.Kind == yamlsrc.KindTime:
		// An object but not iterable: the reference's for-of fails.
		return n.errRef(rules, "expected the technology rules (qualities) as a list, found "+describe(rules), MsgNotIterable("rules"))
	case !rules.IsList():
		return n.errAt(rules, msgRulesNotLoaded)
	}
	for _, rule := range rules.List() {
		if !rule.IsMap() {
			return n.errAt(rule, "expected a technology rule map, found "+describe(rule))
		}
		if c := rule.Get("component"); c == nil || c.Kind != yamlsrc.KindString {
			return n.errAt(rule, MsgNotString(c))
		}
		h := rule.Get("hosting")
		if h.IsNull() {
			h = yamlsrc.NewList()
			rule.Map().Set("hosting", h)
		}
		if !h.IsList() {
			return n.errAt(h, MsgNotArray(h))
		}
		for _, x := range h.List() {
			if x == nil || x.Kind != yamlsrc.KindString {
				return n.errAt(h, MsgNotString(x))
			}
		}
		if c := rule.Get("conditions"); !c.IsNull() && !c.IsMap() && !c.IsList() {
			return n.errAt(c, MsgNotObject(c))
		}
		if w := rule.Get("weight"); !w.IsNull() && w.Kind != yamlsrc.KindNumber {
			return n.errAt(w, MsgNotNumber(w))
		}
		if a := rule.Get("assign"); !a.IsNull() && a.Kind != yamlsrc.KindString {
			return n.errAt(a, MsgNotString(a))
		}
	}
	return nil
}
