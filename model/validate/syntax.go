package validate

import (
	"fmt"
	"strings"
	"sync"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Phase 2, syntax: every unit against the grammar (grammar.go), decoding
// types and the root's topology into the entity model (model.go) with
// short notations in their full form.

// supportedVersions are the tosca_definitions_version values v4t reads
// (variability.md §3.1, plus the TOSCA simple profile versions before 1.3,
// whose grammar 1.3 extends).
var supportedVersions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"tosca_simple_yaml_1_0":      true,
		"tosca_simple_yaml_1_1":      true,
		"tosca_simple_yaml_1_2":      true,
		"tosca_simple_yaml_1_3":      true,
		"tosca_variability_1_0":      true,
		"tosca_variability_1_0_rc_1": true,
		"tosca_variability_1_0_rc_2": true,
		"tosca_variability_1_0_rc_3": true,
	}
})

// checkFields checks that m is a map whose keys are fields of the grammar
// f, each of an allowed kind, and that the required fields are there. what
// names the entity in messages ("node template \"db\""); at is its
// position, for missing fields. It reports whether m is a map.
func (v *validator) checkFields(u *unit, m *yamlsrc.Value, what subject, f fields, at ...place) bool {
	if !m.IsMap() {
		v.add(u.at(m), "kind", "expected a map for %s, found %s", what.text(), graph.Describe(m))
		return false
	}
	keys := m.Map().Keys()
	for i, k := range keys {
		fl, ok := f.m[k]
		if !ok {
			v.add(u.keyAt(m, i), "unknown-field", "unknown field %q in %s%s", k, what.text(), v.suggest(k, fieldNames(f)))
			continue
		}
		x := m.Map().Val(i)
		if kindBit(x)&fl.kinds == 0 {
			v.add(u.at(x), "kind", "expected %s for %q in %s, found %s", fl.kinds.expected(), k, what.text(), graph.Describe(x))
		}
	}
	var missing []string
	for _, k := range f.required {
		if !m.Has(k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		pos := u.at(m)
		if len(at) > 0 {
			if p := at[0].pos(); p.Line > 0 {
				pos = p
			}
		}
		for _, k := range missing {
			v.add(pos, "missing-field", "missing required field %q in %s", k, what.text())
		}
	}
	return true
}

func fieldNames(f fields) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range f.m {
			if !yield(k) {
				return
			}
		}
	}
}

// entries walks a named collection: a map, or (in a variable template
// where list is true) a list of single-entry maps. fn gets the name, the
// position of the name and the value.
func (v *validator) entries(u *unit, x *yamlsrc.Value, what subject, list bool, fn func(name string, at place, val *yamlsrc.Value)) {
	switch {
	case x.IsNull():
	case x.IsMap():
		for i, k := range x.Map().Keys() {
			fn(k, keyPlace(u, x, i), x.Map().Val(i))
		}
	case x.IsList() && list:
		for _, e := range x.List() {
			if !e.IsMap() || e.Map().Len() != 1 {
				v.add(u.at(e), "kind", "expected a map with one entry in %s, found %s", what.text(), entryKind(e))
				continue
			}
			fn(e.Map().Key(0), keyPlace(u, e, 0), e.Map().Val(0))
		}
	}
}

func entryKind(e *yamlsrc.Value) string {
	if e.IsMap() {
		return fmt.Sprintf("a map with %d entries", e.Map().Len())
	}
	return graph.Describe(e)
}

// decodeAll checks and decodes every unit, then the normative types.
func (v *validator) decodeAll() {
	for _, u := range v.order {
		v.decodeUnit(u)
	}
	v.decodeUnit(v.normative)
	for _, t := range v.normative.defs[kNode] {
		for _, name := range optionalNormative()[t.name] {
			if p := t.props.get(name); p != nil {
				p.required = false
			}
		}
	}
}

