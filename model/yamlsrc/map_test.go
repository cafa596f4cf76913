package yamlsrc

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMapIndexKeys checks JavaScript's key order for array-index keys
// (ascending, before all other keys) whatever the order they are set in,
// and that lookups find every key afterwards.
func TestMapIndexKeys(t *testing.T) {
	tests := []struct {
		name string
		set  []string
		want []string
	}{
		{"ascending", []string{"0", "1", "2"}, []string{"0", "1", "2"}},
		{"descending", []string{"2", "1", "0"}, []string{"0", "1", "2"}},
		{"mixed", []string{"b", "10", "a", "2", "01", "1"}, []string{"1", "2", "10", "b", "a", "01"}},
		{"many after a name", append([]string{"name"}, seq(0, 20)...), append(seq(0, 20), "name")},
		{"many, then a gap filled", append(append(seq(0, 10), seq(11, 20)...), "x", "10"), append(seq(0, 20), "x")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMap()
			for _, k := range tc.set {
				m.Map().Set(k, NewString(k))
			}
			require.Equal(t, tc.want, m.Map().Keys(), "key order of %v", tc.set)
			for _, k := range tc.set {
				require.Equal(t, k, m.Get(k).Str(), "value of %q after setting %v", k, tc.set)
			}
			m.Map().Set("1", NewString("again"))
			require.Equal(t, tc.want, m.Map().Keys(), "key order of %v after setting 1 again", tc.set)
		})
	}
}

func seq(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// TestMapManyIndexKeys: setting 100,000 array-index keys in ascending
// order, after other keys or not, takes linear time (it took quadratic
// time, a scan and an index rebuild per key). The bound is generous; the
// work takes a few tens of milliseconds.
func TestMapManyIndexKeys(t *testing.T) {
	const n = 100000
	for _, lead := range []string{"", "name"} {
		m := NewMap()
		if lead != "" {
			m.Map().Set(lead, NewNull())
		}
		start := time.Now()
		for i := range n {
			k := strconv.Itoa(i)
			m.Map().Set(k, NewNull())
			if _, ok := m.Map().Lookup(k); !ok {
				require.Failf(t, "lost key", "key %s after setting it (lead %q)", k, lead)
			}
		}
		elapsed := time.Since(start)
		require.Less(t, elapsed, 5*time.Second, "setting %d index keys (lead %q)", n, lead)
		require.Equal(t, n+len(lead)/len("name"), m.Map().Len())
		require.Equal(t, "99999", m.Map().Key(n-1), "last index key (lead %q)", lead)
	}
}

// BenchmarkMapIndexKeys sets 100,000 array-index keys in ascending order.
func BenchmarkMapIndexKeys(b *testing.B) {
	keys := seq(0, 100000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m := NewMap()
		m.Map().Set("name", NewNull())
		for _, k := range keys {
			m.Map().Set(k, nil)
		}
	}
}

// TestMapAgainstModel runs random Set, Delete and lookups on maps small and
// large (with a key index) against a plain ordered list with JavaScript's
// key order, checking every key's value and the order after each step.
func TestMapAgainstModel(t *testing.T) {
	type entry struct {
		k string
		v *Value
	}
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		pool := 4 + r.IntN(60)
		m := NewMap().Map()
		var model []entry
		find := func(k string) int {
			for i, e := range model {
				if e.k == k {
					return i
				}
			}
			return -1
		}
		for step := range 300 {
			k := "k" + strconv.Itoa(r.IntN(pool))
			if r.IntN(4) == 0 {
				k = strconv.Itoa(r.IntN(pool))
			}
			switch op := r.IntN(10); {
			case op < 6:
				v := NewNumber(float64(step))
				m.Set(k, v)
				if i := find(k); i >= 0 {
					model[i].v = v
					break
				}
				pos := len(model)
				if n, ok := arrayIndex(k); ok {
					pos = 0
					for pos < len(model) {
						if x, ok := arrayIndex(model[pos].k); !ok || x > n {
							break
						}
						pos++
					}
				}
				model = append(model[:pos], append([]entry{{k, v}}, model[pos:]...)...)
			case op == 8:
				k2 := strconv.Itoa(r.IntN(pool))
				n := 0
				for _, d := range []string{k, k2} {
					if i := find(d); i >= 0 {
						model = append(model[:i], model[i+1:]...)
						n++
					}
				}
				require.Equal(t, n, m.DeleteAll([]string{k, k2}), "seed %d step %d: DeleteAll(%q, %q)", seed, step, k, k2)
			case op < 8:
				i := find(k)
				require.Equal(t, i >= 0, m.Delete(k), "seed %d step %d: Delete(%q)", seed, step, k)
				if i >= 0 {
					model = append(model[:i], model[i+1:]...)
				}
			default:
				keys := make([]string, len(model))
				for i, e := range model {
					keys[i] = e.k
					require.Same(t, e.v, m.Val(i), "seed %d step %d: value %d", seed, step, i)
				}
				require.Equal(t, keys, append([]string{}, m.Keys()...), "seed %d step %d: keys", seed, step)
			}
			require.Equal(t, len(model), m.Len(), "seed %d step %d: Len", seed, step)
			for i := range pool {
				for _, k := range []string{"k" + strconv.Itoa(i), strconv.Itoa(i)} {
					got, ok := m.Lookup(k)
					j := find(k)
					require.Equal(t, j >= 0, ok, "seed %d step %d: Lookup(%q)", seed, step, k)
					require.Equal(t, j, m.Index(k), "seed %d step %d: Index(%q)", seed, step, k)
					if ok {
						require.Same(t, model[j].v, got, "seed %d step %d: Lookup(%q)", seed, step, k)
					}
				}
			}
		}
	}
}

