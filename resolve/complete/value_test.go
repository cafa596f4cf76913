package complete

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// parseValue reads a YAML document with the given schema.
func parseValue(t *testing.T, src string, s schema) *value {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n), "YAML %q", src)
	v, err := convert(&n, s, false)
	require.NoError(t, err, "YAML %q", src)
	return v
}

func TestResolve11(t *testing.T) {
	tests := []struct {
		src  string
		kind kind
		str  string // Python str() of the value
	}{
		{"6.2", kFloat, "6.2"},
		{"6.10", kFloat, "6.1"},
		{"2", kInt, "2"},
		{"2.0", kFloat, "2.0"},
		{"6.", kFloat, "6.0"},
		{".5", kFloat, "0.5"},
		{"6.2.x", kStr, "6.2.x"},
		{"'6.2'", kStr, "6.2"},
		{"1e5", kStr, "1e5"}, // YAML 1.1 floats need a dot
		{"1.0e+5", kFloat, "100000.0"},
		{"1:20", kInt, "80"}, // sexagesimal
		{"1:20.5", kFloat, "80.5"},
		{"0x1F", kInt, "31"},
		{"017", kInt, "15"}, // octal
		{"0b101", kInt, "5"},
		{"1_000", kInt, "1000"},
		{"yes", kBool, "True"},
		{"Off", kBool, "False"},
		{"~", kNull, "None"},
		{"", kNull, "None"},
		{"2001-12-14", kTime, "2001-12-14"},
		{".inf", kFloat, "inf"},
		{"x", kStr, "x"},
		{"!!str 12", kStr, "12"},
		{"!!float 12", kFloat, "12.0"},
		{"[1, 'a', 2.5, null, true]", kList, "[1, 'a', 2.5, None, True]"},
		{"{a: 1, 8080: {get_input: p}}", kMap, "{'a': 1, 8080: {'get_input': 'p'}}"},
		{`"it's"`, kStr, "it's"},
	}
	for _, tc := range tests {
		v := parseValue(t, "k: "+tc.src, yaml11).get("k")
		require.NotNil(t, v, "value of %q", tc.src)
		require.Equal(t, tc.kind, v.kind, "kind of %q", tc.src)
		require.Equal(t, tc.str, pyStr(v), "str() of %q", tc.src)
	}
}

func TestResolve12(t *testing.T) {
	tests := []struct {
		src  string
		kind kind
	}{
		{"6.2", kFloat}, {"2", kInt}, {"1e5", kFloat}, {"1:20", kStr}, {"yes", kStr},
		{"0o17", kInt}, {"0x1F", kInt}, {"017", kInt}, {"~", kNull}, {"True", kBool},
		{"1_000", kStr}, {"2001-12-14", kStr}, {".NaN", kFloat}, {"'1'", kStr},
	}
	for _, tc := range tests {
		v := parseValue(t, "k: "+tc.src, yaml12).get("k")
		require.Equal(t, tc.kind, v.kind, "kind of %q", tc.src)
	}
}

func TestPyFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {291.484761, "291.484761"},
		{1e15, "1000000000000000.0"}, {1e16, "1e+16"}, {1.5e17, "1.5e+17"},
		{0.0001, "0.0001"}, {1e-5, "1e-05"}, {-2.5e-7, "-2.5e-07"}, {123456789.125, "123456789.125"},
		{math.Inf(-1), "-inf"}, {math.NaN(), "nan"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, pyFloat(tc.f), "repr(%v)", tc.f)
	}
}

func TestPyQuote(t *testing.T) {
	tests := []struct{ s, want string }{
		{"a", "'a'"}, {"it's", `"it's"`}, {`a'b"c`, `'a\'b"c'`}, {"t\tn\n", `'t\tn\n'`},
		{`back\slash`, `'back\\slash'`}, {"\x01", `'\x01'`}, {"é", "'é'"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, pyQuote(tc.s), "repr(%q)", tc.s)
	}
}

func TestPyEqual(t *testing.T) {
	v := func(src string) *value { return parseValue(t, "k: "+src, yaml11).get("k") }
	tests := []struct {
		a, b string
		want bool
	}{
		{"1", "1.0", true}, {"1", "true", true}, {"0", "no", true}, {"1", "'1'", false},
		{"hello", "'hello'", true}, {"debian", "Debian", false}, {"null", "~", true},
		{"{a: 1, b: 2}", "{b: 2, a: 1}", true}, {"[1, 2]", "[2, 1]", false},
		{"{get_input: p}", "{get_input: q}", false}, {".nan", ".nan", false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, pyEqual(v(tc.a), v(tc.b)), "%s == %s", tc.a, tc.b)
	}
}

func TestMapKeysPythonDict(t *testing.T) {
	// Many keys go through the index; Python-equal keys are one key.
	src := "{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, 1: x, j: 10}"
	m := parseValue(t, src, yaml11)
	m.set(newStr("e"), newInt(50))
	m.set(&value{kind: kFloat, f: 1}, newStr("y"))
	m.set(newStr("k"), newInt(11))
	require.Len(t, m.m, 12)
	require.Equal(t, "{'a': 1, 'b': 2, 'c': 3, 'd': 4, 'e': 50, 'f': 6, 'g': 7, 'h': 8, 'i': 9, 1: 'y', 'j': 10, 'k': 11}", pyStr(m))
}

func TestConvertRejects(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", "duplicate mapping key 'a'"},
		{"duplicate typed key", "1: a\n1.0: b\n", "duplicate mapping key 1.0"},
		{"self alias", "a: &x [*x]\n", "refers to a value that contains it"},
	}
	for _, tc := range tests {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(tc.src), &n), tc.name)
		_, err := convert(&n, yaml11, true)
		require.Error(t, err, tc.name)
		require.Contains(t, err.Error(), tc.want, tc.name)
	}
}

func TestParsedEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"a: 1\nb: [x, y]\n", "b: [x, y]\na: 1\n", true},
		{"ports: {8080: 80}", "ports:\n  8080: 80\n", true},
		{"ports: {8080: 80}", "ports: {'8080': 80}", false},
		{"v: '1.16'", "v: 1.16", false},
		{"v: 1", "v: 1.0", false},
		{"l: [a, b]", "l: [b, a]", false},
		{"d: >\n  folded\n", "d: \"folded\\n\"", true},
	}
	for _, tc := range tests {
		got, err := ParsedEqual([]byte(tc.a), []byte(tc.b))
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%q vs %q", tc.a, tc.b)
	}
}
