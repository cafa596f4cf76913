package validate

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Phase 6, rendering: the templates of the root's topology against their
// types (TOSCA 1.3 §3.8).

func (v *validator) render(root *unit) {
	for _, u := range v.order {
		for _, k := range []typeKind{kNode, kRelationship, kGroup} {
			for _, t := range u.defs[k] {
				v.checkTypeIfaces(t)
			}
		}
	}
	top := root.topo
	if top == nil {
		return
	}
	for _, d := range top.defaults {
		v.lookupProp(root, d.def)
		in := sub(d.noun, d.name, nil)
		v.checkValue(root, d.value, d.def, bare("default", &in), 0)
	}
	for _, n := range top.nodes {
		if v.ctx.Err() != nil {
			return
		}
		v.renderNode(root, top, n)
	}
	for _, r := range top.relList {
		what := sub("relationship template", r.name, nil)
		t := v.single(root, kRelationship, r.types)
		v.renderProps(root, top, t, r.props, what, r.pos)
		for _, i := range r.ifaces {
			v.lookup(root, kInterface, i)
		}
		v.checkIfaceUses(root, t, r.ifUses, what)
	}
	for _, g := range append(append([]*entityTemplate{}, top.groups...), top.policies...) {
		noun := "group"
		if g.kind == kPolicy {
			noun = "policy"
		}
		what := sub(noun, g.name, nil)
		t := v.single(root, g.kind, g.types)
		v.renderProps(root, top, t, g.props, what, g.pos)
		if g.kind == kGroup {
			v.renderMembers(root, top, g)
		} else {
			v.renderTargets(root, top, g)
		}
	}
}

// single looks up the types of a template and returns the type when there
// is exactly one (a template with alternative types is checked against
// none of them) and its hierarchy is complete.
func (v *validator) single(u *unit, k typeKind, refs []nameRef) *typeDef {
	var t *typeDef
	for _, r := range refs {
		t = v.lookup(u, k, r)
	}
	if len(refs) != 1 || t == nil || t.broken {
		return nil
	}
	return t
}

func (v *validator) renderNode(u *unit, top *topology, n *nodeTemplate) {
	what := sub("node template", n.name, nil)
	for _, a := range n.arts {
		v.lookup(u, kArtifact, a)
	}
	for _, i := range n.ifaces {
		v.lookup(u, kInterface, i)
	}
	t := v.single(u, kNode, n.types)
	v.renderProps(u, top, t, n.props, what, n.pos)
	v.checkIfaceUses(u, t, n.ifUses, what)
	for _, r := range n.reqs {
		v.renderReq(u, top, t, n, r, what)
	}
	if t == nil {
		for _, c := range n.caps {
			for _, p := range c.props {
				v.checkInputs(u, top, p.value)
			}
		}
		return
	}
	ofType := sub("node type", t.name, nil)
	for _, c := range n.caps {
		v.renderCap(u, top, t, c, what, ofType)
	}
	for _, d := range t.reqs {
		if !d.hasOcc || d.occLower == 0 {
			continue
		}
		count := 0
		for _, r := range n.reqs {
			if r.name == d.name {
				count++
			}
		}
		if count < d.occLower {
			v.add(n.pos.pos(), "occurrences", "%s has %d %q requirements, fewer than the lower bound %d of occurrences in %s", what.text(), count, d.name, d.occLower, ofType.text())
		}
	}
}

func (v *validator) renderReq(u *unit, top *topology, t *typeDef, n *nodeTemplate, r reqAssign, what subject) {
	rw := sub("requirement", r.name, &what)
	if r.rel.name != "" && top.rels[r.rel.name] == nil && v.find(u, kRelationship, r.rel.name) == nil {
		v.add(r.rel.pos, "not-found", "relationship %q of %s is neither a relationship template nor a relationship type%s", r.rel.name, rw.text(), v.suggestRel(u, top, r.rel.name))
	}
	if len(r.relIfs) > 0 {
		for _, i := range r.relIfs {
			v.lookup(u, kInterface, i.typ)
		}
		rt := v.find(u, kRelationship, r.rel.name)
		v.checkIfaceUses(u, rt, r.relIfs, bare("relationship", &rw))
	}
	var def *reqDef
	if t != nil {
		if i := nameIndex(t.reqs, r.name); i >= 0 {
			def = t.reqs[i]
		} else {
			v.add(r.pos.pos(), "undefined", "%s is not defined by node type %q", rw.text(), t.name)
		}
	}
	if !r.hasNode {
		return
	}
	target := top.byName[r.node.name]
	if target == nil {
		if v.find(u, kNode, r.node.name) != nil {
			return // an abstract requirement: any node template of that type
		}
		v.add(r.node.pos, "not-found", "target node template %q of %s not found%s", r.node.name, rw.text(), v.suggestNode(top, r.node.name))
		return
	}
	if def == nil || len(target.types) != 1 {
		return
	}
	tt := v.find(u, kNode, target.types[0].name)
	if tt == nil || tt.broken {
		return
	}
	if def.nodeT != nil && !isA(tt, def.nodeT) {
		v.add(r.node.pos, "target-type", "target node template %q of %s has type %q, which is not derived from %q", r.node.name, rw.text(), tt.name, def.nodeT.name)
		return
	}
	if def.capT != nil && r.cap.name == "" && !hasCap(tt, def.capT) {
		v.add(r.node.pos, "target-type", "target node template %q of %s has no capability of type %q", r.node.name, rw.text(), def.capT.name)
		return
	}
	v.checkValidSource(u, t, tt, def, r, rw)
}

