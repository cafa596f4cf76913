// Package yamlsrc owns YAML documents as the reference implementation sees
// them: a tree of JavaScript-like values (null, boolean, double, string, date,
// ordered map, list) with source positions, loaded with js-yaml's scalar
// rules (variability.md §2.1) by a fast reader of our own for the YAML that
// templates are made of and through yaml.v3 nodes for the rest, compared
// with chai's deep equality (§13) and written back by a small emitter of our
// own in js-yaml's and prettier's layout (§13). ParseJSON reads JSON into
// the same values, in the source's key order.
//
// Next to the value type it holds the JavaScript conversions of whole
// values that everyone uses: String(v) (String, and ToString and Join for
// the evaluator) and JSON.stringify (JSON, Pretty), built on model/js, which
// owns the value-independent rules (number formatting, JSON quoting, dates,
// UTF-16).
//
// Snapshots (EncodeSnapshot, DecodeSnapshot) hold a parsed document in a
// compact binary form, for the embedded normative profile that every
// resolve reads.
//
// It also holds what every reader of YAML in v4t shares: bounded file
// reads (ReadFile, ReadNamedFile, ReadFailure; LoadFile maps large files
// and keeps none of their bytes), yaml.v3 syntax errors as
// positioned diagnostics (DecodeDocument, SyntaxError) and the limits on
// nesting and aliases (MaxDepth, CheckNode). Packages that read YAML with
// other rules (resolve/sd's YAML 1.2 as yaml.v3 resolves it, completion's
// YAML 1.1) convert yaml.v3's nodes themselves, with the alias bookkeeping
// of Anchors.
//
// Documents are mutable and shared: an alias resolves to the same *Value as
// its anchor, so a change made through one path is visible through the other,
// as with js-yaml objects. Scalar values are never changed in place (stages
// replace them), which is what lets the resolver share constant ones.
//
// Memory is the resolver's limit on large templates, so values are compact:
// a Value is 40 bytes, its map, list, number and string sharing words, and
// a Map 32 bytes, its keys and values held by their first elements
// (unsafe, as is the fast reader's reading the text in place before it
// copies out what it keeps: value.go and fast.go only), and the parser
// allocates values, maps and entries in slabs.
package yamlsrc

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"unsafe"
)

// Kind is the JavaScript type of a value.
type Kind uint8

// The value kinds. Time values hold epoch milliseconds in Num, like a JS Date.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindTime
	KindMap
	KindList
)

var kindNames = [...]string{"null", "boolean", "number", "string", "date", "map", "list"}

func (k Kind) String() string { return kindNames[k] }

// Value is one node of a document.
//
// A document of a large template is mostly values (the ring template at
// seed 10,000: 350,000 of them, 160,000 strings and 160,000 maps), so a
// value is 40 bytes, where a field for each of its parts made it 72, a
// third of the document's memory: a map and a list share a word (ref), a
// number, a list's length and capacity and a string's tag another (bits),
// read through Map, List, Num and Tag, which give the zero value for a
// value of another kind. The string is a part of its own, since values of every kind may
// carry one (resolve/sd keeps a number's or a date's literal text, and a
// map's record of its non-string keys, in it).
type Value struct {
	Kind Kind
	Bool bool
	// Line and Col are the 1-based source position; zero for created values.
	Line, Col int32
	// sn and sp are the string's length and bytes.
	sn uint32
	sp unsafe.Pointer
	// ref is a map or a list's array.
	ref unsafe.Pointer
	// bits is a number's (or date's) float64 bits, a list's length (low
	// half) and capacity, or a string's Tag.
	bits uint64
}

// Str is the value's string: a string value's own, or the text another
// kind's value carries; "" where there is none.
func (v *Value) Str() string {
	// Put together, as List's slice, without unsafe.String's checks.
	return *(*string)(unsafe.Pointer(&stringHeader{v.sp, int(v.sn)}))
}

// stringHeader is the layout of a string.
type stringHeader struct {
	data unsafe.Pointer
	len  int
}

