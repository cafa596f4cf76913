package yamlsrc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A snapshot is a document in a compact binary form, for a document that
// every process reads (the embedded normative profile): decoding it makes
// the values without scanning YAML, and the strings of the values are
// substrings of the snapshot. Parsing the profile's 34 KB was most of the
// parse stage of a small template's resolve (ring seed 10: 1 of its 1.3
// ms). A test compares the snapshot with the parsed document, positions
// included, and rewrites it with -update. The form is our own rather than
// encoding/gob's: gob decodes through reflection into types of its own,
// which would then be copied into values, where this decoder makes the
// values in slabs and shares the snapshot's bytes as their strings.
//
// The form: the magic, the counts of strings, values, maps, map entries
// and list items; the strings, each its length and bytes; then the values
// in preorder, each a byte of kind and flags, its line and column, then by
// kind a string's index, a number's float64 bits (little endian), a map's
// length, count of array-index keys (Map.nInt) and entries (key index,
// value), a list's length and items; and the index of the string another
// kind carries, where it has one.
const snapshotMagic = "v4tsnap1"

// The flags of a value's first byte, above its kind.
const (
	snapTrue   = 1 << 3 // Bool
	snapStr    = 1 << 4 // a kind other than string carries a string
	snapNilRef = 1 << 5 // a map or list value without its map or list
)

// EncodeSnapshot encodes the document v. A value that the document holds
// twice (an alias) is an error: the decoded document would hold two.
func EncodeSnapshot(v *Value) ([]byte, error) {
	e := snapEncoder{index: map[string]int{}, seen: map[*Value]bool{}}
	if err := e.count(v); err != nil {
		return nil, err
	}
	out := []byte(snapshotMagic)
	for _, n := range []int{len(e.strs), e.values, e.maps, e.entries, e.items} {
		out = binary.AppendUvarint(out, uint64(n))
	}
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.body...), nil
}

type snapEncoder struct {
	strs                         []string
	index                        map[string]int
	seen                         map[*Value]bool
	values, maps, entries, items int
	body                         []byte
}

func (e *snapEncoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = len(e.strs)
		e.index[s] = i
		e.strs = append(e.strs, s)
	}
	e.body = binary.AppendUvarint(e.body, uint64(i))
}

// count writes v's body and counts its parts.
func (e *snapEncoder) count(v *Value) error {
	if v == nil {
		return errors.New("yamlsrc: snapshot of a missing value")
	}
	if e.seen[v] {
		return fmt.Errorf("yamlsrc: snapshot of a value held twice (line %d, column %d)", v.Line, v.Col)
	}
	e.seen[v] = true
	e.values++
	b := byte(v.Kind)
	if v.Bool {
		b |= snapTrue
	}
	if v.Kind != KindString && v.Str() != "" {
		b |= snapStr
	}
	if v.Kind == KindMap && v.Map() == nil || v.Kind == KindList && v.List() == nil {
		b |= snapNilRef
	}
	if v.Line < 0 || v.Col < 0 {
		return fmt.Errorf("yamlsrc: snapshot of a value at line %d, column %d", v.Line, v.Col)
	}
	e.body = append(e.body, b)
	e.body = binary.AppendUvarint(e.body, uint64(v.Line))
	e.body = binary.AppendUvarint(e.body, uint64(v.Col))
	switch v.Kind {
	case KindString:
		e.str(v.Str())
	case KindNumber, KindTime:
		e.body = binary.LittleEndian.AppendUint64(e.body, math.Float64bits(v.Num()))
	case KindMap:
		if b&snapNilRef != 0 {
			break
		}
		keys := v.Map().Keys()
		e.body = binary.AppendUvarint(e.body, uint64(len(keys)))
		e.body = binary.AppendUvarint(e.body, uint64(v.Map().nInt()))
		e.maps++
		e.entries += len(keys)
		for i, k := range keys {
			e.str(k)
			if err := e.count(v.Map().Val(i)); err != nil {
				return err
			}
		}
	case KindList:
		if b&snapNilRef != 0 {
			break
		}
		items := v.List()
		e.body = binary.AppendUvarint(e.body, uint64(len(items)))
		e.items += len(items)
		for _, x := range items {
			if err := e.count(x); err != nil {
				return err
			}
		}
	}
	if b&snapStr != 0 {
		e.str(v.Str())
	}
	return nil
}

// errSnapshot is the error of a snapshot that is not one EncodeSnapshot
// wrote.
var errSnapshot = errors.New("yamlsrc: not a snapshot, or a damaged one")

