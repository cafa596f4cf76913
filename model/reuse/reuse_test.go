package reuse

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMakeReusesAfterReset(t *testing.T) {
	var a Arrays[*int]
	x := 1
	first := a.Make(100)
	require.Len(t, first, 100)
	require.Equal(t, 100, cap(first), "appending must copy, not write into a neighbour")
	for i := range first {
		first[i] = &x
	}
	a.Reset()
	again := a.Make(100)
	assert.Same(t, &first[0], &again[0], "the array of the run before is handed out again")
	for i, p := range again {
		require.Nil(t, p, "entry %d of a reused array is not zero", i)
	}
	assert.Equal(t, 100, a.Held())
}

func TestMakeFitsBySize(t *testing.T) {
	tests := []struct {
		name      string
		before    int
		ask       int
		sameArray bool
	}{
		{"same size", 64, 64, true},
		{"smaller in the same class", 100, 70, true},
		{"larger in the same class", 70, 100, false},
		{"from the next class", 200, 100, true},
		{"two classes up is not looked at", 400, 100, false},
		{"smaller class never serves", 50, 100, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a Arrays[int]
			before := a.Make(tc.before)
			a.Reset()
			got := a.Make(tc.ask)
			require.Len(t, got, tc.ask)
			require.Equal(t, tc.ask, cap(got))
			assert.Equal(t, tc.sameArray, &before[0] == &got[0], "%d after %d", tc.ask, tc.before)
		})
	}
}

func TestArraysInUseAreNotHandedOut(t *testing.T) {
	var a Arrays[int]
	x, y := a.Make(8), a.Make(8)
	require.NotSame(t, &x[0], &y[0])
	a.Reset()
	// Both come back, one each; a third is new.
	p, q, r := a.Make(8), a.Make(8), a.Make(8)
	seen := map[*int]bool{&p[0]: true, &q[0]: true, &r[0]: true}
	assert.Len(t, seen, 3)
	assert.True(t, seen[&x[0]] && seen[&y[0]])
	assert.Equal(t, 24, a.Held())
}

func TestNilArraysAllocate(t *testing.T) {
	var a *Arrays[int]
	s := a.Make(5)
	assert.Len(t, s, 5)
	a.Reset()
	assert.Equal(t, 0, a.Held())
	var b Arrays[int]
	assert.NotNil(t, b.Make(0), "an empty slice, as make gives")
	assert.Equal(t, 0, b.Held())
}

// TestResetLetsLargeIdleArraysGo: arrays that a whole run did not ask for
// are let go at the next Reset where they hold more than the run used and
// more than keepIdle bytes, so that small runs after a large one do not
// keep its memory; smaller idle arrays stay.
func TestResetLetsLargeIdleArraysGo(t *testing.T) {
	var a Arrays[int]
	huge := keepIdle/8 + 1
	large, small, _ := a.Make(huge), a.Make(8), a.Make(1000)
	a.Reset() // a large run
	assert.Equal(t, huge+8+1000, a.Held())
	again := a.Make(8)
	a.Reset() // a small run: the large array and the other were not asked for
	assert.Equal(t, 8, a.Held(), "the idle arrays go with the large one")
	assert.Same(t, &small[0], &again[0])
	fresh := a.Make(huge)
	assert.NotSame(t, &large[0], &fresh[0], "let go, not handed out again")

	var b Arrays[int]
	_, idle := b.Make(8), b.Make(1000)
	b.Reset()
	b.Make(8)
	b.Reset() // the idle array is small: it stays
	assert.Equal(t, 1008, b.Held())
	assert.Same(t, &idle[0], &b.Make(1000)[0])
}