// SetStr sets the value's string.
func (v *Value) SetStr(s string) {
	if uint64(len(s)) > math.MaxUint32 {
		panic("yamlsrc: string too long for a value")
	}
	v.sp, v.sn = unsafe.Pointer(unsafe.StringData(s)), uint32(len(s))
}

// List is a list value's items; nil for other kinds. Changing an item
// changes the value's; adding one needs SetList.
func (v *Value) List() []*Value {
	if v.Kind != KindList {
		return nil
	}
	// The slice is put together rather than cut from unsafe.Slice, whose
	// bounds checks ran on every read of every list.
	return *(*[]*Value)(unsafe.Pointer(&sliceHeader{v.ref, int(uint32(v.bits)), int(v.bits >> 32)}))
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// SetList sets the items of a list value (or of one about to become a
// list value).
func (v *Value) SetList(items []*Value) {
	if uint64(cap(items)) > math.MaxUint32 {
		panic("yamlsrc: list too long for a value")
	}
	v.ref, v.bits = unsafe.Pointer(unsafe.SliceData(items)), uint64(cap(items))<<32|uint64(len(items))
}

// Map is a map value's map; nil for other kinds.
func (v *Value) Map() *Map {
	if v.Kind != KindMap {
		return nil
	}
	return (*Map)(v.ref)
}

// SetMap sets the map of a map value (or of one about to become a map
// value).
func (v *Value) SetMap(m *Map) { v.ref = unsafe.Pointer(m) }

// Num is a number's value or a date's epoch milliseconds; 0 for a list, a
// string (whose word is its Tag) and other kinds that carry none.
func (v *Value) Num() float64 {
	if v.Kind == KindList || v.Kind == KindString {
		return 0
	}
	return math.Float64frombits(v.bits)
}

// Tag is the number the maker of a string value kept on it with SetTag, in
// the word a number keeps its bits in; 0 for other kinds. It is a hint for
// the maker's own lookups (model/graph tags a node's name value with the
// node, so that the generated conditions naming the node find it without
// hashing the name): values are copied, reused and read from documents
// with any bits, so a reader must check what a tag points at.
func (v *Value) Tag() uint64 {
	if v.Kind != KindString {
		return 0
	}
	return v.bits
}

// SetTag sets the tag of a string value.
func (v *Value) SetTag(t uint64) { v.bits = t }

// SetNum sets the value's number.
func (v *Value) SetNum(f float64) { v.bits = math.Float64bits(f) }

// NewNull returns a null value.
func NewNull() *Value { return &Value{Kind: KindNull} }

// NewBool returns a boolean value.
func NewBool(b bool) *Value { return &Value{Kind: KindBool, Bool: b} }

// NewNumber returns a number value.
func NewNumber(f float64) *Value { return &Value{Kind: KindNumber, bits: math.Float64bits(f)} }

// NewString returns a string value.
func NewString(s string) *Value {
	v := &Value{Kind: KindString}
	v.SetStr(s)
	return v
}

// NewStringAt returns a string value with a source position.
func NewStringAt(s string, line, col int32) *Value {
	v := &Value{Kind: KindString, Line: line, Col: col}
	v.SetStr(s)
	return v
}

// NewTime returns a date value from epoch milliseconds.
func NewTime(ms float64) *Value { return &Value{Kind: KindTime, bits: math.Float64bits(ms)} }

// listValue returns a list value holding items.
func listValue(items []*Value) Value {
	v := Value{Kind: KindList}
	v.SetList(items)
	return v
}

// mapValue holds a map value, its map and room for its first entry in one
// allocation: most created maps have one entry (room for two makes
// the transform's many empty maps larger than they save).
type mapValue struct {
	mapHead
	keys [1]string
	vals [1]*Value
}

// value returns the empty map value m holds.
func (m *mapValue) value() *Value { return m.init(m.keys[:0], m.vals[:0]) }

// mapHead is a map value and its map, allocated with the room for their
// entries.
type mapHead struct {
	v Value
	m Map
}

// init returns the empty map value h holds, its entries to go into keys
// and vals.
func (h *mapHead) init(keys []string, vals []*Value) *Value {
	h.v = Value{Kind: KindMap, ref: unsafe.Pointer(&h.m)}
	h.m.setEntries(keys, vals)
	return &h.v
}

// NewMap returns an empty map value.
func NewMap() *Value { return new(mapValue).value() }

// EntryList returns the list [{key: {}}], its list, map and empty map made
// together: normalisation turns every template's `type: name` into one,
// four allocations apiece where it was made piece by piece.
func EntryList(key string) *Value {
	x := &struct {
		entryList
		empty mapValue
	}{}
	return x.entryList.make(key, x.empty.value())
}

// EntryListOf returns the list [{key: v}], its list and map made together,
// v as it is.
func EntryListOf(key string, v *Value) *Value {
	return new(entryList).make(key, v)
}

type entryList struct {
	list  Value
	item  [1]*Value
	entry mapValue
}

func (x *entryList) make(key string, v *Value) *Value {
	x.item[0] = x.entry.make(key, v)
	x.list = listValue(x.item[:])
	return &x.list
}

// NewList returns a list value holding items.
func NewList(items ...*Value) *Value {
	if items == nil {
		items = []*Value{}
	}
	v := listValue(items)
	return &v
}

// NewMapSize returns an empty map value with room for n entries. Up to
// four entries, the value, its map and the room are one allocation, where
// a map with its key and value arrays was three (the maps that
// enrichment and normalisation make, {not: ..., _bratan: true} or a
// fallback property's four keys, are of these sizes).
func NewMapSize(n int) *Value {
	switch {
	case n <= len(mapValue{}.keys):
		return NewMap()
	case n <= 2:
		x := new(mapValue2)
		return x.init(x.keys[:0], x.vals[:0])
	case n <= 4:
		x := new(mapValue4)
		return x.init(x.keys[:0], x.vals[:0])
	}
	m := NewMap()
	m.Map().setEntries(make([]string, 0, n), make([]*Value, 0, n))
	return m
}

// mapValue2 and mapValue4 are mapValue with room for two and four
// entries (NewMapSize).
type (
	mapValue2 struct {
		mapHead
		keys [2]string
		vals [2]*Value
	}
	mapValue4 struct {
		mapHead
		keys [4]string
		vals [4]*Value
	}
)

// MapOf builds a map value from alternating keys and values.
func MapOf(kv ...any) *Value {
	m := NewMapSize(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Map().Set(kv[i].(string), kv[i+1].(*Value))
	}
	return m
}

// OpOf returns the map {key: items} with the list holding items as it is
// (as NewList), the map and the list made in one allocation: conditions and
// constraints are made of such operators, and they were three allocations
// each.
func OpOf(key string, items []*Value) *Value { return opOf[mapValue](key, items) }

// PairOf returns {key: [a, b]}, its map, list and items made in one
// allocation (OpOf).
func PairOf(key string, a, b *Value) *Value { return pairOf[mapValue](key, a, b) }

// mapHolder is a map value with room for its first entries (mapValue,
// mapValue2), for the operators' shared allocations.
type mapHolder[M any] interface {
	*M
	make(key string, v *Value) *Value
}

// opHolder holds an operator {key: items}: its map value, the map's room
// for its first entries and the list value, in one allocation.
type opHolder[M any] struct {
	m    M
	list Value
}

// pairHolder holds an operator {key: [a, b]} with its two items.
type pairHolder[M any] struct {
	m     M
	list  Value
	items [2]*Value
}

// opOf is OpOf with the map held by an M.
func opOf[M any, P mapHolder[M]](key string, items []*Value) *Value {
	return makeOp[M, P](new(opHolder[M]), key, items)
}

// makeOp makes {key: items} in x, which is zero.
func makeOp[M any, P mapHolder[M]](x *opHolder[M], key string, items []*Value) *Value {
	if items == nil {
		items = []*Value{}
	}
	x.list = listValue(items)
	return P(&x.m).make(key, &x.list)
}

// pairOf is PairOf with the map held by an M.
func pairOf[M any, P mapHolder[M]](key string, a, b *Value) *Value {
	return makePair[M, P](new(pairHolder[M]), key, a, b)
}

// makePair makes {key: [a, b]} in x, which is zero.
func makePair[M any, P mapHolder[M]](x *pairHolder[M], key string, a, b *Value) *Value {
	x.items = [2]*Value{a, b}
	x.list = listValue(x.items[:])
	return P(&x.m).make(key, &x.list)
}

// make returns the map value {key: v} held by m.
func (m *mapValue) make(key string, v *Value) *Value {
	mv := m.value()
	mv.Map().Set(key, v)
	return mv
}

// MapOf1 is MapOf(key, v) without boxing the key into an interface (an
// allocation of its own where the key is not a constant).
func MapOf1(key string, v *Value) *Value {
	return new(mapValue).make(key, v)
}

// MapOf1Room, OpOfRoom and PairOfRoom are MapOf1, OpOf and PairOf with room
// for a second key in the map: a map that later gets one (enrichment marks
// the condition it generates for an element with _generated) would
// otherwise grow into new key and value arrays, two allocations, a
// twentieth of those of a run of the motivation space.
func MapOf1Room(key string, v *Value) *Value {
	return new(mapValue2).make(key, v)
}

// OpOfRoom is OpOf with room for a second key (MapOf1Room).
func OpOfRoom(key string, items []*Value) *Value { return opOf[mapValue2](key, items) }

// PairOfRoom is PairOf with room for a second key (MapOf1Room).
func PairOfRoom(key string, a, b *Value) *Value { return pairOf[mapValue2](key, a, b) }

// make returns the map value {key: v} held by m.
func (m *mapValue2) make(key string, v *Value) *Value {
	mv := m.init(m.keys[:0], m.vals[:0])
	mv.Map().Set(key, v)
	return mv
}

// IsNull reports whether v is nil or null (JavaScript's undefined or null).
func (v *Value) IsNull() bool { return v == nil || v.Kind == KindNull }

// IsMap reports whether v is a map.
func (v *Value) IsMap() bool { return v != nil && v.Kind == KindMap }

// IsList reports whether v is a list.
func (v *Value) IsList() bool { return v != nil && v.Kind == KindList }

// IsString reports whether v is a string.
func (v *Value) IsString() bool { return v != nil && v.Kind == KindString }

// Get returns the value of key k of a map value, or nil.
func (v *Value) Get(k string) *Value {
	if v == nil || v.Kind != KindMap {
		return nil
	}
	return v.Map().Get(k)
}

// Has reports whether a map value has key k (with any value, even null).
func (v *Value) Has(k string) bool {
	if v == nil || v.Kind != KindMap {
		return false
	}
	_, ok := v.Map().Lookup(k)
	return ok
}

// Truthy reports JavaScript truthiness.
func (v *Value) Truthy() bool {
	if v == nil {
		return false
	}
	switch v.Kind {
	case KindNull:
		return false
	case KindBool:
		return v.Bool
	case KindNumber:
		return v.Num() != 0 && !math.IsNaN(v.Num())
	case KindString:
		return v.Str() != ""
	}
	return true
}

// IsTrue reports whether v is the boolean true.
func (v *Value) IsTrue() bool { return v != nil && v.Kind == KindBool && v.Bool }

// IsFalse reports whether v is the boolean false.
func (v *Value) IsFalse() bool { return v != nil && v.Kind == KindBool && !v.Bool }

// Map is an ordered string-keyed map with JavaScript object key order:
// array-index keys ("0", "1", ...) come first in ascending numeric order,
// every other key in insertion order.
//
// Deletion leaves a tombstone that is compacted away the next time the map
// is walked by position, so deleting many keys stays linear.
//
// A document has a map for nearly every value that is not a scalar, so the
// map is kept small (32 bytes): the keys and the values are two arrays of
// the same length n and the same capacity c, held by their first elements,
// and what few maps need (tombstones, a key index, the count of array-index
// keys) lives behind x, allocated on first use.
type Map struct {
	kp   *string
	vp   **Value
	n, c int32
	x    *mapExtra
}

// mapExtra holds the rarely needed state of a map.
type mapExtra struct {
	// deleted marks the tombstones (nil while there are none), dead
	// counts them.
	deleted []bool
	dead    int
	// index finds each live key's position, in maps with more than
	// indexThreshold keys; built on the first lookup.
	index *keyIndex
	// nInt counts the array-index keys.
	nInt int
}

const indexThreshold = 8

// keys returns the keys, tombstones included, as a slice with capacity n:
// an append to it copies.
func (m *Map) keys() []string { return unsafe.Slice(m.kp, m.n) }

// vals returns the values, nil at tombstones, as keys does the keys.
func (m *Map) vals() []*Value { return unsafe.Slice(m.vp, m.n) }

// setEntries makes keys and vals, of the same length, the map's entries;
// the capacity the map may grow into is the smaller of theirs.
func (m *Map) setEntries(keys []string, vals []*Value) {
	c := min(cap(keys), cap(vals))
	if c == 0 {
		m.kp, m.vp = nil, nil
	} else {
		m.kp, m.vp = unsafe.SliceData(keys), unsafe.SliceData(vals)
	}
	m.n, m.c = int32(len(keys)), int32(c)
}

// extra returns the map's rarely needed state, allocating it.
func (m *Map) extra() *mapExtra {
	if m.x == nil {
		m.x = &mapExtra{}
	}
	return m.x
}

// dead returns the number of tombstones.
func (m *Map) dead() int {
	if m.x == nil {
		return 0
	}
	return m.x.dead
}

// nInt returns the number of array-index keys.
func (m *Map) nInt() int {
	if m.x == nil {
		return 0
	}
	return m.x.nInt
}

// isDeleted reports whether the i-th entry is a tombstone.
func (m *Map) isDeleted(i int) bool {
	return m.x != nil && m.x.dead > 0 && m.x.deleted[i]
}

// Len returns the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return int(m.n) - m.dead()
}