// optionalNormative lists normative properties that the YAML definitions
// of TOSCA 1.3 leave required but that its property tables mark optional
// and its own examples omit (the "Block Storage" examples give no name).
//
// Erratum: TOSCA 1.3 §5.9 property tables.
var optionalNormative = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"tosca.nodes.Abstract.Storage": {"name"},
		"tosca.nodes.WebApplication":   {"context_root"},
	}
})

func (v *validator) decodeUnit(u *unit) {
	doc := u.doc
	if !u.builtin {
		v.checkFields(u, doc, bare("service template", nil), grammar().serviceTemplateFields, startPlace(u))
		if ver := doc.Get("tosca_definitions_version"); ver.IsString() && !supportedVersions()[ver.Str()] {
			v.add(u.at(ver), "version", "unsupported tosca_definitions_version %q", ver.Str())
		}
	}
	for k := range nKinds {
		defs := doc.Get(kindKeys[k])
		if !defs.IsMap() {
			continue
		}
		for i, name := range defs.Map().Keys() {
			if t := v.decodeType(u, k, name, keyPlace(u, defs, i), defs.Map().Val(i)); t != nil {
				u.defs[k] = append(u.defs[k], t)
			}
		}
	}
	if v.order[0] == u {
		if topo := doc.Get("topology_template"); topo.IsMap() {
			u.topo = v.decodeTopology(u, topo)
		}
	}
}

func (v *validator) decodeType(u *unit, k typeKind, name string, at place, def *yamlsrc.Value) *typeDef {
	t := &typeDef{kind: k, name: name, u: u, pos: at}
	what := sub(kindNames[k], name, nil)
	if def.IsNull() {
		return t
	}
	if k == kInterface {
		if !def.IsMap() {
			v.add(u.at(def), "kind", "expected a map for %s, found %s", what.text(), graph.Describe(def))
			return nil
		}
		for i, key := range def.Map().Keys() {
			x := def.Map().Val(i)
			if f, ok := grammar().typeFields.m[key]; ok {
				if kindBit(x)&f.kinds == 0 {
					v.add(u.at(x), "kind", "expected %s for %q in %s, found %s", f.kinds.expected(), key, what.text(), graph.Describe(x))
				}
				continue
			}
			v.interfaceMember(u, key, x, what)
		}
		interfaceOps(t, def)
	} else if !v.checkFields(u, def, what, grammar().typeGrammar[k], at) {
		return nil
	}
	if p := def.Get("derived_from"); p.IsString() {
		t.parentN, t.parentP = p.Str(), u.at(p)
	}
	if k == kData {
		t.cons = v.constraints(u, def.Get("constraints"), what)
	}
	if vs := def.Get("valid_source_types"); k == kCapability && vs.IsList() {
		t.hasSrc = true
		v.decodeNamesInto(u, vs, &t.srcTypes)
		t.validSrc = append(t.validSrc, t.srcTypes...)
	}
	if props := def.Get("properties"); props.IsMap() {
		t.props = &propSet{index: map[string]int{}}
		for i, pn := range props.Map().Keys() {
			if p := v.decodePropDef(u, t, pn, keyPlace(u, props, i), props.Map().Val(i), sub("property", pn, &what)); p != nil {
				t.props.put(p)
			}
		}
	}
	if attrs := def.Get("attributes"); attrs.IsMap() {
		for i, an := range attrs.Map().Keys() {
			v.decodePropDef(u, t, an, keyPlace(u, attrs, i), attrs.Map().Val(i), sub("attribute", an, &what))
		}
	}
	if caps := def.Get("capabilities"); caps.IsMap() {
		for i, cn := range caps.Map().Keys() {
			x := caps.Map().Val(i)
			c := &capDef{name: cn, owner: t, pos: keyPlace(u, caps, i)}
			cw := sub("capability", cn, &what)
			switch {
			case x.IsString(): // short notation: the type
				c.typ = nameRef{x.Str(), u.at(x)}
			case v.checkFields(u, x, cw, grammar().capabilityDefFields, c.pos):
				if ty := x.Get("type"); ty.IsString() {
					c.typ = nameRef{ty.Str(), u.at(ty)}
				}
				c.occLower, c.hasOcc = v.occurrences(u, x.Get("occurrences"), cw)
				if vs := x.Get("valid_source_types"); vs.IsList() {
					n := len(t.validSrc)
					v.decodeNamesInto(u, vs, &t.validSrc)
					c.validSrc, c.hasSrc, c.srcOwner = t.validSrc[n:len(t.validSrc):len(t.validSrc)], true, t
				}
			default:
				continue
			}
			t.caps = append(t.caps, c)
		}
	}
	if reqs := def.Get("requirements"); reqs.IsList() {
		v.entries(u, reqs, bare("requirements", &what), true, func(rn string, rat place, x *yamlsrc.Value) {
			r := &reqDef{name: rn, owner: t, pos: rat}
			rw := sub("requirement", rn, &what)
			switch {
			case x.IsString(): // short notation: the capability type
				r.cap = nameRef{x.Str(), u.at(x)}
			case v.checkFields(u, x, rw, grammar().requirementDefFields, rat):
				if c := x.Get("capability"); c.IsString() {
					r.cap = nameRef{c.Str(), u.at(c)}
				}
				if n := x.Get("node"); n.IsString() {
					r.node = nameRef{n.Str(), u.at(n)}
				}
				r.rel, _ = v.relationship(u, x.Get("relationship"), &rw)
				r.occLower, r.hasOcc = v.occurrences(u, x.Get("occurrences"), rw)
			default:
				return
			}
			t.reqs = append(t.reqs, r)
		})
	}
	if arts := def.Get("artifacts"); arts.IsMap() {
		for i, an := range arts.Map().Keys() {
			x := arts.Map().Val(i)
			if !x.IsString() {
				v.checkFields(u, x, sub("artifact", an, &what), grammar().artifactDefFields, keyPlace(u, arts, i))
			}
		}
	}
	v.interfaces(u, def.Get("interfaces"), what, &t.ifaces)
	t.ifDefs = collectIfaces(u, def.Get("interfaces"))
	v.decodeNamesInto(u, def.Get("valid_target_types"), &t.validSrc)
	return t
}

