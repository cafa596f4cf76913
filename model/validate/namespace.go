package validate

import (
	"strconv"
	"strings"
	"sync"

	"v4t/model/diag"
)

// Phase 3, namespace: per unit and entity kind, the names it defines and
// those of its imports (with namespace_prefix), after go-puccini's
// namespace phase; then every type name used in a type definition is looked
// up.

type namespace struct {
	names [nKinds]map[string]*typeDef
	order [nKinds][]string
	kinds map[string]uint16 // the kinds of each name, built by kindsOf
}

func newNamespace() *namespace {
	ns := &namespace{}
	for k := range ns.names {
		ns.names[k] = map[string]*typeDef{}
	}
	return ns
}

func (ns *namespace) set(k typeKind, name string, t *typeDef) *typeDef {
	if old := ns.names[k][name]; old != nil {
		return old
	}
	ns.names[k][name] = t
	ns.order[k] = append(ns.order[k], name)
	ns.kinds = nil
	return nil
}

// namespaces builds the namespace of every unit, the normative one with
// its short and prefixed names, and looks up the names used by types.
func (v *validator) namespaces(root *unit) {
	nu := v.normative
	nu.ns = newNamespace()
	for k := range nKinds {
		for _, t := range nu.defs[k] {
			nu.ns.set(k, t.name, t)
		}
		for _, t := range nu.defs[k] {
			if short, ok := strings.CutPrefix(t.name, kindPrefixes[k]); ok {
				nu.ns.set(k, short, t)
				nu.ns.set(k, "tosca:"+short, t)
			}
		}
		// The shorthand names of TOSCA 1.3 §5 are the last part of the
		// name where the part after the prefix has several: PortDef for
		// tosca.datatypes.network.PortDef, BlockStorage for
		// tosca.nodes.Storage.BlockStorage. A name taken already keeps
		// its meaning.
		for _, t := range nu.defs[k] {
			if i := strings.LastIndexByte(t.name, '.'); i >= 0 && strings.HasPrefix(t.name, kindPrefixes[k]) {
				last := t.name[i+1:]
				nu.ns.set(k, last, t)
				nu.ns.set(k, "tosca:"+last, t)
			}
		}
	}
	for _, u := range v.order {
		v.namespaceOf(u)
	}
	for _, u := range append(v.order, nu) {
		for k := range nKinds {
			for _, t := range u.defs[k] {
				v.lookupTypeRefs(t)
			}
		}
	}
}

func (v *validator) namespaceOf(u *unit) *namespace {
	if u.ns != nil {
		return u.ns
	}
	ns := newNamespace()
	u.ns = ns
	for k := range nKinds {
		for _, t := range u.defs[k] {
			ns.set(k, t.name, t)
			if n := v.normative.ns.names[k][t.name]; n != nil && strings.HasPrefix(t.name, "tosca.") && n.name == t.name {
				v.add(t.pos.pos(), "redefined", "%s %q is already defined by the normative types", kindNames[k], t.name)
			}
		}
	}
	for _, imp := range u.imports {
		child := v.namespaceOf(imp.u)
		for k := range nKinds {
			for _, name := range child.order[k] {
				t := child.names[k][name]
				if imp.prefix != "" {
					name = imp.prefix + ":" + name
				}
				if old := ns.set(k, name, t); old != nil && old != t {
					if old.u == u {
						// The unit's own definition clashes with an import:
						// report it in the unit, where it can be renamed.
						v.add(old.pos.pos(), "ambiguous", "ambiguous %s name %q: also defined at %s, imported at %s", kindNames[k], name, t.pos.pos(), imp.pos)
						continue
					}
					v.add(t.pos.pos(), "ambiguous", "ambiguous %s name %q: also defined at %s", kindNames[k], name, old.pos.pos())
				}
			}
		}
	}
	return ns
}

// find looks name up in the namespace of u, then among the normative
// types.
func (v *validator) find(u *unit, k typeKind, name string) *typeDef {
	if u.ns != nil {
		if t := u.ns.names[k][name]; t != nil {
			return t
		}
	}
	return v.normative.ns.names[k][name]
}

// lookup finds a type by name and reports it when it is not found; what
// says where the name is used ("derived_from of node type \"x\"").
func (v *validator) lookup(u *unit, k typeKind, ref nameRef) *typeDef {
	if ref.name == "" {
		return nil
	}
	if t := v.find(u, k, ref.name); t != nil {
		return t
	}
	v.notFound(u, k, ref)
	return nil
}

func (v *validator) notFound(u *unit, k typeKind, ref nameRef) {
	if o, ok := v.otherKind(u, k, ref.name); ok {
		v.addMsg(ref.pos, "not-found", v.msg().s(kindNames[k], " ").q(ref.name).s(" not found: ").q(ref.name).s(" is a ", kindNames[o]).String())
		return
	}
	hint := v.suggestType(u, k, ref.name)
	v.addMsg(ref.pos, "not-found", v.msg().s(kindNames[k], " ").q(ref.name).s(" not found", hint).String())
}

// otherKind returns the first kind other than k that has a type called
// name in the namespace of u or among the normative types.
func (v *validator) otherKind(u *unit, k typeKind, name string) (typeKind, bool) {
	var set uint16
	if u.ns != nil {
		set = u.ns.kindsOf(name)
	}
	set |= v.normative.ns.kindsOf(name)
	set &^= 1 << k
	for o := range nKinds {
		if set&(1<<o) != 0 {
			return o, true
		}
	}
	return 0, false
}

