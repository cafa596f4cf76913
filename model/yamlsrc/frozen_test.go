package yamlsrc

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
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
		require.Equal(t, a.Map().Keys(), b.Map().Keys())
		for i := range a.Map().Keys() {
			samePositions(t, a.Map().Val(i), b.Map().Val(i))
		}
	case KindList:
		require.Len(t, b.List(), len(a.List()))
		for i := range a.List() {
			samePositions(t, a.List()[i], b.List()[i])
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

	a.Map().Set("a", NewString("changed"))
	a.Map().Set("z", NewNumber(3))
	a.Map().Set("1", NewNumber(4))
	a.Map().Delete("c")
	list := a.Get("b")
	list.SetList(append(list.List(), NewString("y")))
	list.List()[0] = NewString("w")
	list.List()[1].Map().Set("f", NewBool(false))
	list.List()[2].SetList(append(list.List()[2].List(), NewNull()))
	a.Get("b").List()[1].Map().Delete("c")

	for _, c := range []*Value{v, b} {
		require.True(t, DeepEqual(want, c))
		samePositions(t, want, c)
	}
	require.Equal(t, `{"1":4,"a":"changed","b":["w",{"0":"e","2":"d","f":false},[null],"y"],"d":null,"e":"2024-01-02T00:00:00.000Z","z":3}`, JSON(a))
}

// TestFrozenSharesScalars: the copies hold the frozen value's scalars and
// their own maps and lists, and Verify reports a shared scalar changed in
// place, which no owner may do.
// TestFrozenCopyTo copies through one CopyArrays as a batch worker does,
// each copy changed by its owner before the next Reset: every copy after a
// Reset comes out as a fresh one, in the arrays of the copy before, and
// the frozen value is untouched.
func TestFrozenCopyTo(t *testing.T) {
	want, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	v, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	f := Freeze(v)
	var arrays CopyArrays
	var last *Value
	for round := range 3 {
		c := f.CopyTo(&arrays)
		require.True(t, DeepEqual(want, c), "round %d", round)
		samePositions(t, want, c)
		if last != nil {
			assert.Same(t, last, c, "round %d copies into the arrays of the round before", round)
		}
		last = c
		c.Map().Set("a", NewString("changed"))
		c.Map().Delete("c")
		c.Get("b").List()[1].Map().Set("f", NewBool(false))
		arrays.Reset()
	}
	require.True(t, DeepEqual(want, v), "the frozen value")
	assert.True(t, DeepEqual(want, f.CopyTo(nil)))
}

func TestFrozenSharesScalars(t *testing.T) {
	v, err := Parse([]byte(frozenDoc), "f.yaml")
	require.NoError(t, err)
	f := Freeze(v)
	f.Watch()
	a, b := f.Copy(), f.Copy()
	for _, c := range []*Value{a, b} {
		require.Same(t, v.Get("a"), c.Get("a"))
		require.Same(t, v.Get("d"), c.Get("d"))
		require.Same(t, v.Get("b").List()[0], c.Get("b").List()[0])
		require.NotSame(t, v.Get("b"), c.Get("b"))
		require.NotSame(t, v.Get("b").List()[1], c.Get("b").List()[1])
		require.NotSame(t, v.Get("c"), c.Get("c"))
	}
	require.Equal(t, 5, f.values, "the maps and lists of a copy: the root, b, b[1], b[2] and c")
	// Replacing a scalar in a copy is the owner's to do.
	a.Map().Set("a", NewNumber(5))
	a.Get("b").List()[1].Map().Set("c", NewBool(false))
	require.NoError(t, f.Verify())
	require.Equal(t, 1.0, b.Get("a").Num())

	e := b.Get("e")
	e.SetNum(e.Num() + 1)
	require.ErrorContains(t, f.Verify(), "a scalar shared by the copies of a frozen document was changed")
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

	// A scalar held twice is no alias to keep: copies share every scalar.
	v, err = Parse([]byte("a: &x 1\nc: *x\nd: {e: 2}\n"), "f.yaml")
	require.NoError(t, err)
	f = Freeze(v)
	require.False(t, f.shared)
	c = f.Copy()
	require.Same(t, v.Get("a"), c.Get("a"))
	require.Same(t, c.Get("a"), c.Get("c"))
	require.NotSame(t, v.Get("d"), c.Get("d"))
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
			c.Map().Set("a", NewNumber(2))
			c.Get("b").List()[1].Map().Delete("c")
		}()
	}
	wg.Wait()
	require.Equal(t, 1.0, v.Get("a").Num())
}