// interfaces checks the interface definitions (in a type) or assignments
// (in a template) of a map (TOSCA 1.3 §3.6.20, §3.6.21): each a map whose
// type, if given, is collected into refs for the lookup, with operations
// and notifications given under their keys or, in the TOSCA 1.2 form, as
// keys of their own.
func (v *validator) interfaces(u *unit, ifs *yamlsrc.Value, what subject, refs *[]nameRef) {
	if !ifs.IsMap() {
		return
	}
	for i, in := range ifs.Map().Keys() {
		x := ifs.Map().Val(i)
		iw := sub("interface", in, &what)
		if x.IsNull() {
			continue
		}
		if !x.IsMap() {
			v.add(u.at(x), "kind", "expected a map for %s, found %s", iw.text(), graph.Describe(x))
			continue
		}
		for j, key := range x.Map().Keys() {
			val := x.Map().Val(j)
			switch key {
			case "type":
				if val.IsString() {
					*refs = append(*refs, nameRef{val.Str(), u.at(val)})
				} else {
					v.add(u.at(val), "kind", "expected a string for %q in %s, found %s", key, iw.text(), graph.Describe(val))
				}
			case "description":
			default:
				v.interfaceMember(u, key, val, iw)
			}
		}
	}
}

// operations checks a map of operation (or notification) definitions.
// interfaceMember checks the member key of an interface (what): its inputs,
// its operations and notifications, or a TOSCA 1.2 operation.
func (v *validator) interfaceMember(u *unit, key string, x *yamlsrc.Value, what subject) {
	switch key {
	case "inputs":
		if !x.IsMap() && !x.IsNull() {
			v.add(u.at(x), "kind", "expected a map for %q in %s, found %s", key, what.text(), graph.Describe(x))
		}
	case "operations", "notifications":
		v.operations(u, x, key, what)
	default:
		v.operation(u, key, x, what)
	}
}

