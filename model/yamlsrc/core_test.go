package yamlsrc

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// coreOpts is the layout of sd-merge.md §12.
var coreOpts = WriteOptions{Indent: 2, Dialect: DialectCore}

func coreWrite(t testing.TB, v *Value) string {
	t.Helper()
	out, err := MarshalWith(v, coreOpts)
	require.NoError(t, err)
	return string(out)
}

// coreNode builds the yaml.Node tree of sd-merge.md §12's recipe: default
// styles, except strings that would read back as another type, which are
// single-quoted.
func coreNode(v *Value) *yaml.Node {
	if v == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	switch v.Kind {
	case KindMap:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i, k := range v.Map.Keys() {
			kn := coreStrNode(k)
			if PlainKey(v, k) {
				kn = &yaml.Node{Kind: yaml.ScalarNode, Value: k}
			}
			n.Content = append(n.Content, kn, coreNode(v.Map.Val(i)))
		}
		return n
	case KindList:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, x := range v.List {
			n.Content = append(n.Content, coreNode(x))
		}
		return n
	case KindString:
		return coreStrNode(v.Str)
	case KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	text, _ := ScalarText(v)
	return &yaml.Node{Kind: yaml.ScalarNode, Value: text}
}

func coreStrNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	// sd-merge.md §12 quotes the merge key too, which ShortTag calls a string.
	if s == "<<" || (&yaml.Node{Kind: yaml.ScalarNode, Value: s}).ShortTag() != "!!str" {
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

// yamlV3Encode writes n with yaml.v3's encoder, indentation 2.
func yamlV3Encode(t testing.TB, n *yaml.Node) string {
	t.Helper()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	require.NoError(t, enc.Encode(n))
	require.NoError(t, enc.Close())
	return b.String()
}

func TestWriteCoreStrings(t *testing.T) {
	// sd-merge.md §12's examples, written as the value of key "k".
	tests := []struct{ in, want string }{
		{"plain", "k: plain\n"},
		{"", "k: ''\n"},
		{"~", "k: '~'\n"},
		{"null", "k: 'null'\n"},
		{"true", "k: 'true'\n"},
		{"False", "k: 'False'\n"},
		{"123", "k: '123'\n"},
		{"2.1", "k: '2.1'\n"},
		{"1e3", "k: '1e3'\n"},
		{"0x1F", "k: '0x1F'\n"},
		{"0o17", "k: '0o17'\n"},
		{".inf", "k: '.inf'\n"},
		{"2024-01-31", "k: '2024-01-31'\n"},
		{"<<", "k: '<<'\n"},
		{"yes", "k: yes\n"},
		{"no", "k: no\n"},
		{"on", "k: on\n"},
		{"1:20", "k: 1:20\n"},
		{"a: b", "k: 'a: b'\n"},
		{"#tag", "k: '#tag'\n"},
		{"- x", "k: '- x'\n"},
		{"end:", "k: 'end:'\n"},
		{"x #y", "k: 'x #y'\n"},
		{"@at", "k: '@at'\n"},
		{"`tick", "k: '`tick'\n"},
		{"it's", "k: it's\n"},
		{"'quoted'", "k: '''quoted'''\n"},
		{"a:b", "k: a:b\n"},
		{"x-y", "k: x-y\n"},
		{" lead", "k: ' lead'\n"},
		{"trail ", "k: 'trail '\n"},
		{"tab\there", "k: \"tab\\there\"\n"},
		{"emoji 😀", "k: \"emoji \\U0001F600\"\n"},
		{"é", "k: é\n"},
		{"two\nlines", "k: |-\n  two\n  lines\n"},
		{"ends\n", "k: |\n  ends\n"},
		{"\nleading break", "k: \"\\nleading break\"\n"},
		{"x\r\ny", "k: \"x\\r\\ny\"\n"},
		{"---", "k: '---'\n"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			v := MapOf("k", NewString(tc.in))
			assert.Equal(t, tc.want, coreWrite(t, v), "string %q", tc.in)
			back, err := ParseCore([]byte(coreWrite(t, v)), "back.yaml")
			require.NoError(t, err, "reading back %q", tc.in)
			assert.Equal(t, tc.in, back.Get("k").Str, "string %q read back", tc.in)
		})
	}
}

func TestWriteCoreLayout(t *testing.T) {
	tests := []struct {
		name string
		in   *Value
		want string
	}{
		{"nested", MapOf(
			"applications", NewList(MapOf("version", NewString("postgres:1.32.6"), "deployPostfix", NewString("postgresql"))),
			"deployGraph", NewList(MapOf("chunkName", NewString("wave1"), "apps", NewList(NewString("postgres:postgresql")))),
		), "applications:\n  - version: postgres:1.32.6\n    deployPostfix: postgresql\ndeployGraph:\n  - chunkName: wave1\n    apps:\n      - postgres:postgresql\n"},
		{"empty collections", MapOf("a", NewList(), "b", NewMap()), "a: []\nb: {}\n"},
		{"null", MapOf("a", NewNull(), "b", NewList(NewNull())), "a: null\nb:\n  - null\n"},
		{"list in list", NewList(NewList(NewString("a"), NewString("b")), MapOf("x", NewList(NewString("y")))), "- - a\n  - b\n- x:\n    - y\n"},
		{"map in map", MapOf("a", MapOf("b", MapOf("c", NewString("d")))), "a:\n  b:\n    c: d\n"},
		{"source text", MapOf("i", &Value{Kind: KindNumber, Num: 2.1, Str: "2.10"}, "b", &Value{Kind: KindBool, Bool: true, Str: "True"}, "n", NewNumber(7)), "i: 2.10\nb: True\nn: 7\n"},
		{"top-level null", nil, "null\n"},
		{"top-level empty map", NewMap(), "{}\n"},
		{"long key", MapOf(strings.Repeat("k", 129), NewString("v")), "? " + strings.Repeat("k", 129) + "\n: v\n"},
		{"multi-line key", MapOf("a\nb", MapOf("c", NewString("d"))), "? |-\n  a\n  b\n: c: d\n"},
		{"integer keys keep their order", func() *Value {
			m := NewMap()
			m.Map.Append("b", NewString("x"))
			m.Map.Append("1", NewString("y"))
			m.Map.Append("0", NewString("z"))
			return m
		}(), "b: x\n'1': y\n'0': z\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, coreWrite(t, tc.in), "document %s", tc.name)
			if tc.in != nil {
				assert.Equal(t, yamlV3Encode(t, coreNode(tc.in)), coreWrite(t, tc.in), "yaml.v3's encoder on %s", tc.name)
			}
		})
	}
}