// compact drops tombstones and rebuilds the index.
func (m *Map) compact() {
	if m.dead() == 0 {
		return
	}
	keys, vals, deleted := m.keys(), m.vals(), m.x.deleted
	j := 0
	for i := range keys {
		if deleted[i] {
			continue
		}
		keys[j], vals[j] = keys[i], vals[i]
		j++
	}
	clear(vals[j:])
	m.n = int32(j)
	m.x.deleted, m.x.dead = nil, 0
	m.x.index = nil
}

// Key returns the i-th key.
func (m *Map) Key(i int) string {
	m.compact()
	return m.keys()[i]
}

// Val returns the i-th value.
func (m *Map) Val(i int) *Value {
	m.compact()
	return m.vals()[i]
}

// SetVal replaces the i-th value.
func (m *Map) SetVal(i int, v *Value) {
	m.compact()
	m.vals()[i] = v
}

// Index returns the position of k, as Key and Val count them, or -1.
func (m *Map) Index(k string) int {
	if m == nil {
		return -1
	}
	m.compact()
	return m.find(k)
}

// IndexNear is Index for a key expected at position hint: it compares
// the key there first and looks k up only where that is another. Callers
// that find the keys of a large map mostly in its order pass the position
// after the last one found: a lookup in the key index reads memory far
// from the last one, the key at the hint memory next to it.
func (m *Map) IndexNear(k string, hint int) int {
	if m == nil {
		return -1
	}
	m.compact()
	if keys := m.keys(); hint >= 0 && hint < len(keys) && keys[hint] == k {
		return hint
	}
	return m.find(k)
}

