package validate

import (
	"slices"
	"strings"

	"v4t/model/tosca"
)

// Phase 4, hierarchy: every derived_from names an existing type of the
// same kind, and no type derives from itself through its parents. Types
// whose hierarchy is incomplete are marked broken, so that later phases do
// not pile consequences on the same mistake.

func (v *validator) hierarchy() {
	all := append(append([]*unit{}, v.order...), v.normative)
	for _, u := range all {
		for k := range nKinds {
			for _, t := range u.defs[k] {
				v.parentOf(t)
			}
		}
	}
	for _, u := range all {
		for k := range nKinds {
			for _, t := range u.defs[k] {
				v.walk(t)
			}
		}
	}
}

func (v *validator) parentOf(t *typeDef) {
	name := t.parentN
	if name == "" || name == tosca.EntityRoot {
		return
	}
	if t.kind == kData && primitives()[name] {
		t.primitive = name
		return
	}
	p := v.find(t.u, t.kind, name)
	if p == nil {
		if o, ok := v.otherKind(t.u, t.kind, name); ok {
			v.add(t.parentP, "parent", "%s %q derives from %q, which is a %s", kindNames[t.kind], t.name, name, kindNames[o])
			t.broken = true
			return
		}
		v.add(t.parentP, "parent", "%s %q derives from unknown %s %q%s", kindNames[t.kind], t.name, kindNames[t.kind], name, v.suggestType(t.u, t.kind, name))
		t.broken = true
		return
	}
	t.parent = p
}

// walk walks the types from t up to the first one already walked
// (tosca.Ancestors); a type met again closes a loop, which is reported at
// its derived_from, marked broken and cut, so that later phases walk
// finite chains.
func (v *validator) walk(t *typeDef) {
	if t.walked {
		return
	}
	path, loop := tosca.Ancestors(t, func(d *typeDef) (*typeDef, bool) {
		return d.parent, d.parent != nil && !d.parent.walked
	})
	if loop != nil {
		names := make([]string, 0, len(loop)+1)
		for _, l := range loop {
			names = append(names, l.name)
		}
		names = append(names, loop[0].name)
		v.add(loop[0].parentP, "loop", "derived_from loop: %s", strings.Join(names, " → "))
		for _, l := range loop {
			l.broken = true
		}
		loop[len(loop)-1].parent = nil
	}
	for _, p := range slices.Backward(path) {

		p.walked = true
		if p.parent != nil && p.parent.broken {
			p.broken = true
		}
		if p.kind == kData && p.parent != nil && p.primitive == "" {
			p.primitive = p.parent.primitive
		}
	}
}

// isA reports whether t is anc or derives from it.
func isA(t, anc *typeDef) bool {
	for ; t != nil; t = t.parent {
		if t == anc {
			return true
		}
	}
	return false
}
