package validate

// Phase 5, inheritance: properties, capabilities and requirements are
// merged down the hierarchy (parents first), and an override must keep its
// parent's contract (go-puccini's prime directive): a property's type is
// the same or derived from the parent's, and a capability's type, or a
// requirement's capability type, is the same or derived from the parent's.

func (v *validator) inherit() {
	for _, u := range append(append([]*unit{}, v.order...), v.normative) {
		for k := range nKinds {
			for _, t := range u.defs[k] {
				v.inheritType(t)
			}
		}
	}
}

func (v *validator) inheritType(t *typeDef) {
	if t.done {
		return
	}
	t.done = true
	p := t.parent
	if p == nil {
		return
	}
	v.inheritType(p)
	what := sub(kindNames[t.kind], t.name, nil)
	parent := sub(kindNames[p.kind], p.name, nil)
	if t.props == nil {
		t.props = p.props
	} else if p.props != nil {
		merged := p.props.clone()
		for _, own := range t.props.list {
			if old := p.props.get(own.name); old != nil && !t.broken && !compatible(own, old) {
				v.add(own.typ.pos, "contract", "property %q of %s has type %q, which is not compatible with type %q of the property in its parent %s",
					own.name, what.text(), own.typ.name, old.typ.name, parent.text())
			}
			merged.put(own)
		}
		t.props = merged
	}
	t.caps = mergeOverrides(p.caps, t.caps, func(own, old *capDef) {
		if !own.hasSrc {
			own.validSrc, own.hasSrc, own.srcOwner = old.validSrc, old.hasSrc, old.srcOwner
		}
		if own.t != nil && old.t != nil && !t.broken && !isA(own.t, old.t) {
			v.add(own.typ.pos, "contract", "capability %q of %s has type %q, which is not derived from type %q of the capability in its parent %s",
				own.name, what.text(), own.typ.name, old.typ.name, parent.text())
		}
	})
	t.reqs = mergeOverrides(p.reqs, t.reqs, func(own, old *reqDef) {
		if own.capT != nil && old.capT != nil && !t.broken && !isA(own.capT, old.capT) {
			v.add(own.cap.pos, "contract", "requirement %q of %s has capability type %q, which is not derived from capability type %q of the requirement in its parent %s",
				own.name, what.text(), own.cap.name, old.cap.name, parent.text())
		}
		if own.nodeT != nil && old.nodeT != nil && !t.broken && !isA(own.nodeT, old.nodeT) {
			v.add(own.node.pos, "contract", "requirement %q of %s has node type %q, which is not derived from node type %q of the requirement in its parent %s",
				own.name, what.text(), own.node.name, old.node.name, parent.text())
		}
	})
}

// namedDef is a capability or requirement definition, known by its name.
type namedDef interface{ defName() string }

func (c *capDef) defName() string { return c.name }
func (r *reqDef) defName() string { return r.name }

// nameIndex returns the index of the first definition of list with name,
// or -1.
func nameIndex[T namedDef](list []T, name string) int {
	for i, d := range list {
		if d.defName() == name {
			return i
		}
	}
	return -1
}

// mergeOverrides merges the definitions own of a type over those of its
// parent: each one replaces the earlier one of its name in place, after
// override has seen both, or else comes last. Without own definitions the
// type shares the parent's list.
func mergeOverrides[T namedDef](parent, own []T, override func(own, old T)) []T {
	if len(own) == 0 {
		return parent
	}
	if len(parent) == 0 {
		return own
	}
	merged := append([]T{}, parent...)
	for _, o := range own {
		i := nameIndex(merged, o.defName())
		if i < 0 {
			merged = append(merged, o)
			continue
		}
		override(o, merged[i])
		merged[i] = o
	}
	return merged
}

// compatible reports whether a property of type own may override one of
// type old: the same primitive, a data type derived from the old one, or a
// data type derived from the old primitive. Unknown types were reported
// already and count as compatible.
func compatible(own, old *propDef) bool {
	if own.typ.name == "" || old.typ.name == "" {
		return true
	}
	switch {
	case old.dt == nil && primitives()[old.typ.name]:
		if own.dt == nil {
			return own.typ.name == old.typ.name || !primitives()[own.typ.name]
		}
		return own.dt.primitive == old.typ.name || own.dt.broken
	case old.dt != nil:
		if own.dt == nil {
			return !primitives()[own.typ.name]
		}
		return isA(own.dt, old.dt) || own.dt.broken || old.dt.broken
	}
	return true
}