// kindsOf returns the set of kinds that have a type called name, from an
// index of all kinds built on first use: a template with thousands of
// missing names looks each up once, not once per kind.
func (ns *namespace) kindsOf(name string) uint16 {
	if ns.kinds == nil {
		n := 0
		for k := range ns.names {
			n += len(ns.names[k])
		}
		ns.kinds = make(map[string]uint16, n)
		for k := range ns.names {
			for name := range ns.names[k] {
				ns.kinds[name] |= 1 << k
			}
		}
	}
	return ns.kinds[name]
}

// suggestKey is the key of the cache of type name suggestions.
type suggestKey struct {
	k    typeKind
	name string
}

// suggestType returns the "did you mean" hint for a type name of kind k
// that was not found. The names of data types (a property's type, a data
// type's parent) are drawn first from TOSCA's own (builtinDataHint), then
// from the declared ones; other kinds from the declared and the
// normative names alike.
func (v *validator) suggestType(u *unit, k typeKind, name string) string {
	key := suggestKey{k, name}
	if s, ok := v.suggested[key]; ok {
		return s
	}
	if v.nSuggest >= maxSuggestions {
		return ""
	}
	s := ""
	if k == kData {
		s = builtinDataHint(name, v.normative.ns.order[kData])
	}
	if s == "" {
		s = v.suggest(name, func(yield func(string) bool) {
			if u.ns != nil {
				for _, n := range u.ns.order[k] {
					if !yield(n) {
						return
					}
				}
			}
			if k == kData {
				return // searched by builtinDataHint
			}
			for _, n := range v.normative.ns.order[k] {
				if !yield(n) {
					return
				}
			}
		})
	} else {
		v.nSuggest++
	}
	if v.suggested == nil {
		v.suggested = map[suggestKey]string{}
	}
	v.suggested[key] = s
	return s
}

// builtinDataHint returns the "did you mean" hint for a data type name
// among TOSCA's own: the primitive and special types (primitiveNames) and
// the normative data types (normative, with their short names), or "".
// Besides close spellings it knows what other type systems call the
// primitives (typeAliases: bool, int, str, ...) and abbreviations of
// them ("integ"), which are too far from the name to be found by
// distance alone.
func builtinDataHint(name string, normative []string) string {
	hint := func(s string) string { return " (did you mean " + strconv.Quote(s) + "?)" }
	lower := strings.ToLower(name)
	if a, ok := typeAliases()[lower]; ok {
		return hint(a)
	}
	match := ""
	for _, p := range primitiveNames {
		if lower == p {
			return hint(p) // the name in another case
		}
		if len(lower) >= 3 && strings.HasPrefix(p, lower) {
			if match != "" {
				match = "-" // not one
				continue
			}
			match = p
		}
	}
	if match != "" && match != "-" {
		return hint(match)
	}
	return diag.DidYouMean(name, allOf(primitiveNames, normative))
}

// primitiveNames are the TOSCA 1.3 primitive and special types (§3.3) a
// property may have, for suggestions (the null type is not one a property
// is given).
var primitiveNames = []string{"boolean", "integer", "float", "string", "timestamp", "range", "list", "map", "version",
	"scalar-unit.size", "scalar-unit.time", "scalar-unit.frequency", "scalar-unit.bitrate"}

// typeAliases map what other type systems (YAML, JSON Schema, programming
// languages) call a type to TOSCA's name of it.
var typeAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"bool": "boolean", "int": "integer", "long": "integer", "str": "string", "text": "string",
		"double": "float", "number": "float", "dict": "map", "object": "map", "array": "list",
		"date": "timestamp", "datetime": "timestamp",
	}
})

// primitives are the TOSCA 1.3 primitive and special types (§3.3).
var primitives = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"string": true, "integer": true, "float": true, "boolean": true, "timestamp": true, "null": true,
		"version": true, "range": true, "list": true, "map": true,
		"scalar-unit.size": true, "scalar-unit.time": true, "scalar-unit.frequency": true, "scalar-unit.bitrate": true,
	}
})

// lookupProp resolves the type of a property definition (and its entry
// schema): a primitive or a data type.
func (v *validator) lookupProp(u *unit, p *propDef) {
	for ; p != nil; p = p.entry {
		if p.typ.name == "" || primitives()[p.typ.name] {
			continue
		}
		p.dt = v.lookup(u, kData, p.typ)
	}
}

func (v *validator) lookupTypeRefs(t *typeDef) {
	u := t.u
	if t.props != nil {
		for _, p := range t.props.list {
			v.lookupProp(u, p)
		}
	}
	for _, c := range t.caps {
		c.t = v.lookup(u, kCapability, c.typ)
	}
	for _, r := range t.reqs {
		r.capT = v.lookup(u, kCapability, r.cap)
		r.nodeT = v.lookup(u, kNode, r.node)
		v.lookup(u, kRelationship, r.rel)
	}
	for _, i := range t.ifaces {
		v.lookup(u, kInterface, i)
	}
	for _, s := range t.validSrc {
		k := kNode
		if t.kind == kRelationship {
			k = kCapability
		}
		v.lookup(u, k, s)
	}
}