// TestSlab: a slab cuts zero values from arrays that double from first up
// to most, taken from an Arrays; after Reset and the Arrays' Reset, the
// same arrays again.
func TestSlab(t *testing.T) {
	var a Arrays[[2]int]
	s := Slab[[2]int]{From: &a, First: 4, Most: 16}
	var first []*[2]int
	for range 4 + 8 + 16 + 16 {
		x := s.New()
		require.Equal(t, [2]int{}, *x)
		x[0] = 1
		first = append(first, x)
	}
	assert.Equal(t, 4+8+16+16, a.Held(), "arrays of 4, 8, 16 and 16")
	s.Reset()
	a.Reset()
	places := map[*[2]int]bool{}
	for _, x := range first {
		places[x] = true
	}
	for i := range first {
		x := s.New()
		require.Equal(t, [2]int{}, *x, "value %d", i)
		assert.True(t, places[x], "value %d in the arrays of the first round", i)
		delete(places, x)
	}
	assert.Equal(t, 4+8+16+16, a.Held(), "no new array")
	var fresh Slab[int]
	assert.NotNil(t, fresh.New(), "without Arrays or sizes")
	assert.NotNil(t, fresh.New())
}

// TestLists: lists cut from one array have their length as capacity, so
// that appending to one never writes into the next; none is nil, as
// append gives; long lists get their own array; after a Reset of the
// arrays and the Lists, lists are cut zeroed from the arrays taken back.
func TestLists(t *testing.T) {
	var arrays Arrays[int]
	s := Lists[int]{From: &arrays}
	for round := range 2 {
		require.Nil(t, s.Cut(0))
		a, b := s.Cut(2), s.Cut(3)
		require.Equal(t, []int{2, 2, 3, 3}, []int{len(a), cap(a), len(b), cap(b)})
		b[0] = 7
		a = append(a, 9)
		require.Equal(t, 7, b[0], "an append to a list copies it")
		for i := range 2000 {
			l := s.Cut(1 + i%5)
			require.Equal(t, len(l), cap(l))
			for j := range l {
				require.Zero(t, l[j], "round %d: a cut list is zeroed", round)
				l[j] = i + 1
			}
		}
		long := s.Cut(MaxLists)
		require.Len(t, long, MaxLists)
		require.Equal(t, MaxLists, cap(long))
		s.Reset()
		arrays.Reset()
	}
	var none Lists[int]
	require.Len(t, none.Cut(3), 3, "without arrays, lists are allocated")
	// A list longer than the next array would be (4, then 8) gets an
	// array that holds it.
	var fresh Lists[int]
	require.Len(t, fresh.Cut(2), 2)
	require.Len(t, fresh.Cut(MaxLists/8), MaxLists/8)
}

// TestFreeArraysAreZeroedWithinARun: an array is zeroed when it is handed
// out again; one that the next run does not ask for is zeroed at that
// run's end, so that a free array keeps what its pointers hold alive for
// one run at most. Every array handed out is zero, the part beyond the
// length asked for included.
func TestFreeArraysAreZeroedWithinARun(t *testing.T) {
	var a Arrays[*int]
	x := 1
	fill := func(s []*int) {
		for i := range s {
			s[i] = &x
		}
	}
	taken, idle := a.Make(100), a.Make(1000)
	fill(taken)
	fill(idle)
	a.Reset()
	dirty := func() (n int) {
		for _, list := range a.free {
			for _, f := range list {
				for _, p := range f.s[:cap(f.s)] {
					if p != nil {
						n++
					}
				}
			}
		}
		return n
	}
	require.Equal(t, 1100, dirty(), "kept as the run left them, until handed out")
	again := a.Make(70)
	require.Same(t, &taken[0], &again[0])
	require.Len(t, again, 70)
	for i, p := range taken {
		// taken is the whole array, beyond the 70 entries asked for.
		require.Nil(t, p, "entry %d of the array handed out again", i)
	}
	require.Equal(t, 1000, dirty(), "the array not asked for")
	fill(again)
	a.Reset()
	require.Equal(t, 70, dirty(), "the idle array is zeroed at the end of the run that did not ask for it")
	again = a.Make(1000)
	require.Same(t, &idle[0], &again[0])
	for i, p := range again {
		require.Nil(t, p, "entry %d of the array idle for a run", i)
	}
}