func (v *validator) operations(u *unit, x *yamlsrc.Value, key string, what subject) {
	if x.IsNull() {
		return
	}
	if !x.IsMap() {
		v.add(u.at(x), "kind", "expected a map for %q in %s, found %s", key, what.text(), graph.Describe(x))
		return
	}
	for i, name := range x.Map().Keys() {
		v.operation(u, name, x.Map().Val(i), what)
	}
}

// operation checks an operation definition or assignment (TOSCA 1.3
// §3.6.17): an implementation (short notation) or a map of its fields.
func (v *validator) operation(u *unit, name string, x *yamlsrc.Value, of subject) {
	ow := sub("operation", name, &of)
	switch {
	case x.IsNull(), x.IsString():
	case x.IsMap():
		v.checkFields(u, x, ow, grammar().operationFields)
		if impl := x.Get("implementation"); impl.IsMap() {
			v.checkFields(u, impl, bare("implementation", &ow), grammar().implementationFields)
		}
	default:
		v.add(u.at(x), "kind", "expected an operation (a map or an implementation) for %s, found %s", ow.text(), graph.Describe(x))
	}
}

// decodeNamesInto appends the strings of a list of type names.
func (v *validator) decodeNamesInto(u *unit, x *yamlsrc.Value, out *[]nameRef) {
	if !x.IsList() {
		return
	}
	for _, e := range x.List() {
		if !e.IsString() {
			v.add(u.at(e), "kind", "expected a type name (a string), found %s", graph.Describe(e))
			continue
		}
		*out = append(*out, nameRef{e.Str(), u.at(e)})
	}
}

// occurrences reads [lower, upper]; upper may be UNBOUNDED.
func (v *validator) occurrences(u *unit, x *yamlsrc.Value, what subject) (int, bool) {
	if x.IsNull() {
		return 0, false
	}
	if !x.IsList() || len(x.List()) != 2 {
		v.add(u.at(x), "kind", "expected occurrences [lower, upper] in %s, found %s", what.text(), entryKind(x))
		return 0, false
	}
	lo, hi := x.List()[0], x.List()[1]
	if lo.Kind != yamlsrc.KindNumber || lo.Num() < 0 || lo.Num() != float64(int(lo.Num())) {
		v.add(u.at(lo), "kind", "expected a non-negative integer as the lower bound of occurrences in %s", what.text())
		return 0, false
	}
	if !(hi.IsString() && hi.Str() == "UNBOUNDED") && (hi.Kind != yamlsrc.KindNumber || hi.Num() < lo.Num()) {
		v.add(u.at(hi), "kind", "expected an integer not below %v or UNBOUNDED as the upper bound of occurrences in %s", lo.Num(), what.text())
	}
	return int(lo.Num()), true
}

func (v *validator) decodePropDef(u *unit, owner *typeDef, name string, at place, x *yamlsrc.Value, what subject) *propDef {
	if !v.checkFields(u, x, what, grammar().propertyDefFields, at) {
		return nil
	}
	p := &propDef{name: name, owner: owner, pos: at, required: true}
	if ty := x.Get("type"); ty.IsString() {
		p.typ = nameRef{ty.Str(), u.at(ty)}
	}
	if r := x.Get("required"); r != nil && r.Kind == yamlsrc.KindBool {
		p.required = r.Bool
	}
	p.hasDef = x.Has("default") || x.Has("value")
	p.cons = v.constraints(u, x.Get("constraints"), what)
	p.entry = v.decodeSchema(u, x.Get("entry_schema"), bare("entry_schema", &what))
	if p.entry != nil {
		p.entry.of = p
	}
	v.decodeSchema(u, x.Get("key_schema"), bare("key_schema", &what))
	return p
}

