package sd

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

func TestParseCore(t *testing.T) {
	t.Run("source text and key order", func(t *testing.T) {
		v, err := parseCore([]byte("b: 2.10\n1: True\n0: ~\nd: 2024-01-31\ne: '2.1'\nf: yes\n"), "x.yaml")
		require.NoError(t, err)
		require.Equal(t, []string{"b", "1", "0", "d", "e", "f"}, v.Map().Keys())
		require.Equal(t, yamlsrc.KindNumber, v.Get("b").Kind)
		require.Equal(t, "2.10", v.Get("b").Str())
		require.Equal(t, 2.1, v.Get("b").Num())
		require.True(t, v.Get("1").IsTrue())
		require.Equal(t, "True", v.Get("1").Str())
		require.Equal(t, yamlsrc.KindNull, v.Get("0").Kind)
		require.Equal(t, yamlsrc.KindTime, v.Get("d").Kind)
		require.Equal(t, "2024-01-31", v.Get("d").Str())
		require.Equal(t, yamlsrc.KindString, v.Get("e").Kind)
		require.Equal(t, yamlsrc.KindString, v.Get("f").Kind)
		require.Equal(t, "b: 2.10\n1: True\n0: null\nd: 2024-01-31\ne: '2.1'\nf: yes\n", coreWrite(t, v))
	})
	t.Run("non-string keys", func(t *testing.T) {
		src := "1: a\n'2': b\n~: c\nTrue: d\n2024-01-31: e\n1.50: f\nx: &k 0x10\n*k : g\n"
		v, err := parseCore([]byte(src), "x.yaml")
		require.NoError(t, err)
		require.Equal(t, []string{"1", "2", "null", "True", "2024-01-31", "1.50", "x", "0x10"}, v.Map().Keys())
		for _, k := range []string{"1", "null", "True", "2024-01-31", "1.50", "0x10"} {
			require.True(t, plainKey(v, k), "key %s is not a string", k)
		}
		require.False(t, plainKey(v, "2"), "key '2' is a string")
		require.Equal(t, "1: a\n'2': b\nnull: c\nTrue: d\n2024-01-31: e\n1.50: f\nx: 0x10\n0x10: g\n", coreWrite(t, v))
		require.Equal(t, coreWrite(t, v), coreWrite(t, copyMap(v)), "a copy keeps the key kinds")
		require.Equal(t, coreWrite(t, v), coreWrite(t, yamlsrc.Clone(v)), "a clone keeps the key kinds")
	})
	t.Run("aliases are copies", func(t *testing.T) {
		v, err := parseCore([]byte("a: &x {k: 1}\nb: *x\n"), "x.yaml")
		require.NoError(t, err)
		require.True(t, v.Get("a").IsMap())
		v.Get("a").Map().Set("k", yamlsrc.NewString("changed"))
		require.Equal(t, "1", v.Get("b").Get("k").Str(), "the alias must not share the anchor's value")
	})
	t.Run("merge keys", func(t *testing.T) {
		v, err := parseCore([]byte("base: &b {x: 1, y: 2}\nm:\n  y: 3\n  <<: [*b, {z: 4, x: 5}]\n  w: 6\n"), "x.yaml")
		require.NoError(t, err)
		require.Equal(t, "base:\n  x: 1\n  y: 2\nm:\n  y: 3\n  x: 1\n  z: 4\n  w: 6\n", coreWrite(t, v))
	})
	t.Run("empty documents are null", func(t *testing.T) {
		for _, src := range []string{"", "# only a comment\n", "\n\n", "~\n", "null", "---\n", "...\n"} {
			v, err := parseCore([]byte(src), "x.yaml")
			require.NoError(t, err, "document %q", src)
			require.True(t, v.IsNull(), "document %q", src)
		}
	})
	errs := []struct {
		name, src, want string
		line            int
	}{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", `mapping key "a" already defined at line 1`, 3},
		{"two documents", "a: 1\n---\nb: 2\n", "expected a single YAML document, found another one", 2},
		{"syntax", "a: [1, 2\n", "invalid YAML", 1},
		{"non-scalar key", "? [a]\n: 1\n", "a mapping key must be a scalar, found a sequence", 1},
		{"alias cycle", "a: &x [*x]\n", "alias *x refers to a value that contains it", 1},
		{"bad merge", "a:\n  <<: 5\n", "map merge requires map or sequence of maps as the value", 2},
		{"bad explicit int", "a: !!int x\n", `cannot read "x" as !!int`, 1},
		{"bad explicit float", "a:\n  b: !!float y\n", `cannot read "y" as !!float`, 2},
		{"bad explicit bool", "a: !!bool maybe\n", `cannot read "maybe" as !!bool`, 1},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseCore([]byte(tc.src), "x.yaml")
			require.Error(t, err, "document %q", tc.src)
			d := testkit.Diagnostic(t, err, "a diagnostic for %q", tc.src)
			require.Contains(t, d.Message, tc.want, "document %q", tc.src)
			require.Equal(t, "x.yaml", d.Pos.File)
			require.Equal(t, tc.line, d.Pos.Line, "line of the error in %q", tc.src)
		})
	}
}

func TestParseCoreExpansionLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 8 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	_, err := parseCore([]byte(b.String()), "bomb.yaml")
	require.Error(t, err)
	require.Contains(t, err.Error(), "document expands to more than")
}

// TestParseCoreDepthLimit: the core dialect accepts yamlsrc.MaxDepth levels
// and rejects one more with a positioned error, as yamlsrc's readers do.
func TestParseCoreDepthLimit(t *testing.T) {
	flowList := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	flowMap := func(n int) string { return strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) }
	block := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		return b.String()
	}
	for i, doc := range []func(int) string{flowList, flowMap, block} {
		_, err := parseCore([]byte(doc(yamlsrc.MaxDepth-1)), "deep.yaml")
		require.NoError(t, err, "case %d: %d levels", i, yamlsrc.MaxDepth-1)
		_, err = parseCore([]byte(doc(yamlsrc.MaxDepth+2)), "deep.yaml")
		require.Error(t, err, "case %d: %d levels", i, yamlsrc.MaxDepth+2)
		d := testkit.Diagnostic(t, err, "case %d: not a diagnostic: %v", i, err)
		require.Contains(t, d.Message, "nested deeper than 1000 levels", "case %d", i)
		require.Equal(t, 1, min(d.Pos.Line, 1), "case %d: a position: %v", i, d.Pos)
	}
}

// TestLoadCoreFileNotRegular: loadCoreFile (used for case files) refuses
// what is not a regular file instead of reading a device without end or
// waiting for a pipe's writer.
func TestLoadCoreFileNotRegular(t *testing.T) {
	testkit.NotRegularFiles(t, yamlsrc.CodeRead, func(path string) error {
		_, err := loadCoreFile(path)
		return err
	})
}

// FuzzParseCore: parseCore never panics, a rejected document gets a
// positioned diagnostic, and an accepted one is written and read back
// unchanged.
func FuzzParseCore(f *testing.F) {
	for _, s := range testkit.YAMLSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseCore(data, "fuzz.yaml")
		if err != nil {
			d := testkit.Diagnostic(t, err, "error %v is not a diagnostic", err)
			require.Equal(t, "fuzz.yaml", d.Pos.File)
			require.Positive(t, d.Pos.Line, "error %q has no line", d.Message)
			return
		}
		out, err := Format(v)
		require.NoError(t, err)
		back, err := parseCore(out, "back.yaml")
		require.NoError(t, err, "reading back %q", out)
		require.True(t, coreSame(v, back), "%q reads back differently", out)
	})
}

// FuzzParseJSON: yamlsrc.ParseJSON, SD's reader of JSON input, never
// panics, agrees with encoding/json on what is JSON (except for duplicate
// keys, which it rejects), and gives rejected input a positioned
// diagnostic; an accepted text is written and read back unchanged.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a": [1, 2.10, -0.5e-3, true, false, null, "x\u00e9"]}`, `{"a": 1, "a": 2}`, `{[{}]}`, `"\ud800"`, `1e400`, ` [ ] `, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := yamlsrc.ParseJSON(data, "fuzz.json")
		valid := json.Valid(data) && utf8.Valid(data)
		if err != nil {
			d := testkit.Diagnostic(t, err, "error %v is not a diagnostic", err)
			require.Positive(t, d.Pos.Line, "error %q has no line", d.Message)
			if valid {
				require.True(t, strings.HasPrefix(d.Message, "duplicate key") || strings.Contains(d.Message, "nested deeper"), "valid JSON %q rejected: %s", data, d.Message)
			}
			return
		}
		require.True(t, valid, "invalid JSON %q accepted", data)
		out, err := Format(v)
		require.NoError(t, err)
		back, err := parseCore(out, "back.yaml")
		require.NoError(t, err, "reading back %q", out)
		require.True(t, coreSame(v, back), "%q reads back differently", out)
	})
}
