package yamlsrc

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"

	"v4t/model/reuse"
)

// Frozen holds a document that is parsed once and copied for each use, such
// as the embedded normative types that every resolve merges into its
// template (and then changes: normalisation, type markers). Nothing reads
// or writes the frozen value itself after Freeze, so one Frozen may be
// copied by many goroutines at a time; each Copy's maps and lists are the
// copy's owner's to change, except for the subtrees Freeze was told to
// share.
//
// The scalars (strings, numbers, booleans, dates, nulls) are not copied:
// every copy holds the frozen value's own, so their owners replace a
// scalar in its map or list and never change one in place (nothing in
// v4t does; values are built, not edited). Scalars were two fifths of the
// values a copy wrote (most values of a template are small maps): sharing
// them cut a copy's bytes by a quarter, and the bytes a batch of the
// generated benchmark space allocates by 4.5%. Watch and Verify cover them
// as they cover the shared subtrees.
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
	// The sizes of a copy: values (maps and lists), maps, map keys and
	// value slots (map values and list items).
	values, maps, keys, slots int
	// readOnly holds the subtrees that every copy shares, each with its
	// fingerprint at Watch (Verify); watched tells that Watch ran, and
	// whole is the frozen value's fingerprint then, which covers the
	// scalars the copies share.
	readOnly map[*Value]uint64
	watched  bool
	whole    uint64
	// readOnlyDepth is the depth of the deepest shared subtree (the
	// frozen value 0, its entries and items 1, ...): Copy looks values up
	// in readOnly down to it only. The shared type definitions of a
	// template sit at depth 2, and looking up every map and list of a
	// copy was a fifth of the copy's instructions.
	readOnlyDepth int
}

// Freeze takes v for copying. v must not be used otherwise afterwards.
//
// The subtrees of v named in readOnly are not copied: every copy holds them
// as they are, and their owners must not change them (a batch's runs share
// the type definitions their template imports this way, which most of a
// short run's copy would otherwise be). Freeze builds the key indexes that
// a lookup in them would otherwise build on first use, so that any number
// of goroutines may read them at once; Watch and Verify tell whether an
// owner changed one all the same. A value that is not in v is ignored.
func Freeze(v *Value, readOnly ...*Value) *Frozen {
	f := &Frozen{v: v}
	if len(readOnly) > 0 {
		f.readOnly = make(map[*Value]uint64, len(readOnly))
		for _, x := range readOnly {
			f.readOnly[x] = 0
		}
	}
	seen := map[*Value]bool{}
	depths := map[*Value]int{}
	var walk func(v *Value, copied bool, depth int)
	walk = func(v *Value, copied bool, depth int) {
		if v == nil || f.shared || v.Kind != KindMap && v.Kind != KindList {
			// Copies share every scalar, however often the document
			// holds it, so only maps and lists are looked up (a map
			// insert per scalar was half of freezing the normative
			// profile, which every resolve does).
			return
		}
		if seen[v] {
			f.shared = true
			return
		}
		seen[v] = true
		if _, ok := f.readOnly[v]; ok {
			if !copied {
				// Inside another shared subtree, which covers it.
				delete(f.readOnly, v)
			} else {
				copied = false
				depths[v] = depth
			}
		}
		if copied {
			f.values++
		}
		switch v.Kind {
		case KindMap:
			if v.Map() == nil {
				return
			}
			// Drop tombstones now: Copy reads keys and vals as they are.
			v.Map().compact()
			if copied {
				f.maps++
				f.keys += int(v.Map().n)
				f.slots += int(v.Map().n)
			} else {
				v.Map().index()
			}
			for _, x := range v.Map().vals() {
				walk(x, copied, depth+1)
			}
		case KindList:
			if copied {
				f.slots += len(v.List())
			}
			for _, x := range v.List() {
				walk(x, copied, depth+1)
			}
		}
	}
	walk(v, true, 0)
	for x := range f.readOnly {
		if !seen[x] {
			delete(f.readOnly, x)
		} else {
			f.readOnlyDepth = max(f.readOnlyDepth, depths[x])
		}
	}
	return f
}

// fingerprintSeed seeds the fingerprints of shared subtrees; they are
// compared only within a process.
var fingerprintSeed = maphash.MakeSeed()

// fingerprint hashes all of v that a change could change: kinds,
// positions, scalars, keys and the order of entries and items.
func fingerprint(v *Value) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	var walk func(v *Value)
	walk = func(v *Value) {
		if v == nil {
			h.WriteByte(0xff)
			return
		}
		var b [26]byte
		b[0], b[1] = byte(v.Kind), 0
		if v.Bool {
			b[1] = 1
		}
		binary.LittleEndian.PutUint32(b[2:], uint32(v.Line))
		binary.LittleEndian.PutUint32(b[6:], uint32(v.Col))
		binary.LittleEndian.PutUint64(b[10:], math.Float64bits(v.Num()))
		binary.LittleEndian.PutUint64(b[18:], uint64(len(v.Str())))
		h.Write(b[:])
		h.WriteString(v.Str())
		switch v.Kind {
		case KindMap:
			if v.Map() == nil {
				return
			}
			for i, k := range v.Map().keys() {
				h.WriteString(k)
				h.WriteByte(0)
				walk(v.Map().vals()[i])
			}
		case KindList:
			for _, x := range v.List() {
				walk(x)
			}
		}
	}
	walk(v)
	return h.Sum64()
}

