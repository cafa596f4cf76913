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
// It also holds what every reader of YAML in v4t shares: bounded file
// reads (ReadFile, ReadNamedFile, ReadFailure), yaml.v3 syntax errors as
// positioned diagnostics (DecodeDocument, SyntaxError) and the limits on
// nesting and aliases (MaxDepth, CheckNode). Packages that read YAML with
// other rules (resolve/sd's YAML 1.2 as yaml.v3 resolves it, completion's
// YAML 1.1) convert yaml.v3's nodes themselves.
//
// Documents are mutable and shared: an alias resolves to the same *Value as
// its anchor, so a change made through one path is visible through the other,
// as with js-yaml objects.
package yamlsrc

import (
	"math"
	"sort"
	"strconv"
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
type Value struct {
	Kind Kind
	Bool bool
	// Line and Col are the 1-based source position; zero for created values.
	Line, Col int32
	Num       float64
	Str       string
	Map       *Map
	List      []*Value
}

// NewNull returns a null value.
func NewNull() *Value { return &Value{Kind: KindNull} }

// NewBool returns a boolean value.
func NewBool(b bool) *Value { return &Value{Kind: KindBool, Bool: b} }

// NewNumber returns a number value.
func NewNumber(f float64) *Value { return &Value{Kind: KindNumber, Num: f} }

// NewString returns a string value.
func NewString(s string) *Value { return &Value{Kind: KindString, Str: s} }

// NewTime returns a date value from epoch milliseconds.
func NewTime(ms float64) *Value { return &Value{Kind: KindTime, Num: ms} }

// mapValue holds a map value, its map and room for its first entry in one
// allocation: most created maps have one entry (room for two makes
// the transform's many empty maps larger than they save).
type mapValue struct {
	v    Value
	m    Map
	keys [1]string
	vals [1]*Value
}

// NewMap returns an empty map value.
func NewMap() *Value {
	mv := &mapValue{v: Value{Kind: KindMap}}
	mv.v.Map = &mv.m
	mv.m.keys, mv.m.vals = mv.keys[:0], mv.vals[:0]
	return &mv.v
}

// NewList returns a list value holding items.
func NewList(items ...*Value) *Value {
	if items == nil {
		items = []*Value{}
	}
	return &Value{Kind: KindList, List: items}
}

// MapOf builds a map value from alternating keys and values.
func MapOf(kv ...any) *Value {
	m := NewMap()
	if n := len(kv) / 2; n > len(mapValue{}.keys) {
		m.Map.keys = make([]string, 0, n)
		m.Map.vals = make([]*Value, 0, n)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Map.Set(kv[i].(string), kv[i+1].(*Value))
	}
	return m
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
	return v.Map.Get(k)
}

// Has reports whether a map value has key k (with any value, even null).
func (v *Value) Has(k string) bool {
	if v == nil || v.Kind != KindMap {
		return false
	}
	_, ok := v.Map.Lookup(k)
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
		return v.Num != 0 && !math.IsNaN(v.Num)
	case KindString:
		return v.Str != ""
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
type Map struct {
	keys    []string
	vals    []*Value
	deleted []bool
	dead    int
	index   map[string]int
	nInt    int
}

const indexThreshold = 8

// Len returns the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys) - m.dead
}

// compact drops tombstones and rebuilds the index.
func (m *Map) compact() {
	if m.dead == 0 {
		return
	}
	j := 0
	for i := range m.keys {
		if m.deleted[i] {
			continue
		}
		m.keys[j], m.vals[j] = m.keys[i], m.vals[i]
		j++
	}
	clear(m.vals[j:])
	m.keys, m.vals = m.keys[:j], m.vals[:j]
	m.deleted, m.dead = nil, 0
	if m.index != nil {
		m.index = nil
	}
}

// Key returns the i-th key.
func (m *Map) Key(i int) string {
	m.compact()
	return m.keys[i]
}

// Val returns the i-th value.
func (m *Map) Val(i int) *Value {
	m.compact()
	return m.vals[i]
}

// SetVal replaces the i-th value.
func (m *Map) SetVal(i int, v *Value) {
	m.compact()
	m.vals[i] = v
}

// Keys returns the keys in order. The slice must not be modified.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	m.compact()
	return m.keys
}