// FirstRanked returns, of the keys of m that rank has and whose values are
// not null, the one of lowest rank: its rank and value; -1 and nil where
// there is none. It picks an operator by dispatch order (the expression
// evaluator's and the encoder's): maps have few keys, so ranking the keys
// present beats probing every operator.
func (m *Map) FirstRanked(rank *Ranks) (int, *Value) {
	best, arg := -1, (*Value)(nil)
	for i, k := range m.Keys() {
		if r := rank.Rank(k); r >= 0 && (best < 0 || r < best) {
			if v := m.vals()[i]; !v.IsNull() {
				best, arg = r, v
			}
		}
	}
	return best, arg
}

// Ranks holds the position of each key of a list, for FirstRanked: the
// operators of the encoder and of the expression evaluator, in dispatch
// order, which every key of every expression map is looked up in. Keys
// are kept by length, and a key of that length compared by its first
// byte before the rest: at most eight operators share a length, most of
// them not a first byte, where a Go map hashed the whole key (FirstRanked
// was 3% of the instructions of a batch of small runs).
type Ranks struct {
	byLen [][]rankedKey
}

type rankedKey struct {
	key  string
	rank int
}

// NewRanks ranks each key by its position in keys, which must not repeat
// one or hold the empty key.
func NewRanks(keys ...string) *Ranks {
	r := &Ranks{}
	for i, k := range keys {
		if k == "" || r.Rank(k) >= 0 {
			panic("yamlsrc: NewRanks: empty or repeated key " + strconv.Quote(k))
		}
		for len(r.byLen) <= len(k) {
			r.byLen = append(r.byLen, nil)
		}
		r.byLen[len(k)] = append(r.byLen[len(k)], rankedKey{k, i})
	}
	return r
}

