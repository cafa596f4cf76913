package yamlsrc

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

const frozenDoc = `
a: 1
b: [x, {c: true, "2": d, "0": e}, []]
c: {}
d: ~
e: 2024-01-02
`

// samePositions reports whether a and b have the same kinds and positions
// everywhere, which DeepEqual does not compare.
func samePositions(t *testing.T, a, b *Value) {
	t.Helper()
	if a == nil || b == nil {
		require.Equal(t, a == nil, b == nil)
		return
	}
	require.Equal(t, [3]any{a.Kind, a.Line, a.Col}, [3]any{b.Kind, b.Line, b.Col})
	switch a.Kind {
	case KindMap:
		require.Equal(t, a.Map.Keys(), b.Map.Keys())
		for i := range a.Map.Keys() {
			samePositions(t, a.Map.Val(i), b.Map.Val(i))
		}
	case KindList:
		require.Len(t, b.List, len(a.List))
		for i := range a.List {
			samePositions(t, a.List[i], b.List[i])
		}
	}
}

// TestFrozenCopy checks that a copy equals the frozen value, key order and
// positions included, and that changing one copy, growing its maps and lists
// too, leaves the frozen value and the other copies as they were.
func TestFrozenCopy(t *testing.T) {
	want, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	v, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	f := Freeze(v)
	require.False(t, f.shared)

	a, b := f.Copy(), f.Copy()
	require.True(t, DeepEqual(want, a))
	samePositions(t, want, a)
	require.Equal(t, string(Marshal(want)), string(Marshal(a)))

	a.Map.Set("a", NewString("changed"))
	a.Map.Set("z", NewNumber(3))
	a.Map.Set("1", NewNumber(4))
	a.Map.Delete("c")
	list := a.Get("b")
	list.List = append(list.List, NewString("y"))
	list.List[0] = NewString("w")
	list.List[1].Map.Set("f", NewBool(false))
	list.List[2].List = append(list.List[2].List, NewNull())
	a.Get("b").List[1].Map.Delete("c")

	for _, c := range []*Value{v, b} {
		require.True(t, DeepEqual(want, c))
		samePositions(t, want, c)
	}
	require.Equal(t, `{"1":4,"a":"changed","b":["w",{"0":"e","2":"d","f":false},[null],"y"],"d":null,"e":"2024-01-02T00:00:00.000Z","z":3}`, JSON(a))
}

// TestFrozenShared checks that a frozen value with an alias is copied with
// the sharing kept, as Clone does.
func TestFrozenShared(t *testing.T) {
	v, err := Parse([]byte("a: &x {b: 1}\nc: *x\n"), "f.yaml")
	require.NoError(t, err)
	f := Freeze(v)
	require.True(t, f.shared)
	c := f.Copy()
	require.Same(t, c.Get("a"), c.Get("c"))
	require.NotSame(t, v.Get("a"), c.Get("a"))
}

// TestFrozenConcurrent copies one frozen value from several goroutines
// (run with -race).
func TestFrozenConcurrent(t *testing.T) {
	v, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	f := Freeze(v)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := f.Copy()
			c.Map.Set("a", NewNumber(2))
			c.Get("b").List[1].Map.Delete("c")
		}()
	}
	wg.Wait()
	require.Equal(t, 1.0, v.Get("a").Num)
}