func TestWriteWithZeroOptionsIsWrite(t *testing.T) {
	v := MapOf("a", NewList(MapOf("b", NewString("yes"), "c", NewNull())), "d", NewString("x\ny"))
	var w1, w2 bytes.Buffer
	require.NoError(t, Write(&w1, v))
	require.NoError(t, WriteWith(&w2, v, WriteOptions{}))
	assert.Equal(t, w1.String(), w2.String())
	assert.Equal(t, string(Marshal(v)), w1.String())
	assert.Equal(t, "a:\n    - b: 'yes'\n      c:\nd: |-\n    x\n    y\n", w1.String())
}

// TestCoreCorpusRoundTrip reads every expected file of the SD corpus, which
// is in the canonical layout, and writes it back byte for byte.
func TestCoreCorpusRoundTrip(t *testing.T) {
	sdCorpus := testkit.Corpus(t, "sd") // its expected files are in the canonical layout
	files, err := filepath.Glob(filepath.Join(sdCorpus, "*", "expected*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		v, err := ParseCore(data, f)
		require.NoError(t, err, "reading %s", f)
		assert.Equal(t, string(data), coreWrite(t, v), "writing %s back", f)
	}
}

func TestParseCore(t *testing.T) {
	t.Run("source text and key order", func(t *testing.T) {
		v, err := ParseCore([]byte("b: 2.10\n1: True\n0: ~\nd: 2024-01-31\ne: '2.1'\nf: yes\n"), "x.yaml")
		require.NoError(t, err)
		assert.Equal(t, []string{"b", "1", "0", "d", "e", "f"}, v.Map.Keys())
		assert.Equal(t, KindNumber, v.Get("b").Kind)
		assert.Equal(t, "2.10", v.Get("b").Str)
		assert.Equal(t, 2.1, v.Get("b").Num)
		assert.True(t, v.Get("1").IsTrue())
		assert.Equal(t, "True", v.Get("1").Str)
		assert.Equal(t, KindNull, v.Get("0").Kind)
		assert.Equal(t, KindTime, v.Get("d").Kind)
		assert.Equal(t, "2024-01-31", v.Get("d").Str)
		assert.Equal(t, KindString, v.Get("e").Kind)
		assert.Equal(t, KindString, v.Get("f").Kind)
		assert.Equal(t, "b: 2.10\n1: True\n0: null\nd: 2024-01-31\ne: '2.1'\nf: yes\n", coreWrite(t, v))
	})
	t.Run("non-string keys", func(t *testing.T) {
		src := "1: a\n'2': b\n~: c\nTrue: d\n2024-01-31: e\n1.50: f\nx: &k 0x10\n*k : g\n"
		v, err := ParseCore([]byte(src), "x.yaml")
		require.NoError(t, err)
		assert.Equal(t, []string{"1", "2", "null", "True", "2024-01-31", "1.50", "x", "0x10"}, v.Map.Keys())
		for _, k := range []string{"1", "null", "True", "2024-01-31", "1.50", "0x10"} {
			assert.True(t, PlainKey(v, k), "key %s is not a string", k)
		}
		assert.False(t, PlainKey(v, "2"), "key '2' is a string")
		assert.Equal(t, "1: a\n'2': b\nnull: c\nTrue: d\n2024-01-31: e\n1.50: f\nx: 0x10\n0x10: g\n", coreWrite(t, v))
		assert.Equal(t, coreWrite(t, v), coreWrite(t, CopyMap(v)), "a copy keeps the key kinds")
		assert.Equal(t, coreWrite(t, v), coreWrite(t, Clone(v)), "a clone keeps the key kinds")
	})
	t.Run("aliases are copies", func(t *testing.T) {
		v, err := ParseCore([]byte("a: &x {k: 1}\nb: *x\n"), "x.yaml")
		require.NoError(t, err)
		require.True(t, v.Get("a").IsMap())
		v.Get("a").Map.Set("k", NewString("changed"))
		assert.Equal(t, "1", v.Get("b").Get("k").Str, "the alias must not share the anchor's value")
	})
	t.Run("merge keys", func(t *testing.T) {
		v, err := ParseCore([]byte("base: &b {x: 1, y: 2}\nm:\n  y: 3\n  <<: [*b, {z: 4, x: 5}]\n  w: 6\n"), "x.yaml")
		require.NoError(t, err)
		assert.Equal(t, "base:\n  x: 1\n  y: 2\nm:\n  y: 3\n  x: 1\n  z: 4\n  w: 6\n", coreWrite(t, v))
	})
	t.Run("empty documents are null", func(t *testing.T) {
		for _, src := range []string{"", "# only a comment\n", "\n\n", "~\n", "null", "---\n", "...\n"} {
			v, err := ParseCore([]byte(src), "x.yaml")
			require.NoError(t, err, "document %q", src)
			assert.True(t, v.IsNull(), "document %q", src)
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
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCore([]byte(tc.src), "x.yaml")
			require.Error(t, err, "document %q", tc.src)
			d, ok := diag.As(err)
			require.True(t, ok, "a diagnostic for %q", tc.src)
			assert.Contains(t, d.Message, tc.want, "document %q", tc.src)
			assert.Equal(t, "x.yaml", d.Pos.File)
			assert.Equal(t, tc.line, d.Pos.Line, "line of the error in %q", tc.src)
		})
	}
}

func TestParseCoreExpansionLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 8; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	_, err := ParseCore([]byte(b.String()), "bomb.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "document expands to more than")
}

func TestParseJSON(t *testing.T) {
	t.Run("order, text and positions", func(t *testing.T) {
		v, err := ParseJSON([]byte("{\"b\": 2.10, \"1\": true,\n \"0\": null, \"s\": \"x\\u00e9\\ud83d\\ude00\", \"l\": [1E5, -0]}"), "$SD_DATA")
		require.NoError(t, err)
		assert.Equal(t, []string{"b", "1", "0", "s", "l"}, v.Map.Keys())
		assert.Equal(t, "2.10", v.Get("b").Str)
		assert.Equal(t, "true", v.Get("1").Str)
		assert.Equal(t, KindNull, v.Get("0").Kind)
		assert.Equal(t, "xé😀", v.Get("s").Str)
		assert.Equal(t, "1E5", v.Get("l").List[0].Str)
		assert.Equal(t, int32(2), v.Get("0").Line)
		assert.Equal(t, int32(7), v.Get("0").Col)
	})
	errs := []struct {
		name, src, want string
		line, col       int
	}{
		{"truncated", `{"a": [1`, "unexpected end of input, expected ',' or ']' in an array", 1, 9},
		{"duplicate key", `{"a": 1, "a": 2}`, `duplicate key "a"`, 1, 10},
		{"braces around a list", `{[1]}`, "unexpected character '[', expected a string key", 1, 2},
		{"trailing", "{}\n{}", "unexpected character '{' after the JSON value", 2, 1},
		{"leading zero", `01`, "unexpected character '1' after the JSON value", 1, 2},
		{"bad literal", `tru`, "unexpected character 't', expected a JSON value", 1, 1},
		{"control character", "\"a\tb\"", `control character '\t' in a string`, 1, 3},
		{"bad escape", `"\x"`, `invalid escape '\x' in a string`, 1, 2},
		{"invalid UTF-8", "\"é\xff\"", "invalid UTF-8", 1, 3},
		{"empty", "  ", "unexpected end of input, expected a JSON value", 1, 3},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.src), "$SD_DATA")
			require.Error(t, err, "JSON %q", tc.src)
			d, ok := diag.As(err)
			require.True(t, ok)
			assert.Equal(t, tc.want, d.Message, "JSON %q", tc.src)
			assert.Equal(t, diag.Pos{File: "$SD_DATA", Line: tc.line, Col: tc.col}, d.Pos, "JSON %q", tc.src)
		})
	}
}