// Rank returns the position of k in the keys of r, -1 where it is not one.
func (r *Ranks) Rank(k string) int {
	if len(k) >= len(r.byLen) {
		return -1
	}
	for _, e := range r.byLen[len(k)] {
		if e.key[0] == k[0] && e.key == k {
			return e.rank
		}
	}
	return -1
}

// Keys returns the keys in order. The slice must not be modified.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	m.compact()
	return m.keys()
}

func (m *Map) find(k string) int {
	if m == nil {
		return -1
	}
	keys := m.keys()
	if len(keys) > indexThreshold {
		return m.index().get(keys, k)
	}
	if m.dead() == 0 {
		for i, key := range keys {
			if key == k {
				return i
			}
		}
		return -1
	}
	for i, key := range keys {
		if key == k && !m.x.deleted[i] {
			return i
		}
	}
	return -1
}

// index returns the key index of a map with more than indexThreshold
// keys, built on the first call (nil for a smaller map).
func (m *Map) index() *keyIndex {
	keys := m.keys()
	if len(keys) <= indexThreshold {
		return nil
	}
	x := m.extra()
	if x.index == nil {
		x.index = newKeyIndex(len(keys))
		for i, key := range keys {
			if x.dead == 0 || !x.deleted[i] {
				x.index.set(keys, key, i)
			}
		}
	}
	return x.index
}