func (m *Map) find(k string) int {
	if m == nil {
		return -1
	}
	if len(m.keys) > indexThreshold {
		if m.index == nil {
			m.index = make(map[string]int, len(m.keys))
			for i, key := range m.keys {
				if m.dead == 0 || !m.deleted[i] {
					m.index[key] = i
				}
			}
		}
		if i, ok := m.index[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range m.keys {
		if key == k && (m.dead == 0 || !m.deleted[i]) {
			return i
		}
	}
	return -1
}

// Lookup returns the value for k and whether the key exists.
func (m *Map) Lookup(k string) (*Value, bool) {
	i := m.find(k)
	if i < 0 {
		return nil, false
	}
	return m.vals[i], true
}

// Get returns the value for k, or nil.
func (m *Map) Get(k string) *Value {
	v, _ := m.Lookup(k)
	return v
}

// Set replaces the value of an existing key in place or adds the key.
func (m *Map) Set(k string, v *Value) {
	if i := m.find(k); i >= 0 {
		m.vals[i] = v
		return
	}
	if idx, ok := arrayIndex(k); ok {
		// JS objects list array-index keys first, in ascending order:
		// the first index key larger than idx, found by binary search
		// (the index keys are m.keys[:m.nInt], sorted).
		m.compact()
		pos := sort.Search(m.nInt, func(j int) bool {
			n, _ := arrayIndex(m.keys[j])
			return n > idx
		})
		m.insert(pos, k, v)
		m.nInt++
		return
	}
	m.push(k, v)
}

// push adds k and v at the end of the keys, the deletion marks and the index.
func (m *Map) push(k string, v *Value) {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	if m.dead > 0 {
		m.deleted = append(m.deleted, false)
	}
	if m.index != nil {
		m.index[k] = len(m.keys) - 1
	}
}

func (m *Map) insert(pos int, k string, v *Value) {
	m.keys = append(m.keys, "")
	m.vals = append(m.vals, nil)
	copy(m.keys[pos+1:], m.keys[pos:])
	copy(m.vals[pos+1:], m.vals[pos:])
	m.keys[pos] = k
	m.vals[pos] = v
	if m.index != nil {
		// Keep the index: only the keys from pos on moved, which are
		// few when index keys come in ascending order after some
		// other keys.
		for j := pos; j < len(m.keys); j++ {
			m.index[m.keys[j]] = j
		}
	}
}

// Append adds key k with value v at the end of the map, whatever the key's
// form. Unlike Set it keeps array-index keys ("1", "2") in their place, the
// order YAML 1.2 and JSON documents have (ParseJSON, resolve/sd's reader).
// k must not be in the map yet.
func (m *Map) Append(k string, v *Value) {
	if _, isInt := arrayIndex(k); isInt {
		// Set and Delete count the array-index keys; keep the count right.
		m.nInt++
	}
	m.push(k, v)
}

// Delete removes key k and reports whether it existed.
func (m *Map) Delete(k string) bool {
	i := m.find(k)
	if i < 0 {
		return false
	}
	if _, isInt := arrayIndex(k); isInt {
		m.nInt--
	}
	if m.deleted == nil {
		m.deleted = make([]bool, len(m.keys))
	}
	m.deleted[i] = true
	m.dead++
	m.vals[i] = nil
	if m.index != nil {
		delete(m.index, k)
	}
	return true
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
	c := &Value{Kind: v.Kind, Bool: v.Bool, Line: v.Line, Col: v.Col, Num: v.Num, Str: v.Str}
	memo[v] = c
	switch v.Kind {
	case KindMap:
		v.Map.compact()
		c.Map = &Map{keys: append([]string(nil), v.Map.keys...), vals: make([]*Value, len(v.Map.vals)), nInt: v.Map.nInt}
		for i, x := range v.Map.vals {
			c.Map.vals[i] = cloneMemo(x, memo)
		}
	case KindList:
		c.List = make([]*Value, len(v.List))
		for i, x := range v.List {
			c.List[i] = cloneMemo(x, memo)
		}
	}
	return c
}
