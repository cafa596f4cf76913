package validate

import (
	"slices"

	"v4t/model/yamlsrc"
)

// Operation names (TOSCA 1.3 §3.6.20, §3.6.21, §3.7.5): the operations
// and notifications of an interface definition (in a type) or assignment
// (in a template) must be defined by its interface type or that type's
// parents; an assignment may also name those its node or relationship
// type's definition of the interface adds. The syntax of interfaces is
// checked in syntax.go (interfaces); here they are only collected.

// ifaceUse is an interface definition or assignment.
type ifaceUse struct {
	name string
	pos  place
	typ  nameRef // its "type", if given
	ops  []opUse
}

// opUse is an operation (or notification) named in an interface.
type opUse struct {
	name  string
	pos   place
	notif bool
}

// collectIfaces reads the interfaces of a type or template, whose syntax
// interfaces has checked.
func collectIfaces(u *unit, ifs *yamlsrc.Value) []ifaceUse {
	if !ifs.IsMap() {
		return nil
	}
	out := make([]ifaceUse, 0, ifs.Map().Len())
	for i, in := range ifs.Map().Keys() {
		x := ifs.Map().Val(i)
		iu := ifaceUse{name: in, pos: keyPlace(u, ifs, i)}
		if x.IsMap() {
			for j, key := range x.Map().Keys() {
				val := x.Map().Val(j)
				switch key {
				case "type":
					if val.IsString() {
						iu.typ = nameRef{val.Str(), u.at(val)}
					}
				case "description", "inputs":
				case "operations", "notifications":
					if val.IsMap() {
						for k, on := range val.Map().Keys() {
							iu.ops = append(iu.ops, opUse{name: on, pos: keyPlace(u, val, k), notif: key == "notifications"})
						}
					}
				default:
					iu.ops = append(iu.ops, opUse{name: key, pos: keyPlace(u, x, j)})
				}
			}
		}
		out = append(out, iu)
	}
	return out
}

// interfaceOps records the operations and notifications an interface type
// defines: under operations and notifications, or (TOSCA 1.2) as keys of
// their own.
func interfaceOps(t *typeDef, def *yamlsrc.Value) {
	if !def.IsMap() {
		return
	}
	for i, key := range def.Map().Keys() {
		if _, ok := grammar().typeFields.m[key]; ok || key == "inputs" {
			continue
		}
		x := def.Map().Val(i)
		switch key {
		case "operations":
			if x.IsMap() {
				t.ops = append(t.ops, x.Map().Keys()...)
			}
		case "notifications":
			if x.IsMap() {
				t.notifs = append(t.notifs, x.Map().Keys()...)
			}
		default:
			t.ops = append(t.ops, key)
		}
	}
}

// definesOp reports whether the interface type it or one of its parents
// defines the operation (or notification) name.
func definesOp(it *typeDef, name string, notif bool) bool {
	for ; it != nil; it = it.parent {
		list := it.ops
		if notif {
			list = it.notifs
		}
		if slices.Contains(list, name) {
			return true
		}
	}
	return false
}

// typeIface finds the definition of interface name in type t or its
// parents: its interface type (from the nearest definition that names
// one), and whether any definition was found.
func (v *validator) typeIface(t *typeDef, name string) (it *typeDef, found bool) {
	for ; t != nil; t = t.parent {
		for i := range t.ifDefs {
			d := &t.ifDefs[i]
			if d.name != name {
				continue
			}
			found = true
			if d.typ.name != "" {
				return v.find(t.u, kInterface, d.typ.name), true
			}
		}
	}
	return nil, found
}

// typeDefinesOp reports whether a definition of interface name in t or its
// parents names the operation.
func typeDefinesOp(t *typeDef, name string, op opUse) bool {
	for ; t != nil; t = t.parent {
		for i := range t.ifDefs {
			d := &t.ifDefs[i]
			if d.name != name {
				continue
			}
			for _, o := range d.ops {
				if o.name == op.name && o.notif == op.notif {
					return true
				}
			}
		}
	}
	return false
}

// checkTypeIfaces checks the operations of the interface definitions of a
// node, relationship or group type against their interface types.
func (v *validator) checkTypeIfaces(t *typeDef) {
	if t.broken || len(t.ifDefs) == 0 {
		return
	}
	what := sub(kindNames[t.kind], t.name, nil)
	for i := range t.ifDefs {
		d := &t.ifDefs[i]
		if len(d.ops) == 0 {
			continue
		}
		it, _ := v.typeIface(t, d.name)
		if it == nil || it.broken {
			continue
		}
		iw := sub("interface", d.name, &what)
		for _, op := range d.ops {
			if !definesOp(it, op.name, op.notif) {
				v.undefinedOp(op, iw, it, nil, "")
			}
		}
	}
}

// checkIfaceUses checks interface assignments of a template of type t (nil:
// unknown, or alternatives): each interface is defined by t, unless the
// assignment names its type, and each operation by the interface type or
// t's definition of the interface.
func (v *validator) checkIfaceUses(u *unit, t *typeDef, uses []ifaceUse, what subject) {
	for i := range uses {
		a := &uses[i]
		var it *typeDef
		found := false
		if t != nil && !t.broken {
			it, found = v.typeIface(t, a.name)
		}
		if a.typ.name != "" {
			it = v.find(u, kInterface, a.typ.name)
		} else if t != nil && !t.broken && !found {
			v.add(a.pos.pos(), "undefined", "interface %q of %s is not defined by %s %q%s", a.name, what.text(), kindNames[t.kind], t.name, v.suggestIface(t, a.name))
			continue
		}
		if it == nil || it.broken || len(a.ops) == 0 {
			continue
		}
		iw := sub("interface", a.name, &what)
		for _, op := range a.ops {
			if definesOp(it, op.name, op.notif) || (a.typ.name == "" && typeDefinesOp(t, a.name, op)) {
				continue
			}
			tt := t
			if a.typ.name != "" {
				tt = nil
			}
			v.undefinedOp(op, iw, it, tt, a.name)
		}
	}
}

// undefinedOp reports an operation that the interface type it does not
// define, with the closest one it (or t's definition of interface name)
// does.
func (v *validator) undefinedOp(op opUse, iw subject, it, t *typeDef, name string) {
	noun := "operation"
	if op.notif {
		noun = "notification"
	}
	hint := v.suggest(op.name, func(yield func(string) bool) {
		for p := it; p != nil; p = p.parent {
			list := p.ops
			if op.notif {
				list = p.notifs
			}
			for _, o := range list {
				if !yield(o) {
					return
				}
			}
		}
		for ; t != nil; t = t.parent {
			for i := range t.ifDefs {
				if t.ifDefs[i].name != name {
					continue
				}
				for _, o := range t.ifDefs[i].ops {
					if o.notif == op.notif && !yield(o.name) {
						return
					}
				}
			}
		}
	})
	v.add(op.pos.pos(), "undefined", "%s %q of %s is not defined by interface type %q%s", noun, op.name, iw.text(), it.name, hint)
}

func (v *validator) suggestIface(t *typeDef, name string) string {
	return v.suggest(name, func(yield func(string) bool) {
		for ; t != nil; t = t.parent {
			for i := range t.ifDefs {
				if !yield(t.ifDefs[i].name) {
					return
				}
			}
		}
	})
}