// Lookup returns the value for k and whether the key exists.
func (m *Map) Lookup(k string) (*Value, bool) {
	i := m.find(k)
	if i < 0 {
		return nil, false
	}
	return m.vals()[i], true
}

// Get returns the value for k, or nil.
func (m *Map) Get(k string) *Value {
	v, _ := m.Lookup(k)
	return v
}

// Set replaces the value of an existing key in place or adds the key.
func (m *Map) Set(k string, v *Value) {
	if i := m.find(k); i >= 0 {
		m.vals()[i] = v
		return
	}
	if idx, ok := arrayIndex(k); ok {
		// JS objects list array-index keys first, in ascending order:
		// the first index key larger than idx, found by binary search
		// (the index keys are the first nInt keys, sorted).
		m.compact()
		keys := m.keys()
		pos := sort.Search(m.nInt(), func(j int) bool {
			n, _ := arrayIndex(keys[j])
			return n > idx
		})
		m.insert(pos, k, v)
		m.extra().nInt++
		return
	}
	m.push(k, v)
}

// SetNew is Set for a key known not to be in the map: it adds the key
// where Set would, without looking it up (in a map of more than
// indexThreshold keys, a lookup builds and then keeps up the key index).
func (m *Map) SetNew(k string, v *Value) {
	if _, ok := arrayIndex(k); ok {
		m.Set(k, v)
		return
	}
	m.push(k, v)
}

// grow makes room for one more entry.
func (m *Map) grow() {
	if m.n < m.c {
		return
	}
	// append picks the capacity, rounded up to the allocator's size
	// class, as it did when keys and values were slices of their own.
	keys := append(m.keys(), "")[:m.n]
	vals := make([]*Value, m.n, cap(keys))
	copy(vals, m.vals())
	m.setEntries(keys, vals)
}