// coreAlphabet holds the pieces random strings are made of: characters
// that change a string's style, and words that resolve to other types.
var coreAlphabet = []string{
	"a", "b", "Z", "0", "7", " ", "  ", ":", ": ", "#", " #", "-", "- ", "'", "\"", "\\", "\n", "\t", "\r",
	".", "---", "...", "{", "}", "[", "]", ",", "?", "!", "&", "*", "|", ">", "%", "@", "`", "é", "😀",
	"\u2028", "\u0085", "\ufeff", "\u00a0", "\x00", "\x7f", "true", "null", "~", "1e3", "0x1F", "2024-01-31",
	"<<", "yes", "1:20", ".inf", "12",
}

func coreRandString(r *rand.Rand) string {
	n := r.IntN(5)
	if r.IntN(20) == 0 {
		n = 40
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(coreAlphabet[r.IntN(len(coreAlphabet))])
	}
	return b.String()
}

func coreRandValue(r *rand.Rand, depth int) *Value {
	k := r.IntN(10)
	if depth > 3 {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return NewNull()
	case 1:
		return &Value{Kind: KindNumber, Num: 2.1, Str: []string{"2.10", "7", "-0", "1e3", "0x1F", ".inf"}[r.IntN(6)]}
	case 2:
		return &Value{Kind: KindBool, Bool: true, Str: []string{"true", "True", "FALSE"}[r.IntN(3)]}
	case 3, 4, 5:
		return NewString(coreRandString(r))
	case 6, 7:
		m := NewMap()
		for i, n := 0, r.IntN(4); i < n; i++ {
			k := coreRandString(r)
			if r.IntN(15) == 0 {
				k = strings.Repeat("k", 120+r.IntN(20))
			}
			if r.IntN(8) == 0 {
				k = []string{"1", "0", "true", "2.10", "null", "2024-01-31"}[r.IntN(6)]
				if _, ok := m.Map.Lookup(k); !ok {
					markPlainKey(m, k)
				}
			}
			if _, ok := m.Map.Lookup(k); !ok {
				m.Map.Append(k, coreRandValue(r, depth+1))
			}
		}
		return m
	default:
		l := NewList()
		for i, n := 0, r.IntN(4); i < n; i++ {
			l.List = append(l.List, coreRandValue(r, depth+1))
		}
		return l
	}
}