// hasCap reports whether node type t has a capability of type ct.
func hasCap(t, ct *typeDef) bool {
	for _, c := range t.caps {
		if c.t != nil && isA(c.t, ct) {
			return true
		}
	}
	return false
}

// renderCap checks a capability assignment of a node template of type t:
// the capability is defined by t, and its properties by the capability's
// type, with values of their declared types. Required capability
// properties are not enforced: the runtime fills many of them.
func (v *validator) renderCap(u *unit, top *topology, t *typeDef, c capAssign, what, ofType subject) {
	for _, p := range c.props {
		v.checkInputs(u, top, p.value)
	}
	i := nameIndex(t.caps, c.name)
	if i < 0 {
		v.add(c.pos.pos(), "undefined", "capability %q of %s is not defined by %s", c.name, what.text(), ofType.text())
		return
	}
	ct := t.caps[i].t
	if ct == nil || ct.broken {
		return
	}
	cw := sub("capability", c.name, &what)
	for _, p := range c.props {
		def := ct.props.get(p.name)
		if def == nil {
			v.add(p.pos.pos(), "undefined", "property %q of %s is not defined by capability type %q%s", p.name, cw.text(), ct.name, v.suggestProp(ct, p.name))
			continue
		}
		v.checkValue(u, p.value, def, sub("property", p.name, &cw), 0)
	}
}

func (v *validator) suggestNode(top *topology, name string) string {
	return v.suggest(name, func(yield func(string) bool) {
		for _, n := range top.nodes {
			if !yield(n.name) {
				return
			}
		}
	})
}

func (v *validator) suggestRel(u *unit, top *topology, name string) string {
	return v.suggest(name, func(yield func(string) bool) {
		for _, r := range top.relList {
			if !yield(r.name) {
				return
			}
		}
		for _, n := range u.ns.order[kRelationship] {
			if !yield(n) {
				return
			}
		}
	})
}

// renderProps checks property assignments against the type t (nil: only
// get_input references are checked).
func (v *validator) renderProps(u *unit, top *topology, t *typeDef, props []propAssign, what subject, at place) {
	for _, p := range props {
		v.checkInputs(u, top, p.value)
	}
	if t == nil {
		return
	}
	ofType := sub(kindNames[t.kind], t.name, nil)
	assigned := make(map[string]bool, len(props))
	for _, p := range props {
		assigned[p.name] = true
		def := t.props.get(p.name)
		if def == nil {
			v.add(p.pos.pos(), "undefined", "property %q of %s is not defined by %s%s", p.name, what.text(), ofType.text(), v.suggestProp(t, p.name))
			continue
		}
		v.skipCons = p.alt
		v.checkValue(u, p.value, def, sub("property", p.name, &what), 0)
		v.skipCons = false
	}
	if t.props == nil || v.unreadProps[at] {
		return
	}
	for _, d := range t.props.list {
		if d.required && !d.hasDef && !assigned[d.name] {
			v.add(at.pos(), "required", "%s misses required property %q of %s", what.text(), d.name, ofType.text())
		}
	}
}

func (v *validator) suggestProp(t *typeDef, name string) string {
	if t.props == nil {
		return ""
	}
	return v.suggest(name, func(yield func(string) bool) {
		for _, p := range t.props.list {
			if !yield(p.name) {
				return
			}
		}
	})
}

// checkInputs reports get_input calls (anywhere in a value) that name no
// topology input.
func (v *validator) checkInputs(u *unit, top *topology, x *yamlsrc.Value) {
	if x == nil {
		return
	}
	switch x.Kind {
	case yamlsrc.KindMap:
		if function(x) == "get_input" {
			arg := x.Map().Val(0)
			if arg.IsList() && len(arg.List()) > 0 {
				arg = arg.List()[0]
			}
			if arg.IsString() && !top.inputs[arg.Str()] {
				v.add(u.at(arg), "not-found", "input %q of get_input not found", arg.Str())
			}
			return
		}
		for i := 0; i < x.Map().Len(); i++ {
			v.checkInputs(u, top, x.Map().Val(i))
		}
	case yamlsrc.KindList:
		for _, e := range x.List() {
			v.checkInputs(u, top, e)
		}
	}
}

// maxValueDepth bounds the nesting of data type values checked.
const maxValueDepth = 64

