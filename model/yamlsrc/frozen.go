package yamlsrc

// Frozen holds a document that is parsed once and copied for each use, such
// as the embedded normative types that every resolve merges into its
// template (and then changes: normalisation, type markers). Nothing reads
// or writes the frozen value itself after Freeze, so one Frozen may be
// copied by many goroutines at a time; each Copy is the copy's owner's to
// change.
//
// A copy costs a handful of allocations, not one per value: its values,
// maps and slots live in a few shared slices, with each map's and list's
// part capped so that growing one reallocates it rather than overwriting
// its neighbour.
type Frozen struct {
	v *Value
	// shared reports a value reachable on two paths (an alias): Copy then
	// falls back to Clone, which keeps the sharing.
	shared bool
	// The sizes of a copy: values, maps, map keys and value slots (map
	// values and list items).
	values, maps, keys, slots int
}

// Freeze takes v for copying. v must not be used otherwise afterwards.
func Freeze(v *Value) *Frozen {
	f := &Frozen{v: v}
	seen := map[*Value]bool{}
	var walk func(v *Value)
	walk = func(v *Value) {
		if v == nil || f.shared {
			return
		}
		if seen[v] {
			f.shared = true
			return
		}
		seen[v] = true
		f.values++
		switch v.Kind {
		case KindMap:
			if v.Map == nil {
				return
			}
			// Drop tombstones now: Copy reads keys and vals as they are.
			v.Map.compact()
			f.maps++
			f.keys += int(v.Map.n)
			f.slots += int(v.Map.n)
			for _, x := range v.Map.vals() {
				walk(x)
			}
		case KindList:
			f.slots += len(v.List)
			for _, x := range v.List {
				walk(x)
			}
		}
	}
	walk(v)
	return f
}

// Copy returns a deep copy of the frozen value, equal to Clone's.
func (f *Frozen) Copy() *Value {
	if f.shared {
		return Clone(f.v)
	}
	c := copier{
		values: make([]Value, f.values),
		maps:   make([]Map, f.maps),
		keys:   make([]string, f.keys),
		slots:  make([]*Value, f.slots),
	}
	return c.copy(f.v)
}

type copier struct {
	values []Value
	maps   []Map
	keys   []string
	slots  []*Value
}

func (c *copier) copy(v *Value) *Value {
	if v == nil {
		return nil
	}
	d := &c.values[0]
	c.values = c.values[1:]
	*d = Value{Kind: v.Kind, Bool: v.Bool, Line: v.Line, Col: v.Col, Num: v.Num, Str: v.Str}
	switch v.Kind {
	case KindMap:
		if v.Map == nil {
			return d
		}
		m := &c.maps[0]
		c.maps = c.maps[1:]
		if n := v.Map.nInt(); n != 0 {
			m.x = &mapExtra{nInt: n}
		}
		n := int(v.Map.n)
		keys, vals := c.keys[:n:n], c.slots[:n:n]
		c.keys, c.slots = c.keys[n:], c.slots[n:]
		copy(keys, v.Map.keys())
		for i, x := range v.Map.vals() {
			vals[i] = c.copy(x)
		}
		m.setEntries(keys, vals)
		d.Map = m
	case KindList:
		// Never nil, as with Clone.
		n := len(v.List)
		d.List = c.slots[:n:n]
		c.slots = c.slots[n:]
		for i, x := range v.List {
			d.List[i] = c.copy(x)
		}
	}
	return d
}