// TestEntryList: the one-allocation [{key: {}}] is the list built piece by
// piece, array-index keys included, and its parts change independently.
func TestEntryList(t *testing.T) {
	for _, key := range []string{"tosca.nodes.Root", "7", ""} {
		got := EntryList(key)
		want := NewList(MapOf(key, NewMap()))
		require.True(t, DeepEqual(want, got), "key %q", key)
		require.Equal(t, want.List()[0].Map().nInt(), got.List()[0].Map().nInt(), "key %q", key)
		got.List()[0].Get(key).Map().Set("conditions", NewBool(true))
		got.SetList(append(got.List(), NewNull()))
		require.Equal(t, 1, got.List()[0].Map().Len())
		require.Equal(t, 1, got.List()[0].Get(key).Map().Len())
		require.Len(t, got.List(), 2)
	}
}

// TestOpOf: the one-allocation operators are the maps and lists built piece
// by piece; OpOf keeps the caller's items as NewList does, and appending to
// a PairOf list leaves the pair as it was.
func TestOpOf(t *testing.T) {
	a, b, c := NewString("a"), NewNumber(1), NewBool(true)
	items := []*Value{a, b, c}
	op := OpOf("and", items)
	require.True(t, DeepEqual(MapOf("and", NewList(a, b, c)), op))
	require.Same(t, &items[0], &op.Get("and").List()[0], "the items are the caller's")
	require.True(t, DeepEqual(MapOf("or", NewList()), OpOf("or", nil)))
	require.NotNil(t, OpOf("or", nil).Get("or").List(), "an empty list, not a null")
	require.Equal(t, 1, OpOf("7", items).Map().nInt(), "array-index key")

	pair := PairOf("implies", a, b)
	require.True(t, DeepEqual(MapOf("implies", NewList(a, b)), pair))
	l := pair.Get("implies")
	grown := append(l.List(), c)
	require.Len(t, l.List(), 2)
	require.Len(t, grown, 3)
	pair.Map().Set("_generated", NewBool(true))
	require.Equal(t, 2, pair.Map().Len())
	require.NotSame(t, PairOf("implies", a, b), PairOf("implies", a, b), "fresh values")
}

// TestNewMapSize: a map made with room for n entries holds n without
// growing and grows past them like any other.
func TestNewMapSize(t *testing.T) {
	for n := range 7 {
		m := NewMapSize(n)
		require.GreaterOrEqual(t, int(m.Map().c), n, "room for %d", n)
		keys := []string{"x", "2", "y", "0", "z", "w", "v"}[:n]
		keys = append(keys, "extra")
		for i, k := range keys {
			m.Map().Set(k, NewNumber(float64(i)))
		}
		require.Equal(t, len(keys), m.Map().Len())
		for i, k := range keys {
			require.Equal(t, float64(i), m.Get(k).Num(), "n %d key %q", n, k)
		}
		require.True(t, DeepEqual(m, Clone(m)))
	}
}

// TestSetNew: adding new keys with SetNew gives the map that Set gives,
// array-index keys moved to the front included, and lookups afterwards
// (which build the key index of a large map) find every key.
func TestSetNew(t *testing.T) {
	for _, n := range []int{3, indexThreshold + 1, 40} {
		set, setNew := NewMap().Map(), NewMapSize(n).Map()
		for i := range n {
			k := "k" + strconv.Itoa(i)
			if i%7 == 3 {
				k = strconv.Itoa(100 - i)
			}
			v := NewNumber(float64(i))
			set.Set(k, v)
			setNew.SetNew(k, v)
		}
		require.Equal(t, set.Keys(), setNew.Keys(), "n=%d", n)
		for i, k := range set.Keys() {
			require.Same(t, set.Val(i), setNew.Get(k), "n=%d %s", n, k)
		}
		setNew.Set("k0", NewBool(true))
		require.True(t, setNew.Get("k0").IsTrue())
		require.Equal(t, n, setNew.Len())
	}
}