// Watch records the state of the subtrees shared by the copies, for
// Verify. It reads every shared value, which is why Freeze leaves it to
// the callers that check (tests): every v4t process that resolves freezes
// the normative types, and hashing them at Freeze took 1% of a small
// resolve's whole process. Call it before the first Copy.
func (f *Frozen) Watch() {
	for x := range f.readOnly {
		f.readOnly[x] = fingerprint(x)
	}
	f.whole = fingerprint(f.v)
	f.watched = true
}

// Verify reports an error when a subtree shared by the copies is no longer
// as it was at Watch: some copy's owner changed it, and with it every
// other copy. Tests call it; the check reads every shared value.
func (f *Frozen) Verify() error {
	if !f.watched {
		return fmt.Errorf("yamlsrc: Verify of a frozen document that is not watched")
	}
	for x, sum := range f.readOnly {
		if fingerprint(x) != sum {
			return fmt.Errorf("a value shared by the copies of a frozen document was changed: %s at %d:%d", truncate(JSON(x), 80), x.Line, x.Col)
		}
	}
	if !f.shared && fingerprint(f.v) != f.whole {
		// Only a shared scalar can have changed: the frozen value's maps
		// and lists are its own.
		return fmt.Errorf("a scalar shared by the copies of a frozen document was changed")
	}
	return nil
}

// Copy returns a copy of the frozen value, equal to Clone's, that shares
// its scalars and read-only subtrees with the frozen value (Frozen).
func (f *Frozen) Copy() *Value { return f.CopyTo(nil) }

// CopyArrays keeps the arrays of one owner's copies from one run to the
// next (reuse): a batch worker copies a template for every run and drops
// the copy at the run's end.
type CopyArrays struct {
	values reuse.Arrays[Value]
	maps   reuse.Arrays[Map]
	keys   reuse.Arrays[string]
	slots  reuse.Arrays[*Value]
}

// Reset makes the arrays of the copies made since the last Reset available
// to the next copies: nothing may use those copies afterwards.
func (a *CopyArrays) Reset() {
	if a != nil {
		a.values.Reset()
		a.maps.Reset()
		a.keys.Reset()
		a.slots.Reset()
	}
}

// CopyTo is Copy, with the copy's arrays taken from a (nil: allocated).
func (f *Frozen) CopyTo(a *CopyArrays) *Value {
	if f.shared {
		return Clone(f.v)
	}
	c := copier{readOnly: f.readOnly, depth: f.readOnlyDepth}
	if a == nil {
		c.values, c.maps = make([]Value, f.values), make([]Map, f.maps)
		c.keys, c.slots = make([]string, f.keys), make([]*Value, f.slots)
	} else {
		c.values, c.maps = a.values.Make(f.values), a.maps.Make(f.maps)
		c.keys, c.slots = a.keys.Make(f.keys), a.slots.Make(f.slots)
	}
	return c.copy(f.v)
}

type copier struct {
	readOnly map[*Value]uint64
	// depth is how many levels below the value being copied may still
	// hold a shared subtree (Frozen.readOnlyDepth), negative where none.
	depth  int
	values []Value
	maps   []Map
	keys   []string
	slots  []*Value
}

func (c *copier) copy(v *Value) *Value {
	if v == nil {
		return nil
	}
	if v.Kind != KindMap && v.Kind != KindList {
		return v
	}
	if c.depth >= 0 && len(c.readOnly) > 0 {
		if _, ok := c.readOnly[v]; ok {
			return v
		}
	}
	d := &c.values[0]
	c.values = c.values[1:]
	// The map or list is replaced below.
	*d = *v
	switch v.Kind {
	case KindMap:
		if v.Map() == nil {
			return d
		}
		m := &c.maps[0]
		c.maps = c.maps[1:]
		if n := v.Map().nInt(); n != 0 {
			m.x = &mapExtra{nInt: n}
		}
		n := int(v.Map().n)
		keys, vals := c.keys[:n:n], c.slots[:n:n]
		c.keys, c.slots = c.keys[n:], c.slots[n:]
		copy(keys, v.Map().keys())
		c.depth--
		for i, x := range v.Map().vals() {
			vals[i] = c.copy(x)
		}
		c.depth++
		m.setEntries(keys, vals)
		d.SetMap(m)
	case KindList:
		// Never nil, as with Clone.
		n := len(v.List())
		d.SetList(c.slots[:n:n])
		c.slots = c.slots[n:]
		c.depth--
		items := d.List()
		for i, x := range v.List() {
			items[i] = c.copy(x)
		}
		c.depth++
	}
	return d
}