// push adds k and v at the end of the keys, the deletion marks and the index.
func (m *Map) push(k string, v *Value) {
	m.grow()
	m.n++
	i := int(m.n) - 1
	m.keys()[i], m.vals()[i] = k, v
	if x := m.x; x != nil {
		if x.dead > 0 {
			x.deleted = append(x.deleted, false)
		}
		if x.index != nil {
			x.index.set(m.keys(), k, i)
		}
	}
}

func (m *Map) insert(pos int, k string, v *Value) {
	m.grow()
	m.n++
	keys, vals := m.keys(), m.vals()
	copy(keys[pos+1:], keys[pos:])
	copy(vals[pos+1:], vals[pos:])
	keys[pos] = k
	vals[pos] = v
	if m.x != nil && m.x.index != nil {
		// Keep the index: only the keys after pos moved, which are
		// few when index keys come in ascending order after some
		// other keys. From the last, so that no position is held
		// twice (insert comes after compact: every key is live).
		for j := len(keys) - 1; j > pos; j-- {
			m.x.index.move(keys[j], j-1, j)
		}
		m.x.index.set(keys, k, pos)
	}
}

// Append adds key k with value v at the end of the map, whatever the key's
// form. Unlike Set it keeps array-index keys ("1", "2") in their place, the
// order YAML 1.2 and JSON documents have (ParseJSON, resolve/sd's reader).
// k must not be in the map yet.
func (m *Map) Append(k string, v *Value) {
	if _, isInt := arrayIndex(k); isInt {
		// Set and Delete count the array-index keys; keep the count right.
		m.extra().nInt++
	}
	m.push(k, v)
}

// Delete removes key k and reports whether it existed.
func (m *Map) Delete(k string) bool {
	i := m.find(k)
	if i < 0 {
		return false
	}
	x := m.extra()
	if _, isInt := arrayIndex(k); isInt {
		x.nInt--
	}
	if x.deleted == nil {
		x.deleted = make([]bool, m.n)
	}
	x.deleted[i] = true
	x.dead++
	m.vals()[i] = nil
	if x.index != nil {
		x.index.remove(m.keys(), k, i)
	}
	return true
}

// DeleteAll deletes the keys that m has, as Delete does one by one, and
// moves the entries after them up at once: where Delete marks tombstones
// for a later compaction, which needs state of its own (a block per map
// where a stage drops a key from each element's map), DeleteAll leaves
// none. It reports how many entries it deleted.
func (m *Map) DeleteAll(keys []string) int {
	m.compact()
	ks, vs := m.keys(), m.vals()
	j := 0
	for i, k := range ks {
		if !slices.Contains(keys, k) {
			ks[j], vs[j] = k, vs[i]
			j++
			continue
		}
		if _, isInt := arrayIndex(k); isInt {
			m.extra().nInt--
		}
	}
	n := len(ks) - j
	if n == 0 {
		return 0
	}
	clear(ks[j:])
	clear(vs[j:])
	m.n = int32(j)
	if m.x != nil {
		m.x.index = nil
	}
	return n
}

// arrayIndex reports whether k is a canonical JS array index.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// Clone returns a deep copy of v. Values shared inside v stay shared in the
// copy (like lodash cloneDeep).
func Clone(v *Value) *Value {
	return cloneMemo(v, map[*Value]*Value{})
}

func cloneMemo(v *Value, memo map[*Value]*Value) *Value {
	if v == nil {
		return nil
	}
	if c, ok := memo[v]; ok {
		return c
	}
	c := new(Value)
	*c = *v // the map or list is replaced below
	memo[v] = c
	switch v.Kind {
	case KindMap:
		v.Map().compact()
		c.SetMap(&Map{})
		vals := make([]*Value, v.Map().n)
		c.Map().setEntries(append([]string(nil), v.Map().keys()...), vals)
		if n := v.Map().nInt(); n != 0 {
			c.Map().extra().nInt = n
		}
		for i, x := range v.Map().vals() {
			vals[i] = cloneMemo(x, memo)
		}
	case KindList:
		items := make([]*Value, len(v.List()))
		c.SetList(items)
		for i, x := range v.List() {
			items[i] = cloneMemo(x, memo)
		}
	}
	return c
}