// decodeSchema reads an entry_schema or key_schema: a type name (short
// notation) or a schema definition.
func (v *validator) decodeSchema(u *unit, x *yamlsrc.Value, what subject) *propDef {
	switch {
	case x.IsString():
		return &propDef{typ: nameRef{x.Str(), u.at(x)}}
	case x.IsMap():
		if !v.checkFields(u, x, what, grammar().schemaFields) {
			return nil
		}
		p := &propDef{}
		if ty := x.Get("type"); ty.IsString() {
			p.typ = nameRef{ty.Str(), u.at(ty)}
		}
		p.cons = v.constraints(u, x.Get("constraints"), what)
		p.entry = v.decodeSchema(u, x.Get("entry_schema"), bare("entry_schema", &what))
		if p.entry != nil {
			p.entry.of = p
		}
		return p
	}
	return nil
}

// decodeTopology checks the topology template of the root and decodes the
// templates that rendering checks.
func (v *validator) decodeTopology(u *unit, x *yamlsrc.Value) *topology {
	vr := u.variable
	v.checkFields(u, x, bare("topology_template", nil), pick(vr, grammar().topologyFieldsPlain, grammar().topologyFieldsVariable))
	nNodes, nRels := size(x.Get("node_templates")), size(x.Get("relationship_templates"))
	t := &topology{inputs: map[string]bool{}, byName: make(map[string]*nodeTemplate, nNodes), rels: make(map[string]*relTemplate, nRels)}
	t.nodes = make([]*nodeTemplate, 0, nNodes)
	t.relList = make([]*relTemplate, 0, nRels)
	if vb := x.Get("variability"); vb.IsMap() && vr {
		if v.checkFields(u, vb, bare("variability", nil), grammar().variabilityFields) {
			v.options(u, vb.Get("options"))
			v.presets(u, vb.Get("presets"))
			if ins := vb.Get("inputs"); ins.IsMap() {
				for i, name := range ins.Map().Keys() {
					v.inputDefault(u, t, "variability input", name, ins.Map().Val(i))
				}
			}
		}
	}
	params := pick(vr, grammar().parameterFieldsPlain, grammar().parameterFieldsVariable)
	v.entries(u, x.Get("inputs"), bare("inputs", nil), vr, func(name string, at place, val *yamlsrc.Value) {
		t.inputs[name] = true
		if !val.IsNull() && v.checkFields(u, val, sub("input", name, nil), params, at) {
			n := len(t.defaults)
			v.inputDefault(u, t, "input", name, val)
			cons := v.constraints(u, val.Get("constraints"), sub("input", name, nil))
			if len(t.defaults) > n {
				d := t.defaults[n].def
				d.cons, d.noun = cons, "input"
				if d.entry != nil {
					d.entry.of = d
				}
			}
		}
	})
	v.entries(u, x.Get("outputs"), bare("outputs", nil), vr, func(name string, at place, val *yamlsrc.Value) {
		if !val.IsNull() && v.checkFields(u, val, sub("output", name, nil), params, at) {
			v.constraints(u, val.Get("constraints"), sub("output", name, nil))
		}
	})
	v.entries(u, x.Get("node_templates"), bare("node_templates", nil), vr, func(name string, at place, val *yamlsrc.Value) {
		n := v.decodeNode(u, name, at, val)
		if n != nil {
			t.nodes = append(t.nodes, n)
		} else {
			// Broken: a placeholder, so that references to it are not
			// reported as well.
			n = &nodeTemplate{name: name, pos: at, nReqs: -1}
		}
		if t.byName[name] == nil {
			t.byName[name] = n
		}
	})
	v.entries(u, x.Get("relationship_templates"), bare("relationship_templates", nil), false, func(name string, at place, val *yamlsrc.Value) {
		what := sub("relationship template", name, nil)
		if !v.checkFields(u, val, what, pick(vr, grammar().relTemplateFieldsPlain, grammar().relTemplateFieldsVariable), at) {
			return
		}
		r := &relTemplate{name: name, pos: at}
		r.types = v.decodeTypes(u, val.Get("type"), what)
		v.interfaces(u, val.Get("interfaces"), what, &r.ifaces)
		r.ifUses = collectIfaces(u, val.Get("interfaces"))
		r.props = v.decodeProps(u, val.Get("properties"), what, at)
		t.rels[name] = r
		t.relList = append(t.relList, r)
	})
	t.groupNames = make(map[string]bool, size(x.Get("groups")))
	v.entries(u, x.Get("groups"), bare("groups", nil), vr, func(name string, at place, val *yamlsrc.Value) {
		t.groupNames[name] = true
		if g := v.decodeEntity(u, kGroup, name, at, val, pick(vr, grammar().groupFieldsPlain, grammar().groupFieldsVariable)); g != nil {
			t.groups = append(t.groups, g)
		}
	})
	// Policies are a list of single-entry maps in TOSCA too.
	v.entries(u, x.Get("policies"), bare("policies", nil), true, func(name string, at place, val *yamlsrc.Value) {
		if p := v.decodeEntity(u, kPolicy, name, at, val, pick(vr, grammar().policyFieldsPlain, grammar().policyFieldsVariable)); p != nil {
			t.policies = append(t.policies, p)
		}
	})
	return t
}