// TestFrozenReadOnly checks the subtrees Freeze shares: every copy holds
// them as they are while the rest is copied, they are ready for concurrent
// lookups (their large maps indexed), and Verify reports a change to one,
// whatever the change.
func TestFrozenReadOnly(t *testing.T) {
	const src = "types:\n  big: {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9}\n  small: {derived_from: root, list: [a, b]}\n  own: {x: 1}\n"
	changes := []struct {
		name   string
		change func(types *Value)
	}{
		{"a key set", func(types *Value) { types.Get("small").Map().Set("x", NewNull()) }},
		{"a key deleted", func(types *Value) { types.Get("big").Map().Delete("k3") }},
		{"a scalar changed", func(types *Value) { types.Get("small").Get("derived_from").SetStr("other") }},
		{"a position changed", func(types *Value) { types.Get("big").Get("k9").Line++ }},
		{"a list item replaced", func(types *Value) { types.Get("small").Get("list").List()[1] = NewString("b") }},
		{"a list grown", func(types *Value) {
			l := types.Get("small").Get("list")
			l.SetList(append(l.List(), NewString("c")))
		}},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Parse([]byte(src), "f.yaml")
			require.NoError(t, err)
			types := v.Get("types")
			big, small, own := types.Get("big"), types.Get("small"), types.Get("own")
			// A subtree inside another shared one, and a value not in v,
			// add nothing.
			f := Freeze(v, big, small, small.Get("list"), NewString("not in v"))
			require.Len(t, f.readOnly, 2)
			require.NotNil(t, big.Map().x.index, "the large map is indexed at Freeze")
			require.ErrorContains(t, f.Verify(), "not watched", "Verify needs Watch")
			f.Watch()

			var wg sync.WaitGroup
			copies := make([]*Value, 4)
			for i := range copies {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := f.Copy()
					for k := range 10 {
						assert.Equal(t, float64(k), c.Get("types").Get("big").Get(fmt.Sprintf("k%d", k)).Num())
					}
					c.Get("types").Get("own").Map().Set("x", NewNumber(2))
					copies[i] = c
				}()
			}
			wg.Wait()
			for _, c := range copies {
				require.Same(t, big, c.Get("types").Get("big"))
				require.Same(t, small, c.Get("types").Get("small"))
				require.NotSame(t, own, c.Get("types").Get("own"))
				require.Equal(t, 2.0, c.Get("types").Get("own").Get("x").Num())
			}
			require.Equal(t, 1.0, own.Get("x").Num())
			require.NoError(t, f.Verify())

			tc.change(copies[0].Get("types"))
			require.ErrorContains(t, f.Verify(), "a value shared by the copies of a frozen document was changed")
		})
	}
}

// TestFrozenReadOnlyAliased: a document with an alias is cloned whole, its
// read-only subtrees included, as before.
func TestFrozenReadOnlyAliased(t *testing.T) {
	v, err := Parse([]byte("a: &x {b: 1}\nc: *x\nd: {e: 2}\n"), "f.yaml")
	require.NoError(t, err)
	d := v.Get("d")
	f := Freeze(v, d)
	require.True(t, f.shared)
	require.NotSame(t, d, f.Copy().Get("d"))
}

// TestFrozenReadOnlyDepths: copies share the read-only subtrees wherever
// they are, at the depths Freeze found, and copy every map and list beside
// and below the deepest of them.
func TestFrozenReadOnlyDepths(t *testing.T) {
	const src = "a: {x: 1}\nb:\n  c: {y: 2}\n  d:\n    - {z: 3}\n    - [{w: 4}, {v: 5}]\ne: [{u: 6}]\n"
	for _, tc := range []struct {
		name  string
		paths [][]any // each a path of keys and indexes to a shared subtree
		depth int
	}{
		{"none", nil, 0},
		{"depth 1", [][]any{{"a"}}, 1},
		{"depth 2", [][]any{{"b", "c"}}, 2},
		{"list items at depths 3 and 4", [][]any{{"b", "d", 0}, {"b", "d", 1, 1}}, 4},
		{"mixed", [][]any{{"a"}, {"b", "d", 1, 0}, {"e", 0}}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Parse([]byte(src), "f.yaml")
			require.NoError(t, err)
			at := func(root *Value, path []any) *Value {
				for _, p := range path {
					switch p := p.(type) {
					case string:
						root = root.Get(p)
					case int:
						root = root.List()[p]
					}
				}
				return root
			}
			shared := map[*Value]bool{}
			var roots []*Value
			for _, p := range tc.paths {
				roots = append(roots, at(v, p))
				shared[at(v, p)] = true
			}
			f := Freeze(v, roots...)
			require.Equal(t, tc.depth, f.readOnlyDepth)
			c := f.Copy()
			require.True(t, DeepEqual(v, c))
			// Walk both: a map or list is the original exactly where it is
			// a shared subtree (whose insides are then not walked).
			var walk func(orig, cp *Value)
			walk = func(orig, cp *Value) {
				if orig.Kind != KindMap && orig.Kind != KindList {
					return
				}
				if shared[orig] {
					require.Same(t, orig, cp)
					return
				}
				require.NotSame(t, orig, cp)
				if orig.Kind == KindMap {
					for i := range orig.Map().Len() {
						walk(orig.Map().Val(i), cp.Map().Val(i))
					}
					return
				}
				for i := range orig.List() {
					walk(orig.List()[i], cp.List()[i])
				}
			}
			walk(v, c)
		})
	}
}