// coreDeviates reports whether a string of v is one where DialectCore
// deliberately differs from yaml.v3: a multi-line string that starts with a
// line break or a tab.
func coreDeviates(s string) bool {
	return strings.Contains(s, "\n") && (libyamlBreak(s, 0) || s[0] == '\t')
}

// coreLeadingBreak reports whether v holds a string where DialectCore
// deliberately differs from yaml.v3.
func coreLeadingBreak(v *Value) bool {
	switch v.Kind {
	case KindString:
		return coreDeviates(v.Str)
	case KindMap:
		for i, k := range v.Map.Keys() {
			if coreDeviates(k) || coreLeadingBreak(v.Map.Val(i)) {
				return true
			}
		}
	case KindList:
		for _, x := range v.List {
			if coreLeadingBreak(x) {
				return true
			}
		}
	}
	return false
}

// coreSame compares a document with its reading back: same structure, key
// order, strings, and text of other scalars.
func coreSame(a, b *Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	if a.Kind != b.Kind {
		// A number out of float64's range keeps its text, which yaml.v3
		// then reads as a string.
		return a.Kind == KindNumber && math.IsInf(a.Num, 0) && b.Kind == KindString && a.Str == b.Str
	}
	switch a.Kind {
	case KindMap:
		ka, kb := a.Map.Keys(), b.Map.Keys()
		if len(ka) != len(kb) {
			return false
		}
		for i := range ka {
			if ka[i] != kb[i] || PlainKey(a, ka[i]) != PlainKey(b, kb[i]) || !coreSame(a.Map.Val(i), b.Map.Val(i)) {
				return false
			}
		}
		return true
	case KindList:
		if len(a.List) != len(b.List) {
			return false
		}
		for i := range a.List {
			if !coreSame(a.List[i], b.List[i]) {
				return false
			}
		}
		return true
	}
	ta, _ := ScalarText(a)
	tb, _ := ScalarText(b)
	return ta == tb
}

