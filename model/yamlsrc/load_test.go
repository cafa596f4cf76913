package yamlsrc

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/testkit"
)

// describe renders a value with its types: numbers in JS notation ("-0"
// for negative zero), strings quoted, dates as date(ISO), maps in key order.
func describe(v *Value) string {
	switch v.Kind {
	case KindNull:
		return "null"
	case KindBool:
		return fmt.Sprint(v.Bool)
	case KindNumber:
		if v.Num() == 0 && math.Signbit(v.Num()) {
			return "-0"
		}
		return js.FormatNumber(v.Num())
	case KindString:
		return fmt.Sprintf("%q", v.Str())
	case KindTime:
		return "date(" + js.FormatTime(v.Num()) + ")"
	case KindList:
		parts := make([]string, len(v.List()))
		for i, x := range v.List() {
			parts[i] = describe(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	parts := make([]string, v.Map().Len())
	for i, k := range v.Map().Keys() {
		parts[i] = fmt.Sprintf("%q: %s", k, describe(v.Map().Val(i)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TestParseValues checks js-yaml's value semantics (variability.md §2.1).
// Every expectation is what the reference's js-yaml (4.x as installed by
// the reference) loads from the same text.
func TestParseValues(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO", "{\"a\": \"yes\", \"b\": \"no\", \"c\": \"on\", \"d\": \"off\", \"e\": \"y\", \"f\": \"n\", \"g\": \"Yes\", \"h\": \"NO\"}"},
		{"a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: tRUE", "{\"a\": true, \"b\": true, \"c\": true, \"d\": false, \"e\": false, \"f\": false, \"g\": \"tRUE\"}"},
		{"a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: nULL", "{\"a\": null, \"b\": null, \"c\": null, \"d\": null, \"e\": null, \"f\": \"nULL\"}"},
		{"a: 1\nb: 1.0\nc: -1\nd: +1\ne: 0\nf: -0\ng: +0\nh: -00\ni: 0.0\nj: -0.0", "{\"a\": 1, \"b\": 1, \"c\": -1, \"d\": 1, \"e\": 0, \"f\": 0, \"g\": 0, \"h\": -0, \"i\": 0, \"j\": -0}"},
		{"a: 0x1F\nb: 0xff\nc: -0x1F\nd: 0o17\ne: -0o17\nf: 0b101\ng: -0b101\nh: 017\ni: 0755\nj: 08", "{\"a\": 31, \"b\": 255, \"c\": -31, \"d\": 15, \"e\": -15, \"f\": 5, \"g\": -5, \"h\": 17, \"i\": 755, \"j\": 8}"},
		{"a: 1_000\nb: 1_000.5\nc: 0x_1F\nd: 0b1_0\ne: _1\nf: 1_", "{\"a\": \"1_000\", \"b\": \"1_000.5\", \"c\": \"0x_1F\", \"d\": \"0b1_0\", \"e\": \"_1\", \"f\": \"1_\"}"},
		{"a: .inf\nb: -.inf\nc: +.inf\nd: .Inf\ne: .INF\nf: .nan\ng: .NaN\nh: .NAN\ni: -.nan\nj: inf\nk: NaN", "{\"a\": Infinity, \"b\": -Infinity, \"c\": Infinity, \"d\": Infinity, \"e\": Infinity, \"f\": NaN, \"g\": NaN, \"h\": NaN, \"i\": \"-.nan\", \"j\": \"inf\", \"k\": \"NaN\"}"},
		{"a: 1e3\nb: 1E3\nc: 1e+3\nd: 1e-3\ne: 1.e3\nf: .5\ng: -.5\nh: +.5\ni: 1.\nj: 1e\nk: 1.5e-7\nl: 5.e-7", "{\"a\": 1000, \"b\": 1000, \"c\": 1000, \"d\": 0.001, \"e\": 1000, \"f\": 0.5, \"g\": \"-.5\", \"h\": \"+.5\", \"i\": 1, \"j\": \"1e\", \"k\": 1.5e-7, \"l\": 5e-7}"},
		{"a: '1e400'\nb: \"-1e400\"\nc: 123456789012345678901234567890\nd: 9007199254740993\ne: 0x123456789abcdef0123\nf: 5e-324", "{\"a\": \"1e400\", \"b\": \"-1e400\", \"c\": 1.2345678901234568e+29, \"d\": 9007199254740992, \"e\": 5.373003642731685e+21, \"f\": 5e-324}"},
		{"a: 1:20\nb: 190:20:30\nc: 1.2.3\nd: 12:30:45", "{\"a\": \"1:20\", \"b\": \"190:20:30\", \"c\": \"1.2.3\", \"d\": \"12:30:45\"}"},
		{"a: 2023-01-01\nb: 2023-01-01T00:00:00Z\nc: 2023-01-01T00:00:00.123Z\nd: 2023-01-01 12:30:45\ne: 2023-01-01T00:00:00.123456+05:30\nf: 2023-01-01 00:00:00 -5\ng: 2023-1-1 1:00:00\nh: 2023-01-01t00:00:00Z\ni: 2023-01-01T00:00:00z\nj: 2023-1-1\nk: 2023-02-30\nl: 0001-01-01\nm: 0099-12-31T23:00:00Z\nn: 0100-01-01\no: 9999-99-99\np: 2023-01-01T00:00:00.", "{\"a\": date(2023-01-01T00:00:00.000Z), \"b\": date(2023-01-01T00:00:00.000Z), \"c\": date(2023-01-01T00:00:00.123Z), \"d\": date(2023-01-01T12:30:45.000Z), \"e\": date(2022-12-31T18:30:00.123Z), \"f\": date(2023-01-01T05:00:00.000Z), \"g\": date(2023-01-01T01:00:00.000Z), \"h\": date(2023-01-01T00:00:00.000Z), \"i\": \"2023-01-01T00:00:00z\", \"j\": \"2023-1-1\", \"k\": date(2023-03-02T00:00:00.000Z), \"l\": date(1901-01-01T00:00:00.000Z), \"m\": date(1999-12-31T23:00:00.000Z), \"n\": date(0100-01-01T00:00:00.000Z), \"o\": date(+010007-06-07T00:00:00.000Z), \"p\": date(2023-01-01T00:00:00.000Z)}"},
		{"a: '1'\nb: \"true\"\nc: 'null'\nd: |\n  2023-01-01\ne: >-\n  12\nf: !!str 12\ng: ''", "{\"a\": \"1\", \"b\": \"true\", \"c\": \"null\", \"d\": \"2023-01-01\\n\", \"e\": \"12\", \"f\": \"12\", \"g\": \"\"}"},
		{"a: !!int \"12\"\nb: !!float -0\nc: !!float 5\nd: !!float .5\ne: !!bool \"true\"\nf: !!null\ng: !!null ~\nh: !!timestamp 2023-01-01\ni: !!str\nj: !!map\nk: !!seq", "{\"a\": 12, \"b\": -0, \"c\": 5, \"d\": 0.5, \"e\": true, \"f\": null, \"g\": null, \"h\": date(2023-01-01T00:00:00.000Z), \"i\": \"\", \"j\": {}, \"k\": []}"},
		{"a: !!set {x, y}\nb: !!omap [x: 1, y: 2]\nc: !!pairs [x: 1, x: 2]\nd: !!omap []\ne: !!set {}", "{\"a\": {\"x\": null, \"y\": null}, \"b\": [{\"x\": 1}, {\"y\": 2}], \"c\": [[\"x\", 1], [\"x\", 2]], \"d\": [], \"e\": {}}"},
		{"1: a\n1.5: b\n.inf: c\n-0: d\nnull: e\ntrue: g\n2023-01-01: h\n[1, null, 2]: i\n{a: 1}: j\n0x10: k\n[]: l\n[2023-01-01, {}]: m", "{\"0\": \"d\", \"1\": \"a\", \"16\": \"k\", \"1.5\": \"b\", \"Infinity\": \"c\", \"null\": \"e\", \"true\": \"g\", \"Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time)\": \"h\", \"1,,2\": \"i\", \"[object Object]\": \"j\", \"\": \"l\", \"Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time),[object Object]\": \"m\"}"},
		{"~: f\n.nan: g\n1e21: h\n0.1: i\n5e-7: j", "{\"null\": \"f\", \"NaN\": \"g\", \"1e+21\": \"h\", \"0.1\": \"i\", \"5e-7\": \"j\"}"},
		{"b: 1\n2: 2\na: 3\n1: 1\n10: x\n4294967295: z\n4294967294: w\n-1: v\n0: u\n1.5: t", "{\"0\": \"u\", \"1\": 1, \"2\": 2, \"10\": \"x\", \"4294967294\": \"w\", \"b\": 1, \"a\": 3, \"4294967295\": \"z\", \"-1\": \"v\", \"1.5\": \"t\"}"},
		{"base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\n  c: 4", "{\"base\": {\"a\": 1, \"b\": 2}, \"x\": {\"a\": 1, \"b\": 3, \"c\": 4}}"},
		{"a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc:\n  <<: [*a, *b]\n  z: 3", "{\"a\": {\"x\": 1}, \"b\": {\"x\": 2, \"y\": 2}, \"c\": {\"x\": 1, \"y\": 2, \"z\": 3}}"},
		{"c:\n  x: 0\n  <<: {x: 1, y: 1}", "{\"c\": {\"x\": 0, \"y\": 1}}"},
		{"c:\n  <<: 2023-01-01\n  a: 1", "{\"c\": {\"a\": 1}}"},
		{"c:\n  <<: [[5, 6]]\n  a: 1", "{\"c\": {\"0\": 5, \"1\": 6, \"a\": 1}}"},
		{"c:\n  '<<': 1", "{\"c\": {\"<<\": 1}}"},
		{"c:\n  \"<<\": {a: 1}", "{\"c\": {\"<<\": {\"a\": 1}}}"},
		{"c:\n  !!merge <<: {a: 1}", "{\"c\": {\"a\": 1}}"},
		{"", "null"},
		{"# only a comment", "null"},
		{"---", "null"},
		{"...", "null"},
		{"--- \n...\n", "null"},
		{"a: 1\n...\n", "{\"a\": 1}"},
		{"x: &a [1, 2]\ny: *a\nz: *a", "{\"x\": [1, 2], \"y\": [1, 2], \"z\": [1, 2]}"},
		{"- &s hello\n- *s", "[\"hello\", \"hello\"]"},
		{"a: |\n  line1\n  line2\nb: >\n  folded\n  text\nc: |-\n  strip\nd: |+\n  keep\n\ne: x", "{\"a\": \"line1\\nline2\\n\", \"b\": \"folded text\\n\", \"c\": \"strip\", \"d\": \"keep\\n\\n\", \"e\": \"x\"}"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			v, err := Parse([]byte(tc.src), "test.yaml")
			require.NoError(t, err, "parsing %q", tc.src)
			require.Equal(t, tc.want, describe(v), "parsing %q", tc.src)
		})
	}
}

// TestParseErrors checks that rejected documents give a positioned
// diagnostic. js-yaml rejects all of these too (except !!binary, which it
// reads as a byte buffer); the wording and columns are ours.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		src, msg  string
		line, col int
	}{
		{"a: !!float 0x10", "cannot resolve a node with !!float explicit tag", 1, 4},
		{"a: !!int 1.5", "cannot resolve a node with !!int explicit tag", 1, 4},
		{"a: !!null \"\"", "cannot resolve a node with !!null explicit tag", 1, 4},
		{"a: !!bool yes", "cannot resolve a node with !!bool explicit tag", 1, 4},
		{"a: !foo 1", "unknown tag !foo", 1, 4},
		{"a: !!omap [x: 1, x: 2]", "cannot resolve a node with !!omap explicit tag", 1, 18},
		{"a: !!omap [{x: 1, y: 2}]", "cannot resolve a node with !!omap explicit tag", 1, 12},
		{"a: !!set {x: 1}", "cannot resolve a node with !!set explicit tag", 1, 4},
		{"a: !!binary aGk=", "unknown tag !!binary", 1, 4},
		{"? [[1]]\n: x", "nested arrays are not supported inside keys", 1, 3},
		{"a: 1\na: 2", "duplicated mapping key \"a\"", 2, 1},
		{"a: 1\nb: 2\n1: x\n01: y", "duplicated mapping key \"1\"", 4, 1},
		{"x:\n  - a: 1\n    b: 2\n    a: 3", "duplicated mapping key \"a\"", 4, 5},
		{"c:\n  <<: {x: 1}\n  x: 2\n  x: 3", "duplicated mapping key \"x\"", 4, 3},
		{"c:\n  <<: 1", "cannot merge mappings; the provided source object is unacceptable", 2, 7},
		{"c:\n  <<: [1]", "cannot merge mappings; the provided source object is unacceptable", 2, 7},
		{"c:\n  <<: null", "cannot merge mappings; the provided source object is unacceptable", 2, 7},
		{"a: 1\n---\nb: 2", "expected a single YAML document, found another one", 2, 1},
		{"---\n---", "expected a single YAML document, found another one", 2, 1},
		{"a: 1\n---\n", "expected a single YAML document, found another one", 2, 1},
		{"a: [1, 2", "invalid YAML: did not find expected ',' or ']': the '[' here is not closed", 1, 4},
		{"a: b: c", "invalid YAML: mapping values are not allowed in this context, found \"b:\"", 1, 5},
		{"\ta: 1", "invalid YAML: found character that cannot start any token, found a tab", 1, 1},
		{"a:\n\t- 1", "invalid YAML: found character that cannot start any token, found a tab", 2, 1},
		{"a:\n  b: 1\n \tc: 2", "invalid YAML: found a tab character that violates indentation", 3, 2},
		{"a: x\n\tb: 2", "invalid YAML: found a tab character that violates indentation", 2, 1},
		{"a:\n  b: |\n\tfoo", "invalid YAML: found a tab character where an indentation space is expected", 3, 1},
		{"a: 1\nb: \xff", "invalid YAML: invalid leading UTF-8 octet", 2, 4},
		{"a: 1\nb: x\x01", "invalid YAML: control characters are not allowed", 2, 5},
		{"a: 1e400", "number 1e400 is out of range (the largest is about 1.8e308)", 1, 4},
		{"a: [-1e999]", "number -1e999 is out of range (the largest is about 1.8e308)", 1, 5},
		{"a: 1" + strings.Repeat("0", 400), "number 1" + strings.Repeat("0", 39) + "… is out of range (the largest is about 1.8e308)", 1, 4},
		{"a: 0x1" + strings.Repeat("f", 300), "number 0x1" + strings.Repeat("f", 37) + "… is out of range (the largest is about 1.8e308)", 1, 4},
		{"a: *x", "invalid YAML: unknown anchor 'x' referenced, found \"*x\"", 1, 4},
		{"a: &x [*x]", "alias *x refers to a value that contains it", 1, 8},
		{"a: &x {b: [1, *x]}", "alias *x refers to a value that contains it", 1, 15},
		{"a:\n  b: 1\n c: 2", "invalid YAML: did not find expected key, found \"c\"", 3, 2},
		{"a: !!timestamp 2023-13-45x", "cannot resolve a node with !!timestamp explicit tag", 1, 4},
		{"a: !!str [1]", "unknown tag !!str", 1, 4},
		{"a: !!float", "cannot resolve a node with !!float explicit tag", 1, 4},
		{"!!int", "cannot resolve a node with !!int explicit tag", 1, 1},
		{"a: !!int \"\"", "cannot resolve a node with !!int explicit tag", 1, 4},
		{"a: !!bool", "cannot resolve a node with !!bool explicit tag", 1, 4},
		{"a: !!timestamp", "cannot resolve a node with !!timestamp explicit tag", 1, 4},
		{"!!map [1]", "unknown tag !!map", 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), "test.yaml")
			require.Error(t, err, "parsing %q", tc.src)
			d := testkit.Diagnostic(t, err, "parsing %q: not a diagnostic: %v", tc.src, err)
			require.Equal(t, tc.msg, d.Message, "parsing %q", tc.src)
			require.Equal(t, diag.Pos{File: "test.yaml", Line: tc.line, Col: tc.col}, d.Pos, "parsing %q", tc.src)
			require.Equal(t, diag.StageLoad, d.Stage, "parsing %q", tc.src)
		})
	}
}