// decodeEntity decodes a group (k is kGroup) or a policy template with the
// fields f; nil when its fields are wrong.
func (v *validator) decodeEntity(u *unit, k typeKind, name string, at place, val *yamlsrc.Value, f fields) *entityTemplate {
	noun, refs := "group", "members"
	if k == kPolicy {
		noun, refs = "policy", "targets"
	}
	what := sub(noun, name, nil)
	if !v.checkFields(u, val, what, f, at) {
		return nil
	}
	e := &entityTemplate{kind: k, name: name, pos: at, refs: val.Get(refs)}
	e.types = v.decodeTypes(u, val.Get("type"), what)
	e.props = v.decodeProps(u, val.Get("properties"), what, at)
	return e
}

// inputDefault records the default of an input definition with a type,
// to be checked against the type once types are known (render.go).
func (v *validator) inputDefault(u *unit, t *topology, noun, name string, x *yamlsrc.Value) {
	ty, def := x.Get("type"), x.Get("default")
	if !ty.IsString() || def == nil {
		return
	}
	p := &propDef{name: name, typ: nameRef{ty.Str(), u.at(ty)}}
	p.entry = v.decodeSchema(u, x.Get("entry_schema"), bare("entry_schema", &subject{noun: noun, name: name, named: true}))
	t.defaults = append(t.defaults, inputDefault{noun: noun, name: name, def: p, value: def})
}

// presets checks the variability presets: each a map whose inputs are a
// map. The reference cannot apply a null preset ("Did not find variability
// preset"), ignores one that is a string and merges inputs
// that are a string or a list character by character or entry by entry,
// under the keys "0", "1", ..., which is never what was meant.
func (v *validator) presets(u *unit, x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	for i, name := range x.Map().Keys() {
		p := x.Map().Val(i)
		v.checkFields(u, p, sub("variability preset", name, nil), grammar().presetFields, keyPlace(u, x, i))
	}
}

// options checks the names of the variability options against those the
// reference reads (variability.md §4): it ignores any other silently, so
// a misspelt option changes nothing, which is worth a problem.
func (v *validator) options(u *unit, x *yamlsrc.Value) {
	if !x.IsMap() {
		return
	}
	for i, name := range x.Map().Keys() {
		if _, ok := knownOptions()[name]; ok {
			continue
		}
		hint := v.suggest(name, func(yield func(string) bool) {
			for _, n := range graph.OptionNames() {
				if !yield(n) {
					return
				}
			}
		})
		v.add(keyPlace(u, x, i).pos(), "unknown-option", "unknown variability option %q%s", name, hint)
	}
}

// knownOptions are graph.OptionNames and technology_required, which the
// reference accepts and drops (variability.md §4.4), made on first use.
var knownOptions = sync.OnceValue(func() map[string]struct{} {
	names := graph.OptionNames()
	m := make(map[string]struct{}, len(names)+1)
	for _, n := range names {
		m[n] = struct{}{}
	}
	m["technology_required"] = struct{}{}
	return m
})

// size is the number of entries of a collection, a map or a list.
func size(x *yamlsrc.Value) int {
	switch {
	case x.IsMap():
		return x.Map().Len()
	case x.IsList():
		return len(x.List())
	}
	return 0
}

