package sd

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// coreWrite is Format as a string.
func coreWrite(t testing.TB, v *yamlsrc.Value) string {
	t.Helper()
	out, err := Format(v)
	require.NoError(t, err)
	return string(out)
}

// coreNode builds the yaml.Node tree of sd-merge.md §12's recipe, as the
// spec words it and apart from Format's: default styles, except strings
// that would read back as another type, which are single-quoted.
func coreNode(v *yamlsrc.Value) *yaml.Node {
	if v == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	switch v.Kind {
	case yamlsrc.KindMap:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i, k := range v.Map().Keys() {
			kn := coreStrNode(k)
			if plainKey(v, k) {
				kn = &yaml.Node{Kind: yaml.ScalarNode, Value: k}
			}
			n.Content = append(n.Content, kn, coreNode(v.Map().Val(i)))
		}
		return n
	case yamlsrc.KindList:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, x := range v.List() {
			n.Content = append(n.Content, coreNode(x))
		}
		return n
	case yamlsrc.KindString:
		return coreStrNode(v.Str())
	case yamlsrc.KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	text, _ := scalarText(v)
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
		{"\u2028x\ny", "k: \"\\Lx\\ny\"\n"},
		{"\tfirst\nsecond", "k: \"\\tfirst\\nsecond\"\n"},
		{"a\tb\nc", "k: |-\n  a\tb\n  c\n"},
		{"x\r\ny", "k: \"x\\r\\ny\"\n"},
		{"---", "k: '---'\n"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			v := yamlsrc.MapOf("k", yamlsrc.NewString(tc.in))
			require.Equal(t, tc.want, coreWrite(t, v), "string %q", tc.in)
			back, err := parseCore([]byte(coreWrite(t, v)), "back.yaml")
			require.NoError(t, err, "reading back %q", tc.in)
			require.Equal(t, tc.in, back.Get("k").Str(), "string %q read back", tc.in)
		})
	}
}

func TestWriteCoreLayout(t *testing.T) {
	tests := []struct {
		name string
		in   *yamlsrc.Value
		want string
	}{
		{"nested", yamlsrc.MapOf(
			"applications", yamlsrc.NewList(yamlsrc.MapOf("version", yamlsrc.NewString("postgres:1.32.6"), "deployPostfix", yamlsrc.NewString("postgresql"))),
			"deployGraph", yamlsrc.NewList(yamlsrc.MapOf("chunkName", yamlsrc.NewString("wave1"), "apps", yamlsrc.NewList(yamlsrc.NewString("postgres:postgresql")))),
		), "applications:\n  - version: postgres:1.32.6\n    deployPostfix: postgresql\ndeployGraph:\n  - chunkName: wave1\n    apps:\n      - postgres:postgresql\n"},
		{"empty collections", yamlsrc.MapOf("a", yamlsrc.NewList(), "b", yamlsrc.NewMap()), "a: []\nb: {}\n"},
		{"null", yamlsrc.MapOf("a", yamlsrc.NewNull(), "b", yamlsrc.NewList(yamlsrc.NewNull())), "a: null\nb:\n  - null\n"},
		{"list in list", yamlsrc.NewList(yamlsrc.NewList(yamlsrc.NewString("a"), yamlsrc.NewString("b")), yamlsrc.MapOf("x", yamlsrc.NewList(yamlsrc.NewString("y")))), "- - a\n  - b\n- x:\n    - y\n"},
		{"map in map", yamlsrc.MapOf("a", yamlsrc.MapOf("b", yamlsrc.MapOf("c", yamlsrc.NewString("d")))), "a:\n  b:\n    c: d\n"},
		{"source text", yamlsrc.MapOf("i", withText(yamlsrc.NewNumber(2.1), "2.10"), "b", withText(yamlsrc.NewBool(true), "True"), "n", yamlsrc.NewNumber(7)), "i: 2.10\nb: True\nn: 7\n"},
		{"top-level null", nil, "null\n"},
		{"top-level empty map", yamlsrc.NewMap(), "{}\n"},
		{"long key", yamlsrc.MapOf(strings.Repeat("k", 129), yamlsrc.NewString("v")), "? " + strings.Repeat("k", 129) + "\n: v\n"},
		{"multi-line key", yamlsrc.MapOf("a\nb", yamlsrc.MapOf("c", yamlsrc.NewString("d"))), "? |-\n  a\n  b\n: c: d\n"},
		{"integer keys keep their order", func() *yamlsrc.Value {
			m := yamlsrc.NewMap()
			m.Map().Append("b", yamlsrc.NewString("x"))
			m.Map().Append("1", yamlsrc.NewString("y"))
			m.Map().Append("0", yamlsrc.NewString("z"))
			return m
		}(), "b: x\n'1': y\n'0': z\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, coreWrite(t, tc.in), "document %s", tc.name)
			if tc.in != nil {
				require.Equal(t, yamlV3Encode(t, coreNode(tc.in)), coreWrite(t, tc.in), "yaml.v3's encoder on %s", tc.name)
			}
		})
	}
}