func TestParseKeyStrings(t *testing.T) {
	// Keys are String(key) in JavaScript; js-yaml's date keys use the
	// process's local zone, ours UTC.
	v, err := Parse([]byte("2023-01-01T10:20:30Z: a\n? [1, 2023-01-01]\n: b\n"), "test.yaml")
	require.NoError(t, err)
	require.Equal(t, []string{
		"Sun Jan 01 2023 10:20:30 GMT+0000 (Coordinated Universal Time)",
		"1,Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time)",
	}, v.Map().Keys())
}

func TestParseAliasesShareValues(t *testing.T) {
	v, err := Parse([]byte("x: &a {k: [1]}\ny: *a\nl: &l [1]\nm: [*l, *l]\ns: &s str\nt: *s\n"), "test.yaml")
	require.NoError(t, err)
	require.Same(t, v.Get("x"), v.Get("y"), "a map alias is the anchored value")
	require.Same(t, v.Get("l"), v.Get("m").List()[0], "a list alias is the anchored value")
	require.Same(t, v.Get("m").List()[0], v.Get("m").List()[1])
	require.Same(t, v.Get("s"), v.Get("t"), "a scalar alias is the anchored value")
	// A change through one path is visible through the other, as in JS.
	v.Get("y").Map().Set("new", NewNumber(1))
	require.True(t, v.Get("x").Has("new"))
}