// decodeTypes reads a template's type: a name, or in a variable template a
// list of single-entry maps {name: {conditions, ...}}.
func (v *validator) decodeTypes(u *unit, x *yamlsrc.Value, what subject) []nameRef {
	switch {
	case x.IsString():
		return []nameRef{{x.Str(), u.at(x)}}
	case x.IsList():
		var out []nameRef
		v.entries(u, x, bare("type", &what), true, func(name string, at place, val *yamlsrc.Value) {
			if !val.IsNull() {
				v.checkFields(u, val, sub("type", name, &what), grammar().typeAssignFields, at)
			}
			out = append(out, nameRef{name, at.pos()})
		})
		return out
	}
	return nil
}

// decodeProps reads property assignments: a map, or in a variable template
// a list of single-entry maps whose values may be wrapped
// ({value|expression, conditions, ...}; variability.md §3.2). tmpl is the
// place of the template's name: where the properties cannot all be
// read (a list in a plain template, an entry that is not a single-entry
// map, a scalar), the kind problem is reported here or by the grammar, and
// the template is marked so that rendering does not add, as follow-ons,
// required properties "missing" that may well have been given.
func (v *validator) decodeProps(u *unit, x *yamlsrc.Value, what subject, tmpl place) []propAssign {
	var out []propAssign
	switch {
	case x.IsNull():
	case x.IsMap():
		for i, name := range x.Map().Keys() {
			out = append(out, propAssign{name: name, pos: keyPlace(u, x, i), value: x.Map().Val(i)})
		}
	case x.IsList() && u.variable:
		v.entries(u, x, bare("properties", &what), true, func(name string, at place, val *yamlsrc.Value) {
			cond := false
			if val.IsMap() && (!val.Get("value").IsNull() || !val.Get("expression").IsNull()) {
				v.checkFields(u, val, sub("property", name, &what), grammar().propertyWrapFields, at)
				if !val.Get("expression").IsNull() {
					out = append(out, propAssign{name: name, pos: at, value: nil})
					return
				}
				cond = val.Map().Len() > 1 // conditions, default_alternative, ...
				val = val.Get("value")
			}
			out = append(out, propAssign{name: name, pos: at, value: val, alt: cond})
		})
		// Entries of one name are alternatives.
		if len(out) > 1 {
			first := make(map[string]int, len(out))
			for i := range out {
				if j, ok := first[out[i].name]; ok {
					out[i].alt, out[j].alt = true, true
				} else {
					first[out[i].name] = i
				}
			}
		}
		for _, e := range x.List() {
			if !e.IsMap() || e.Map().Len() != 1 {
				v.markUnreadProps(tmpl)
				break
			}
		}
	default:
		v.markUnreadProps(tmpl)
	}
	return out
}

// markUnreadProps marks the template named at tmpl as one whose properties
// were not all read (decodeProps).
func (v *validator) markUnreadProps(tmpl place) {
	if v.unreadProps == nil {
		v.unreadProps = map[place]bool{}
	}
	v.unreadProps[tmpl] = true
}

// relationship decodes the relationship of a requirement definition or
// assignment (rw): a relationship type name, or a relationship assignment,
// whose type it returns; assigned reports a well-formed assignment.
func (v *validator) relationship(u *unit, rel *yamlsrc.Value, rw *subject) (ref nameRef, assigned bool) {
	switch {
	case rel.IsString():
		return nameRef{rel.Str(), u.at(rel)}, false
	case rel.IsMap():
		if !v.checkFields(u, rel, bare("relationship", rw), grammar().relationshipAssignFields, valuePlace(u, rel)) {
			return nameRef{}, false
		}
		if ty := rel.Get("type"); ty.IsString() {
			ref = nameRef{ty.Str(), u.at(ty)}
		}
		return ref, true
	}
	return nameRef{}, false
}

