package yamlsrc

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSameDoc requires a and b to be the same document in every part a
// snapshot keeps: kinds, booleans, positions, strings (of every kind),
// number bits, map keys in order with their count of array-index keys,
// list items, and maps and lists without theirs.
func requireSameDoc(t *testing.T, a, b *Value, path string) {
	t.Helper()
	require.Equal(t, a == nil, b == nil, path)
	if a == nil {
		return
	}
	require.Equal(t, a.Kind, b.Kind, path)
	require.Equal(t, a.Bool, b.Bool, path)
	require.Equal(t, [2]int32{a.Line, a.Col}, [2]int32{b.Line, b.Col}, path)
	require.Equal(t, a.Str(), b.Str(), path)
	require.Equal(t, math.Float64bits(a.Num()), math.Float64bits(b.Num()), path)
	require.Equal(t, a.Map() == nil, b.Map() == nil, path)
	require.Equal(t, a.List() == nil, b.List() == nil, path)
	if m := a.Map(); m != nil {
		require.Equal(t, m.Keys(), b.Map().Keys(), path)
		require.Equal(t, m.nInt(), b.Map().nInt(), path)
		for i, k := range m.Keys() {
			requireSameDoc(t, m.Val(i), b.Map().Val(i), path+"."+k)
		}
	}
	require.Equal(t, len(a.List()), len(b.List()), path)
	for i, x := range a.List() {
		requireSameDoc(t, x, b.List()[i], path+"[]")
	}
}

// Every YAML file of the project's testdata, JSON read in its own key
// order, and values carrying strings of other kinds come back from their
// snapshots as they were.
func TestSnapshotRoundTrip(t *testing.T) {
	var docs []*Value
	var names []string
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		v, _, err := ParseAliased(data, p)
		if err != nil || v == nil {
			return nil // malformed on purpose
		}
		if _, err := EncodeSnapshot(v); err != nil {
			return nil // an alias
		}
		docs, names = append(docs, v), append(names, p)
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(docs), 100, "the testdata's documents")

	j, err := ParseJSON([]byte(`{"b": 1, "2": [true, null, "x"], "1": {}, "a": -0.0}`), "j.json")
	require.NoError(t, err)
	num := NewNumber(2.5)
	num.SetStr("2.50")
	marked := MapOf("k", NewTime(-1))
	marked.SetStr("\x00k\x00")
	docs = append(docs, j, NewList(num, marked, &Value{Kind: KindMap}, &Value{Kind: KindList}, NewList()))
	names = append(names, "json", "created")

	for i, v := range docs {
		data, err := EncodeSnapshot(v)
		require.NoError(t, err, names[i])
		got, err := DecodeSnapshot(string(data))
		require.NoError(t, err, names[i])
		requireSameDoc(t, v, got, names[i])
		require.Equal(t, JSON(v), JSON(got), names[i])
	}
}

func TestSnapshotErrors(t *testing.T) {
	shared := NewString("x")
	_, err := EncodeSnapshot(NewList(shared, shared))
	require.ErrorContains(t, err, "held twice")

	data, err := EncodeSnapshot(MapOf("a", NewList(NewNumber(1), NewString("b"))))
	require.NoError(t, err)
	for _, bad := range []string{"", "v4tsnap", "v4tsnap0" + string(data[8:]), string(data[:len(data)-1]), string(data) + "x"} {
		_, err := DecodeSnapshot(bad)
		require.ErrorIs(t, err, errSnapshot, "%q", bad)
	}
}

// A damaged snapshot is an error, never a panic.
func FuzzDecodeSnapshot(f *testing.F) {
	for _, src := range []string{"a: [1, b, {c: null}]\n", "- x\n- 2020-01-01\n"} {
		v, err := Parse([]byte(src), "f.yaml")
		require.NoError(f, err)
		data, err := EncodeSnapshot(v)
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, data string) {
		v, err := DecodeSnapshot(data)
		if err != nil {
			return
		}
		again, err := EncodeSnapshot(v)
		require.NoError(t, err)
		got, err := DecodeSnapshot(string(again))
		require.NoError(t, err)
		requireSameDoc(t, v, got, "")
	})
}