func TestParseMergeShares(t *testing.T) {
	v, err := Parse([]byte("base: &b {inner: {k: 1}}\nx:\n  <<: *b\n"), "test.yaml")
	require.NoError(t, err)
	require.Same(t, v.Get("base").Get("inner"), v.Get("x").Get("inner"), "merged values are shared, as in js-yaml")
}

func TestParseKeyOrder(t *testing.T) {
	v, err := Parse([]byte("b: 1\n2: 2\na: 3\n1: 1\n10: x\n'01': y\n-1: z\n4294967295: big\n4294967294: max\n"), "test.yaml")
	require.NoError(t, err)
	require.Equal(t, []string{"1", "2", "10", "4294967294", "b", "a", "01", "-1", "4294967295"}, v.Map().Keys())
}

func TestParsePositions(t *testing.T) {
	v, err := Parse([]byte("a:\n  b: [1, x]\n  c:\n    - d: true\n"), "test.yaml")
	require.NoError(t, err)
	pos := func(v *Value) [2]int32 { return [2]int32{v.Line, v.Col} }
	require.Equal(t, [2]int32{1, 1}, pos(v))
	require.Equal(t, [2]int32{2, 3}, pos(v.Get("a")))
	require.Equal(t, [2]int32{2, 6}, pos(v.Get("a").Get("b")))
	require.Equal(t, [2]int32{2, 10}, pos(v.Get("a").Get("b").List()[1]))
	require.Equal(t, [2]int32{4, 7}, pos(v.Get("a").Get("c").List()[0]))
	require.Equal(t, [2]int32{4, 10}, pos(v.Get("a").Get("c").List()[0].Get("d")))
}