// checkValue checks a value against a property definition's type.
func (v *validator) checkValue(u *unit, x *yamlsrc.Value, def *propDef, what subject, depth int) {
	if x == nil || x.IsNull() || function(x) != "" || def == nil || depth > maxValueDepth {
		return
	}
	typ := def.typ.name
	if def.dt != nil {
		if def.dt.broken {
			return
		}
		if def.dt.primitive != "" {
			typ = def.dt.primitive
		} else {
			v.checkData(u, x, def.dt, what, depth)
			return
		}
	}
	failed := false
	bad := func(expected string) {
		failed = true
		v.add(u.at(x), "value-type", "expected %s for %s of type %q, found %s", expected, what.text(), def.typ.name, describe(x))
	}
	switch typ {
	case "string":
		if !x.IsString() {
			bad("a string")
		}
	case "integer":
		if x.Kind != yamlsrc.KindNumber || x.Num() != math.Trunc(x.Num()) {
			bad("an integer")
		}
	case "float":
		if x.Kind != yamlsrc.KindNumber {
			bad("a float")
		}
	case "boolean":
		if x.Kind != yamlsrc.KindBool {
			bad("a boolean")
		}
	case "timestamp":
		if x.Kind != yamlsrc.KindTime && !x.IsString() {
			bad("a timestamp")
		}
	case "version":
		if !x.IsString() && x.Kind != yamlsrc.KindNumber {
			bad("a version")
		}
	case "range":
		if !x.IsList() || len(x.List()) != 2 {
			bad("a range [lower, upper]")
		}
	case "list":
		if !x.IsList() {
			bad("a list")
			return
		}
		if def.entry != nil {
			for _, e := range x.List() {
				v.checkValue(u, e, def.entry, bare("an entry", &what), depth+1)
			}
		}
	case "map":
		if !x.IsMap() {
			bad("a map")
			return
		}
		if def.entry != nil {
			for i := 0; i < x.Map().Len(); i++ {
				v.checkValue(u, x.Map().Val(i), def.entry, sub("entry", x.Map().Key(i), &what), depth+1)
			}
		}
	case "scalar-unit.size", "scalar-unit.time", "scalar-unit.frequency", "scalar-unit.bitrate":
		if !x.IsString() || !scalarUnit(x.Str(), units()[typ]) {
			bad("a " + typ)
		}
	}
	// The list and map cases return when the value is not one.
	if !failed && (len(def.cons) > 0 || def.dt != nil) && primitives()[typ] {
		v.checkConstraints(u, x, def, typ, what)
	}
}

func (v *validator) checkData(u *unit, x *yamlsrc.Value, dt *typeDef, what subject, depth int) {
	if !x.IsMap() {
		v.add(u.at(x), "value-type", "expected a map for %s of data type %q, found %s", what.text(), dt.name, describe(x))
		return
	}
	for i, k := range x.Map().Keys() {
		p := dt.props.get(k)
		if p == nil {
			v.add(u.keyAt(x, i), "undefined", "field %q of %s is not defined by data type %q", k, what.text(), dt.name)
			continue
		}
		v.checkValue(u, x.Map().Val(i), p, sub("field", k, &what), depth+1)
	}
	if dt.props == nil {
		return
	}
	for _, p := range dt.props.list {
		if p.required && !p.hasDef && !x.Has(p.name) {
			v.add(u.at(x), "required", "%s misses required field %q of data type %q", what.text(), p.name, dt.name)
		}
	}
}

// describe renders a value's kind, and a short scalar's text, for messages.
func describe(x *yamlsrc.Value) string {
	switch x.Kind {
	case yamlsrc.KindString:
		if len(x.Str()) <= 40 {
			return "the string " + strconv.Quote(x.Str())
		}
	case yamlsrc.KindNumber:
		return "the number " + strconv.FormatFloat(x.Num(), 'g', -1, 64)
	case yamlsrc.KindBool:
		return "the boolean " + strconv.FormatBool(x.Bool)
	}
	return graph.Describe(x)
}

var units = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"scalar-unit.size":      {"b", "kb", "kib", "mb", "mib", "gb", "gib", "tb", "tib"},
		"scalar-unit.time":      {"d", "h", "m", "s", "ms", "us", "ns"},
		"scalar-unit.frequency": {"hz", "khz", "mhz", "ghz"},
		"scalar-unit.bitrate":   {"bps", "kbps", "kibps", "mbps", "mibps", "gbps", "gibps", "tbps", "tibps"},
	}
})

// scalarUnit reports whether s is "<number> <unit>" with a known unit
// (units compared without case, TOSCA 1.3 §3.3.6).
func scalarUnit(s string, known []string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexFunc(s, func(r rune) bool { return (r >= '0' && r <= '9') || r == '.' })
	if i < 0 {
		return false
	}
	num, unit := strings.TrimSpace(s[:i+1]), strings.TrimSpace(s[i+1:])
	if _, err := strconv.ParseFloat(num, 64); err != nil {
		return false
	}
	for _, k := range known {
		if strings.EqualFold(unit, k) {
			return true
		}
	}
	return false
}