func (v *validator) decodeNode(u *unit, name string, at place, x *yamlsrc.Value) *nodeTemplate {
	vr := u.variable
	what := sub("node template", name, nil)
	if !v.checkFields(u, x, what, pick(vr, grammar().nodeTemplateFieldsPlain, grammar().nodeTemplateFieldsVariable), at) {
		return nil
	}
	n := &nodeTemplate{name: name, pos: at}
	n.types = v.decodeTypes(u, x.Get("type"), what)
	n.props = v.decodeProps(u, x.Get("properties"), what, at)
	reqFields := pick(vr, grammar().requirementAssignFieldsPlain, grammar().requirementAssignFieldsVariable)
	if reqs := x.Get("requirements"); reqs.IsList() {
		n.reqs = make([]reqAssign, 0, len(reqs.List()))
		n.nReqs = len(reqs.List())
		v.entries(u, reqs, bare("requirements", &what), true, func(rn string, rat place, val *yamlsrc.Value) {
			r := reqAssign{name: rn, pos: rat}
			rw := sub("requirement", rn, &what)
			switch {
			case val.IsString(): // short notation: the target node template
				r.node, r.hasNode = nameRef{val.Str(), u.at(val)}, true
			case v.checkFields(u, val, rw, reqFields, rat):
				if nd := val.Get("node"); nd.IsString() {
					r.node, r.hasNode = nameRef{nd.Str(), u.at(nd)}, true
				}
				if c := val.Get("capability"); c.IsString() {
					r.cap = nameRef{c.Str(), u.at(c)}
				}
				rel := val.Get("relationship")
				var assigned bool
				if r.rel, assigned = v.relationship(u, rel, &rw); assigned {
					var types []nameRef
					v.interfaces(u, rel.Get("interfaces"), bare("relationship", &rw), &types)
					r.relIfs = collectIfaces(u, rel.Get("interfaces"))
				}
			default:
				return
			}
			n.reqs = append(n.reqs, r)
		})
	}
	if caps := x.Get("capabilities"); caps.IsMap() {
		for i, cn := range caps.Map().Keys() {
			ca := capAssign{name: cn, pos: keyPlace(u, caps, i)}
			if c := caps.Map().Val(i); !c.IsNull() {
				cw := sub("capability", cn, &what)
				if v.checkFields(u, c, cw, grammar().capabilityAssignFields, ca.pos) {
					if props := c.Get("properties"); props.IsMap() {
						ca.props = v.decodeProps(u, props, cw, ca.pos)
					}
				}
			}
			n.caps = append(n.caps, ca)
		}
	}
	artFields := pick(vr, grammar().artifactFieldsPlain, grammar().artifactFieldsVariable)
	v.entries(u, x.Get("artifacts"), bare("artifacts", &what), vr, func(an string, aat place, val *yamlsrc.Value) {
		if val.IsString() {
			return // short notation: the file
		}
		aw := sub("artifact", an, &what)
		if v.checkFields(u, val, aw, artFields, aat) {
			n.arts = append(n.arts, v.decodeTypes(u, val.Get("type"), aw)...)
			v.decodeProps(u, val.Get("properties"), aw, aat)
		}
	})
	v.interfaces(u, x.Get("interfaces"), what, &n.ifaces)
	n.ifUses = collectIfaces(u, x.Get("interfaces"))
	if tech := x.Get("technology"); tech.IsList() && vr {
		v.entries(u, tech, bare("technology", &what), true, func(tn string, tat place, val *yamlsrc.Value) {
			if !val.IsNull() {
				v.checkFields(u, val, sub("technology", tn, &what), grammar().technologyFields, tat)
			}
		})
	}
	return n
}

// function returns the name of the TOSCA (or Unfurl) function a property
// value calls, or "".
func function(x *yamlsrc.Value) string {
	if !x.IsMap() || x.Map().Len() != 1 {
		return ""
	}
	k := x.Map().Key(0)
	switch k {
	case "get_input", "get_property", "get_attribute", "get_operation_output", "get_nodes_of_type",
		"get_artifact", "concat", "join", "token", "eval":
		return k
	}
	if strings.HasPrefix(k, "$") {
		return k
	}
	return ""
}