func TestParseListsOwnTheirBacking(t *testing.T) {
	// Lists and maps come from shared slabs; appending must not overwrite a
	// neighbour.
	v, err := Parse([]byte("a: [1, 2]\nb: [3, 4]\nc: {x: 1}\nd: {y: 2}\n"), "test.yaml")
	require.NoError(t, err)
	a := v.Get("a")
	a.SetList(append(a.List(), NewNumber(9)))
	v.Get("c").Map().Set("z", NewNumber(9))
	require.Equal(t, "[3, 4]", describe(v.Get("b")))
	require.Equal(t, `{"y": 2}`, describe(v.Get("d")))
}

func TestParseLimits(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+10) + strings.Repeat("]", MaxDepth+10)
	_, err := Parse([]byte(deep), "deep.yaml")
	d := testkit.Diagnostic(t, err)
	require.Equal(t, 1, d.Pos.Line)

	// Aliases share values, so a few levels of doubling are cheap and
	// accepted; a billion laughs would stand for more values than any
	// walk of the document can afford, and is rejected where its first
	// alias is.
	laughs := func(levels int) string {
		var b strings.Builder
		b.WriteString("a0: &a0 [x, x]\n")
		for i := 1; i < levels; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
		}
		return b.String()
	}
	v, err := Parse([]byte(laughs(12)), "laughs.yaml")
	require.NoError(t, err)
	require.Same(t, v.Get("a10"), v.Get("a11").List()[0])
	_, err = Parse([]byte(laughs(30)), "laughs.yaml")
	d = testkit.Diagnostic(t, err)
	require.Equal(t, diag.Pos{File: "laughs.yaml", Line: 2, Col: 10}, d.Pos)
	require.Contains(t, d.Message, "aliases expand the document to more than")
}

func TestResolvePlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "null"}, {"~", "null"}, {"yes", `"yes"`}, {"TRUE", "true"}, {"1.0", "1"}, {"-0", "0"},
		{"-0.0", "-0"}, {"0x_1", `"0x_1"`}, {"1_0", `"1_0"`}, {"2023-01-01", "date(2023-01-01T00:00:00.000Z)"},
		{"<<", `"<<"`}, {".5", "0.5"}, {"1e400", `"1e400"`},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, describe(ResolvePlain(tc.in)), "resolving %q", tc.in)
	}
}

func TestLoadFile(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist.yaml")
	require.Error(t, err)
	require.Contains(t, err.Error(), "testdata/does-not-exist.yaml: cannot read:")
}

// TestLoadFileLarge: a file of mapThreshold bytes or more is parsed where
// it lies and unmapped before LoadFile returns, so the document must hold
// nothing of its text; reading every string afterwards faults otherwise.
// Both readers run on it: the fast path, and yaml.v3 after a bail-out (a
// flow mapping).
func TestLoadFileLarge(t *testing.T) {
	for _, tc := range []struct{ name, head string }{
		{"fast path", ""},
		{"yaml.v3", "flow: {a: 1, b: [x, y]}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(tc.head)
			for i := 0; b.Len() < mapThreshold+1000; i++ {
				fmt.Fprintf(&b, "node_%d:\n  type: \"type %d\"\n  name: plain name %d\n  list:\n    - item %d\n", i, i%7, i, i)
			}
			data := []byte(b.String())
			path := filepath.Join(t.TempDir(), "large.yaml")
			require.NoError(t, os.WriteFile(path, data, 0o644))
			got, err := LoadFile(path)
			require.NoError(t, err)
			want, err := Parse(data, path)
			require.NoError(t, err)
			require.True(t, DeepEqual(want, got), "the mapped file reads as its bytes do")
			require.Equal(t, "plain name 3", got.Get("node_3").Get("name").Str())
		})
	}
}

