package yamlsrc

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A document is mostly values: their size is the document's memory.
func TestValueSize(t *testing.T) {
	require.Equal(t, uintptr(40), unsafe.Sizeof(Value{}))
}

// The parts that share a word read as the zero value on a value of
// another kind, as the fields they replaced did when unset; the string is
// every kind's.
func TestValueParts(t *testing.T) {
	items := []*Value{NewNumber(1), NewString("x")}
	m := NewMap()
	m.Map().Set("k", NewBool(true))
	num := NewNumber(2.5)
	num.SetStr("2.50")
	marked := NewMap()
	marked.SetStr("\x00k\x00")
	tests := []struct {
		name string
		v    *Value
		str  string
		num  float64
		list []*Value
		m    *Map
	}{
		{"null", NewNull(), "", 0, nil, nil},
		{"bool", NewBool(true), "", 0, nil, nil},
		{"number with its text", num, "2.50", 2.5, nil, nil},
		{"date", NewTime(-1), "", -1, nil, nil},
		{"string", NewString("abc"), "abc", 0, nil, nil},
		{"list", NewList(items...), "", 0, items, nil},
		{"map", m, "", 0, nil, m.Map()},
		{"map with a string", marked, "\x00k\x00", 0, nil, marked.Map()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.str, tt.v.Str())
			require.Equal(t, tt.num, tt.v.Num())
			require.Equal(t, tt.list, tt.v.List())
			require.Same(t, tt.m, tt.v.Map())
		})
	}
}

// A list keeps its length and capacity, nil stays nil and empty stays
// empty (emitters tell them apart), and items changed through List are the
// value's.
func TestValueList(t *testing.T) {
	v := &Value{Kind: KindList}
	require.Nil(t, v.List())
	v.SetList([]*Value{})
	require.NotNil(t, v.List())
	require.Empty(t, v.List())

	items := make([]*Value, 2, 5)
	v.SetList(items)
	require.Len(t, v.List(), 2)
	require.Equal(t, 5, cap(v.List()))
	v.List()[1] = NewString("b")
	require.Equal(t, "b", items[1].Str())
	v.SetList(append(v.List(), NewString("c")))
	require.Len(t, v.List(), 3)
	require.Equal(t, "c", v.List()[2].Str())
	require.Equal(t, float64(0), v.Num())

	// A value that changes kind reads as its new kind.
	v.Kind = KindString
	require.Nil(t, v.List())
	v.SetStr("s")
	require.Equal(t, "s", v.Str())
}