// checkCoreWrite is the property behind TestWriteCoreOracle and
// FuzzWriteCore: the output equals yaml.v3's encoder on the recipe's node
// tree (except for strings with a leading line break) and reads back as
// the same document.
func checkCoreWrite(t *testing.T, v *Value) {
	got := coreWrite(t, v)
	if !coreLeadingBreak(v) {
		require.Equal(t, yamlV3Encode(t, coreNode(v)), got, "yaml.v3's encoder on %s", JSON(v))
	}
	back, err := ParseCore([]byte(got), "back.yaml")
	require.NoError(t, err, "reading back %q", got)
	require.True(t, coreSame(v, back), "%q reads back as %s, not %s", got, JSON(back), JSON(v))
}

func TestWriteCoreOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		v := coreRandValue(r, 0)
		if v.Kind != KindMap && v.Kind != KindList {
			v = MapOf("k", v)
		}
		checkCoreWrite(t, v)
	}
}

func FuzzWriteCore(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(7))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		v := coreRandValue(rand.New(rand.NewPCG(a, b)), 0)
		if v.Kind != KindMap && v.Kind != KindList {
			v = MapOf("k", v)
		}
		checkCoreWrite(t, v)
	})
}

// FuzzParseCore: ParseCore never panics, a rejected document gets a
// positioned diagnostic, and an accepted one is written and read back
// unchanged.
func FuzzParseCore(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseCore(data, "fuzz.yaml")
		if err != nil {
			d, ok := diag.As(err)
			require.True(t, ok, "error %v is not a diagnostic", err)
			require.Equal(t, "fuzz.yaml", d.Pos.File)
			require.Positive(t, d.Pos.Line, "error %q has no line", d.Message)
			return
		}
		out, err := MarshalWith(v, coreOpts)
		require.NoError(t, err)
		back, err := ParseCore(out, "back.yaml")
		require.NoError(t, err, "reading back %q", out)
		require.True(t, coreSame(v, back), "%q reads back differently", out)
	})
}

// FuzzParseJSON: ParseJSON never panics, agrees with encoding/json on what
// is JSON (except for duplicate keys, which it rejects), and gives rejected
// input a positioned diagnostic.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a": [1, 2.10, -0.5e-3, true, false, null, "x\u00e9"]}`, `{"a": 1, "a": 2}`, `{[{}]}`, `"\ud800"`, `1e400`, ` [ ] `, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data, "fuzz.json")
		valid := json.Valid(data) && utf8.Valid(data)
		if err != nil {
			d, ok := diag.As(err)
			require.True(t, ok, "error %v is not a diagnostic", err)
			require.Positive(t, d.Pos.Line, "error %q has no line", d.Message)
			if valid {
				require.True(t, strings.HasPrefix(d.Message, "duplicate key") || strings.Contains(d.Message, "nested deeper"), "valid JSON %q rejected: %s", data, d.Message)
			}
			return
		}
		require.True(t, valid, "invalid JSON %q accepted", data)
		out, err := MarshalWith(v, coreOpts)
		require.NoError(t, err)
		back, err := ParseCore(out, "back.yaml")
		require.NoError(t, err, "reading back %q", out)
		require.True(t, coreSame(v, back), "%q reads back differently", out)
	})
}