// TestAliased: ParseAliased and LoadFileAliased say whether a document
// uses an alias (merge keys included), whichever reader parses it and
// whether the file is mapped.
func TestAliased(t *testing.T) {
	big := strings.Repeat("# filler to map the file\n", mapThreshold/24+1)
	for _, tc := range []struct {
		name, src string
		aliased   bool
	}{
		{"fast path", "a: 1\nb: [x, y]\n", false},
		{"yaml.v3 without alias", "a: {b: 1}\nc: !!str 2\n", false},
		{"anchor without alias", "a: &x {b: 1}\n", false},
		{"alias", "a: &x {b: 1}\nc: *x\n", true},
		{"merge key", "a: &x {b: 1}\nc: {<<: *x, d: 2}\n", true},
		{"inline merge key", "c: {<<: {b: 1}, d: 2}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, aliased, err := ParseAliased([]byte(tc.src), "a.yaml")
			require.NoError(t, err)
			require.NotNil(t, v)
			require.Equal(t, tc.aliased, aliased)
			for _, text := range []string{tc.src, big + tc.src} {
				path := filepath.Join(t.TempDir(), "a.yaml")
				require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
				_, aliased, err = LoadFileAliased(path)
				require.NoError(t, err)
				require.Equal(t, tc.aliased, aliased, "%d bytes", len(text))
			}
		})
	}
}