// TestWriteCoreInvalidUTF8: a string that is not UTF-8 (which yaml.v3
// would write as !!binary) is double-quoted with U+FFFD for each invalid
// byte, as a key too.
func TestWriteCoreInvalidUTF8(t *testing.T) {
	v := yamlsrc.MapOf("k\xff", yamlsrc.NewString("a\xff\xfeb"))
	require.Equal(t, "\"k\uFFFD\": \"a\uFFFD\uFFFDb\"\n", coreWrite(t, v))
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
		v, err := parseCore(data, f)
		require.NoError(t, err, "reading %s", f)
		require.Equal(t, string(data), coreWrite(t, v), "writing %s back", f)
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

func coreRandValue(r *rand.Rand, depth int) *yamlsrc.Value {
	k := r.IntN(10)
	if depth > 3 {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return yamlsrc.NewNull()
	case 1:
		return withText(yamlsrc.NewNumber(2.1), []string{"2.10", "7", "-0", "1e3", "0x1F", ".inf"}[r.IntN(6)])
	case 2:
		return withText(yamlsrc.NewBool(true), []string{"true", "True", "FALSE"}[r.IntN(3)])
	case 3, 4, 5:
		return yamlsrc.NewString(coreRandString(r))
	case 6, 7:
		m := yamlsrc.NewMap()
		for i, n := 0, r.IntN(4); i < n; i++ {
			k := coreRandString(r)
			if r.IntN(15) == 0 {
				k = strings.Repeat("k", 120+r.IntN(20))
			}
			if r.IntN(8) == 0 {
				k = []string{"1", "0", "true", "2.10", "null", "2024-01-31"}[r.IntN(6)]
				if _, ok := m.Map().Lookup(k); !ok {
					markPlainKey(m, k)
				}
			}
			if _, ok := m.Map().Lookup(k); !ok {
				m.Map().Append(k, coreRandValue(r, depth+1))
			}
		}
		return m
	default:
		l := yamlsrc.NewList()
		for i, n := 0, r.IntN(4); i < n; i++ {
			l.SetList(append(l.List(), coreRandValue(r, depth+1)))
		}
		return l
	}
}

// coreDeviates reports whether s is a string where Format deliberately
// differs from yaml.v3: a multi-line string that starts with a
// line break or a tab.
func coreDeviates(s string) bool {
	return strings.Contains(s, "\n") && (leadingBreak(s) || s[0] == '\t')
}

// coreLeadingBreak reports whether v holds a string where Format
// deliberately differs from yaml.v3 (coreDeviates).
func coreLeadingBreak(v *yamlsrc.Value) bool {
	switch v.Kind {
	case yamlsrc.KindString:
		return coreDeviates(v.Str())
	case yamlsrc.KindMap:
		for i, k := range v.Map().Keys() {
			if coreDeviates(k) || coreLeadingBreak(v.Map().Val(i)) {
				return true
			}
		}
	case yamlsrc.KindList:
		if slices.ContainsFunc(v.List(), coreLeadingBreak) {
			return true
		}
	}
	return false
}

// coreSame compares a document with its reading back: same structure, key
// order, strings, and text of other scalars.
func coreSame(a, b *yamlsrc.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	if a.Kind != b.Kind {
		// A number out of float64's range keeps its text, which yaml.v3
		// then reads as a string.
		return a.Kind == yamlsrc.KindNumber && math.IsInf(a.Num(), 0) && b.Kind == yamlsrc.KindString && a.Str() == b.Str()
	}
	switch a.Kind {
	case yamlsrc.KindMap:
		ka, kb := a.Map().Keys(), b.Map().Keys()
		if len(ka) != len(kb) {
			return false
		}
		for i := range ka {
			if ka[i] != kb[i] || plainKey(a, ka[i]) != plainKey(b, kb[i]) || !coreSame(a.Map().Val(i), b.Map().Val(i)) {
				return false
			}
		}
		return true
	case yamlsrc.KindList:
		if len(a.List()) != len(b.List()) {
			return false
		}
		for i := range a.List() {
			if !coreSame(a.List()[i], b.List()[i]) {
				return false
			}
		}
		return true
	}
	ta, _ := scalarText(a)
	tb, _ := scalarText(b)
	return ta == tb
}

// checkCoreWrite is the property behind TestWriteCoreOracle and
// FuzzWriteCore: the output equals yaml.v3's encoder on the recipe's node
// tree (except for the strings of coreDeviates) and reads back as the same
// document.
func checkCoreWrite(t *testing.T, v *yamlsrc.Value) {
	got := coreWrite(t, v)
	if !coreLeadingBreak(v) {
		require.Equal(t, yamlV3Encode(t, coreNode(v)), got, "yaml.v3's encoder on %s", yamlsrc.JSON(v))
	}
	back, err := parseCore([]byte(got), "back.yaml")
	require.NoError(t, err, "reading back %q", got)
	require.True(t, coreSame(v, back), "%q reads back as %s, not %s", got, yamlsrc.JSON(back), yamlsrc.JSON(v))
}

func TestWriteCoreOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		v := coreRandValue(r, 0)
		if v.Kind != yamlsrc.KindMap && v.Kind != yamlsrc.KindList {
			v = yamlsrc.MapOf("k", v)
		}
		checkCoreWrite(t, v)
	}
}

func FuzzWriteCore(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(7))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		v := coreRandValue(rand.New(rand.NewPCG(a, b)), 0)
		if v.Kind != yamlsrc.KindMap && v.Kind != yamlsrc.KindList {
			v = yamlsrc.MapOf("k", v)
		}
		checkCoreWrite(t, v)
	})
}

// withText gives v the source text the dialect keeps for numbers and
// booleans.
func withText(v *yamlsrc.Value, text string) *yamlsrc.Value {
	v.SetStr(text)
	return v
}