// TestFirstRanked: the key of lowest rank among those with a value that is
// not null, whatever their order in the map; none where no key ranks.
func TestFirstRanked(t *testing.T) {
	rank := NewRanks("a", "b", "c")
	for _, tc := range []struct {
		doc  string
		want int
		val  string
	}{
		{"{c: 3, b: 2}", 1, "2"},
		{"{x: 1, c: 3}", 2, "3"},
		{"{a: null, c: 3, b: null}", 2, "3"},
		{"{x: 1, y: 2}", -1, ""},
		{"{}", -1, ""},
	} {
		r, v := mustParse(t, tc.doc).Map().FirstRanked(rank)
		require.Equal(t, tc.want, r, tc.doc)
		if tc.want < 0 {
			require.Nil(t, v, tc.doc)
			continue
		}
		require.Equal(t, tc.val, String(v), tc.doc)
	}
}

// TestRanks: Rank gives each key its position and every other string -1,
// among keys that share lengths and first bytes, as a map from key to
// position would.
func TestRanks(t *testing.T) {
	keys := []string{"and", "amo", "or", "not", "has_artifact", "has_artifact_naive", "has_present_target",
		"has_present_member", "node_presence", "host_presence", "é", "ab", "b"}
	r := NewRanks(keys...)
	want := map[string]int{}
	for i, k := range keys {
		want[k] = i
	}
	probes := append([]string{"", "a", "an", "anc", "andd", "has_present_targex", "node_presencE", "x",
		"é\x00", "\xc3", strings.Repeat("a", 100), "_generated", "conditions"}, keys...)
	for _, k := range probes {
		w, ok := want[k]
		if !ok {
			w = -1
		}
		require.Equal(t, w, r.Rank(k), "%q", k)
	}
	require.Panics(t, func() { NewRanks("a", "b", "a") }, "a repeated key")
	require.Panics(t, func() { NewRanks("a", "") }, "the empty key")
}

// TestIndexNear: IndexNear gives what Index gives whatever the hint, in
// small and indexed maps, with a tombstone not yet compacted away, and on a
// nil map.
func TestIndexNear(t *testing.T) {
	build := func(n int) *Map {
		m := NewMap().Map()
		for i := range n {
			m.Set("k"+strconv.Itoa(i), NewNumber(float64(i)))
		}
		if n > 0 {
			m.Delete("k1")
		}
		return m
	}
	for _, n := range []int{0, 3, 40} {
		for _, k := range []string{"k0", "k1", "k2", "k39", "missing"} {
			for hint := -2; hint <= n+1; hint++ {
				require.Equal(t, build(n).Index(k), build(n).IndexNear(k, hint), "n=%d key %s hint %d", n, k, hint)
			}
		}
	}
	var nilMap *Map
	require.Equal(t, -1, nilMap.IndexNear("a", 0))
}

// TestRoomForASecondKey: MapOf1Room, OpOfRoom and PairOfRoom make what
// MapOf1, OpOf and PairOf make, and take a second key without allocating,
// where a map made without room grows.
func TestRoomForASecondKey(t *testing.T) {
	a, b := NewString("a"), NewNumber(1)
	for _, tc := range []struct {
		name       string
		room, bare func() *Value
	}{
		{"map", func() *Value { return MapOf1Room("k", a) }, func() *Value { return MapOf1("k", a) }},
		{"op", func() *Value { return OpOfRoom("k", []*Value{a, b}) }, func() *Value { return OpOf("k", []*Value{a, b}) }},
		{"pair", func() *Value { return PairOfRoom("k", a, b) }, func() *Value { return PairOf("k", a, b) }},
	} {
		room, bare := tc.room(), tc.bare()
		require.True(t, DeepEqual(bare, room), tc.name)
		require.True(t, DeepEqual(MapOf("k", bare.Get("k")), bare), tc.name)
		require.Zero(t, mallocs(func() { room.Map().Set("_generated", a) }), "%s with room", tc.name)
		require.NotZero(t, mallocs(func() { bare.Map().Set("_generated", a) }), "%s without room", tc.name)
		require.True(t, DeepEqual(bare, room), tc.name)
	}
}

// mallocs counts the heap allocations f makes.
func mallocs(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}