// TestLoadFileCutShort: a file cut short while it is mapped makes the
// parser fault on the pages it lost; LoadFile reports a read error of the
// file instead of crashing.
func TestLoadFileCutShort(t *testing.T) {
	if !mapsFiles {
		t.Skip("LoadFile maps no files on this platform")
	}
	var b strings.Builder
	for i := 0; b.Len() < 2*mapThreshold; i++ {
		fmt.Fprintf(&b, "key_%d: value %d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "cut.yaml")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	defer func() { afterMap = nil }()
	afterMap = func(p string) { require.NoError(t, os.Truncate(p, 4096)) }
	_, err := LoadFile(path)
	d := testkit.Diagnostic(t, err, "a diagnostic")
	require.Equal(t, CodeRead, d.Code)
	require.Contains(t, d.Message, "the file changed while it was read")
}

func TestLoadFileSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	require.NoError(t, os.WriteFile(path, []byte("a: 1\nb: 2\n"), 0o644))
	defer func(old int64) { maxFileSize = old }(maxFileSize)
	maxFileSize = 10
	v, err := LoadFile(path)
	require.NoError(t, err, "a file of exactly the limit is read")
	require.Equal(t, 2, v.Map().Len())
	maxFileSize = 9
	_, err = LoadFile(path)
	d := testkit.Diagnostic(t, err)
	require.Equal(t, path, d.Pos.File)
	require.Equal(t, "the file has 10 bytes, more than the 9 that v4t reads", d.Message)
}

// TestDepthLimit: every reader accepts MaxDepth levels and rejects one
// more with a positioned error, whatever the notation.
func TestDepthLimit(t *testing.T) {
	flowList := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	flowMap := func(n int) string { return strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) }
	jsonMap := func(n int) string { return strings.Repeat(`{"a": `, n) + "1" + strings.Repeat("}", n) }
	block := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		return b.String()
	}
	readers := map[string]func([]byte, string) (*Value, error){"Parse": Parse, "ParseJSON": ParseJSON}
	tests := []struct {
		reader string
		doc    func(int) string
	}{
		{"Parse", flowList}, {"Parse", flowMap}, {"Parse", block},
		{"ParseJSON", flowList}, {"ParseJSON", jsonMap},
	}
	for i, tc := range tests {
		read := readers[tc.reader]
		_, err := read([]byte(tc.doc(MaxDepth-1)), "deep.yaml")
		require.NoError(t, err, "case %d (%s): %d levels", i, tc.reader, MaxDepth-1)
		_, err = read([]byte(tc.doc(MaxDepth+2)), "deep.yaml")
		require.Error(t, err, "case %d (%s): %d levels", i, tc.reader, MaxDepth+2)
		d := testkit.Diagnostic(t, err, "case %d: not a diagnostic: %v", i, err)
		require.Contains(t, d.Message, "nested deeper than 1000 levels", "case %d (%s)", i, tc.reader)
		require.Equal(t, 1, min(d.Pos.Line, 1), "case %d (%s): a position: %v", i, tc.reader, d.Pos)
	}
}