// DecodeSnapshot decodes a snapshot that EncodeSnapshot wrote. The values'
// strings share data's memory, which a string never changes.
func DecodeSnapshot(data string) (v *Value, err error) {
	d := snapDecoder{data: data}
	defer func() {
		// A damaged snapshot reads past its end or its counts.
		if r := recover(); r != nil {
			if _, ok := r.(snapError); !ok {
				panic(r)
			}
			v, err = nil, errSnapshot
		}
	}()
	if len(data) < len(snapshotMagic) || data[:len(snapshotMagic)] != snapshotMagic {
		return nil, errSnapshot
	}
	d.pos = len(snapshotMagic)
	nStrs, nValues, nMaps, nEntries, nItems := d.count(), d.count(), d.count(), d.count(), d.count()
	d.strs = make([]string, nStrs)
	for i := range d.strs {
		n := d.count()
		if n > len(data)-d.pos {
			d.fail()
		}
		d.strs[i] = data[d.pos : d.pos+n]
		d.pos += n
	}
	d.values = make([]Value, nValues)
	d.maps = make([]Map, nMaps)
	d.keys = make([]string, nEntries)
	d.slots = make([]*Value, nEntries+nItems)
	v = d.value()
	if d.pos != len(data) {
		return nil, errSnapshot
	}
	return v, nil
}

type snapDecoder struct {
	data   string
	pos    int
	strs   []string
	values []Value
	maps   []Map
	keys   []string
	slots  []*Value
}

// snapError is the panic of a damaged snapshot, which DecodeSnapshot turns
// into errSnapshot.
type snapError struct{}

func (d *snapDecoder) fail() { panic(snapError{}) }

// uvarint reads an unsigned varint (binary.AppendUvarint's), from the
// string where it lies: binary.Uvarint wants a slice, and making one per
// number was a tenth of the decoding.
func (d *snapDecoder) uvarint() uint64 {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.pos >= len(d.data) {
			d.fail()
		}
		b := d.data[d.pos]
		d.pos++
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return x
		}
	}
	d.fail()
	return 0
}

// count reads a count, at most the snapshot's length (every counted thing
// takes a byte).
func (d *snapDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.data)) {
		d.fail()
	}
	return int(n)
}

func (d *snapDecoder) str() string {
	i := d.uvarint()
	if i >= uint64(len(d.strs)) {
		d.fail()
	}
	return d.strs[i]
}

func (d *snapDecoder) value() *Value {
	if d.pos >= len(d.data) || len(d.values) == 0 {
		d.fail()
	}
	b := d.data[d.pos]
	d.pos++
	v := &d.values[0]
	d.values = d.values[1:]
	v.Kind, v.Bool = Kind(b&7), b&snapTrue != 0
	if v.Kind > KindList {
		d.fail()
	}
	line, col := d.uvarint(), d.uvarint()
	if line > math.MaxInt32 || col > math.MaxInt32 {
		d.fail()
	}
	v.Line, v.Col = int32(line), int32(col)
	switch v.Kind {
	case KindString:
		v.SetStr(d.str())
	case KindNumber, KindTime:
		if len(d.data)-d.pos < 8 {
			d.fail()
		}
		var bits uint64
		for i := 7; i >= 0; i-- {
			bits = bits<<8 | uint64(d.data[d.pos+i])
		}
		v.SetNum(math.Float64frombits(bits))
		d.pos += 8
	case KindMap:
		if b&snapNilRef != 0 {
			break
		}
		n, nInt := d.count(), d.count()
		if n > len(d.keys) || n > len(d.slots) || nInt > n || len(d.maps) == 0 {
			d.fail()
		}
		// The map and its arrays are taken before its entries', which
		// take theirs after it (preorder, as the counts were made).
		m := &d.maps[0]
		d.maps = d.maps[1:]
		keys, vals := d.keys[:n:n], d.slots[:n:n]
		d.keys, d.slots = d.keys[n:], d.slots[n:]
		for i := range keys {
			keys[i] = d.str()
			vals[i] = d.value()
		}
		m.setEntries(keys, vals)
		if nInt != 0 {
			m.extra().nInt = nInt
		}
		v.SetMap(m)
	case KindList:
		if b&snapNilRef != 0 {
			break
		}
		n := d.count()
		if n > len(d.slots) {
			d.fail()
		}
		items := d.slots[:n:n]
		d.slots = d.slots[n:]
		for i := range items {
			items[i] = d.value()
		}
		v.SetList(items)
	}
	if b&snapStr != 0 {
		v.SetStr(d.str())
	}
	return v
}