func TestCheckNode(t *testing.T) {
	bomb := `a: &a ["x","x","x","x","x","x","x","x","x","x"]` + "\n"
	prev := "a"
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("b%d", i)
		bomb += fmt.Sprintf("%s: &%s [%s]\n", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+",", 10), ","))
		prev = name
	}
	tests := []struct {
		name, src, want string
	}{
		{"plain", "a: [1, 2]\nb: {c: d}\n", ""},
		{"shared", "a: &x {b: 1}\nc: *x\nd: [*x, *x]\n", ""},
		{"bomb", bomb, "test.yaml:8:14: aliases expand the document to more than 16777216 values"},
		{"deep", "a: " + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + "\n", "test.yaml:1:1003: document nested deeper than 1000 levels"},
	}
	for _, tc := range tests {
		var root yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(tc.src), &root), tc.name)
		d := CheckNode("test.yaml", &root)
		if tc.want == "" {
			require.Nil(t, d, tc.name)
			continue
		}
		require.NotNil(t, d, tc.name)
		require.Equal(t, tc.want, d.Line(), tc.name)
	}
}

// TestReadFile checks the bounded reads of ReadFile and ReadNamedFile,
// with the limit lowered to 1 KiB.
func TestReadFile(t *testing.T) {
	defer func(m int64) { maxFileSize = m }(maxFileSize)
	maxFileSize = 1 << 10
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	require.NoError(t, os.WriteFile(small, []byte("a: 1\n"), 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("x", 1<<10+1)), 0o644))
	tests := []struct {
		name  string
		path  string
		named bool
		want  error // nil for success
	}{
		{"small file", small, false, nil},
		{"small file, named", small, true, nil},
		{"file over the limit", big, false, ErrTooLarge},
		{"file over the limit, named", big, true, ErrTooLarge},
		{"directory", dir, false, syscall.EISDIR},
		{"directory, named", dir, true, syscall.EISDIR},
		{"endless device", "/dev/zero", false, ErrTooLarge},
		{"device, named", "/dev/zero", true, ErrNotRegular},
		{"missing", filepath.Join(dir, "nothere.yaml"), false, os.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			skipWithout(t, tc.path)
			read := ReadFile
			if tc.named {
				read = ReadNamedFile
			}
			data, err := read(tc.path)
			if tc.want == nil {
				require.NoError(t, err, "reading %s", tc.path)
				require.Equal(t, "a: 1\n", string(data), "content of %s", tc.path)
				return
			}
			require.True(t, errors.Is(err, tc.want), "reading %s: want %v, got %v", tc.path, tc.want, err)
			var pe *os.PathError
			require.True(t, errors.As(err, &pe), "a path error: %v", err)
		})
	}
}

func skipWithout(t *testing.T, path string) {
	t.Helper()
	if strings.HasPrefix(path, "/dev/") {
		if _, err := os.Stat(path); err != nil {
			t.Skipf("no %s here", path)
		}
	}
}

// TestLoadFileNotRegular: LoadFile (used for spaces, cases, inputs of
// v4t complete, imports) refuses what is not a regular file instead of
// reading a device without end or waiting for a pipe's writer.
func TestLoadFileNotRegular(t *testing.T) {
	testkit.NotRegularFiles(t, CodeRead, func(path string) error {
		_, err := LoadFile(path)
		return err
	})
}

// TestPlainClass: the first byte sends a plain scalar to the null, boolean
// or number checks exactly where those can match, every byte value tried.
func TestPlainClass(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		want := plainString
		switch {
		case b == '~' || b == 'n' || b == 'N':
			want = plainNull
		case b == 't' || b == 'T' || b == 'f' || b == 'F':
			want = plainBool
		case b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.':
			want = plainNumber
		}
		require.Equal(t, want, int(plainClass[b]), "%q", b)
	}
	for s, want := range map[string]Kind{"~": KindNull, "null": KindNull, "nil": KindString, "True": KindBool, "fals": KindString,
		"-1.5": KindNumber, ".5": KindNumber, "+3": KindNumber, "2024-01-02": KindTime, "name": KindString, "": KindNull} {
		k, _, _ := resolvePlain(s)
		require.Equal(t, want, k, "%q", s)
	}
}
