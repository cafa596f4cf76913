package yamlsrc

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// The expected texts below are what the reference writes (js-yaml dump plus
// prettier, variability.md §13), taken from the reference installation,
// except where a comment says otherwise.

// stringCases are strings written as the value of key "k" (value) and as a
// key with value 1 (key): one list, so that every string is pinned both ways.
var stringCases = []struct{ in, value, key string }{
	{"plain", "k: plain\n", "plain: 1\n"},
	{"with space", "k: with space\n", "with space: 1\n"},
	{"yes", "k: 'yes'\n", "'yes': 1\n"},
	{"No", "k: 'No'\n", "'No': 1\n"},
	{"on", "k: 'on'\n", "'on': 1\n"},
	{"OFF", "k: 'OFF'\n", "'OFF': 1\n"},
	{"y", "k: 'y'\n", "'y': 1\n"},
	{"n", "k: 'n'\n", "'n': 1\n"},
	{"Y", "k: 'Y'\n", "'Y': 1\n"},
	{"~", "k: '~'\n", "'~': 1\n"},
	{"null", "k: 'null'\n", "'null': 1\n"},
	{"Null", "k: 'Null'\n", "'Null': 1\n"},
	{"true", "k: 'true'\n", "'true': 1\n"},
	{"False", "k: 'False'\n", "'False': 1\n"},
	{"1", "k: '1'\n", "'1': 1\n"},
	{"1.0", "k: '1.0'\n", "'1.0': 1\n"},
	{"-0", "k: '-0'\n", "'-0': 1\n"},
	{"+1", "k: '+1'\n", "'+1': 1\n"},
	{"0x1F", "k: '0x1F'\n", "'0x1F': 1\n"},
	{"0o17", "k: '0o17'\n", "'0o17': 1\n"},
	{"0b101", "k: '0b101'\n", "'0b101': 1\n"},
	{"1e3", "k: '1e3'\n", "'1e3': 1\n"},
	{".5", "k: '.5'\n", "'.5': 1\n"},
	{".inf", "k: '.inf'\n", "'.inf': 1\n"},
	{"-.inf", "k: '-.inf'\n", "'-.inf': 1\n"},
	{".nan", "k: '.nan'\n", "'.nan': 1\n"},
	{"1:20", "k: '1:20'\n", "'1:20': 1\n"},
	{"190:20:30.15", "k: '190:20:30.15'\n", "'190:20:30.15': 1\n"},
	{"2023-01-01", "k: '2023-01-01'\n", "'2023-01-01': 1\n"},
	{"2023-01-01T00:00:00Z", "k: '2023-01-01T00:00:00Z'\n", "'2023-01-01T00:00:00Z': 1\n"},
	{"<<", "k: '<<'\n", "'<<': 1\n"},
	{"=", "k: '='\n", "'=': 1\n"},
	{"", "k: ''\n", "'': 1\n"},
	{"-", "k: '-'\n", "'-': 1\n"},
	{"-a", "k: '-a'\n", "'-a': 1\n"},
	{"a-", "k: a-\n", "a-: 1\n"},
	{"? x", "k: '? x'\n", "'? x': 1\n"},
	{"a: b", "k: 'a: b'\n", "'a: b': 1\n"},
	{"a:b", "k: a:b\n", "a:b: 1\n"},
	{"a:", "k: 'a:'\n", "'a:': 1\n"},
	{"a #b", "k: 'a #b'\n", "'a #b': 1\n"},
	{"a#b", "k: a#b\n", "a#b: 1\n"},
	{"#a", "k: '#a'\n", "'#a': 1\n"},
	{"&a", "k: '&a'\n", "'&a': 1\n"},
	{"*a", "k: '*a'\n", "'*a': 1\n"},
	{"!a", "k: '!a'\n", "'!a': 1\n"},
	{"|a", "k: '|a'\n", "'|a': 1\n"},
	{">a", "k: '>a'\n", "'>a': 1\n"},
	{"%a", "k: '%a'\n", "'%a': 1\n"},
	{"@a", "k: '@a'\n", "'@a': 1\n"},
	{"`a", "k: '`a'\n", "'`a': 1\n"},
	{"\"dq\"", "k: '\"dq\"'\n", "'\"dq\"': 1\n"},
	{"'sq'", "k: \"'sq'\"\n", "\"'sq'\": 1\n"},
	{"it's", "k: it's\n", "it's: 1\n"},
	{"say \"hi\"", "k: say \"hi\"\n", "say \"hi\": 1\n"},
	{"both ' and \"", "k: both ' and \"\n", "both ' and \": 1\n"},
	{"back\\slash", "k: back\\slash\n", "back\\slash: 1\n"},
	{"back\\slash's", "k: back\\slash's\n", "back\\slash's: 1\n"},
	{" lead", "k: ' lead'\n", "' lead': 1\n"},
	{"trail ", "k: 'trail '\n", "'trail ': 1\n"},
	{"tab\there", "k: \"tab\\there\"\n", "\"tab\\there\": 1\n"},
	{"cr\rhere", "k: \"cr\\rhere\"\n", "\"cr\\rhere\": 1\n"},
	{"nul\x00", "k: \"nul\\0\"\n", "\"nul\\0\": 1\n"},
	{"bell\x07", "k: \"bell\\a\"\n", "\"bell\\a\": 1\n"},
	{"esc\x1b", "k: \"esc\\e\"\n", "\"esc\\e\": 1\n"},
	{"del\x7f", "k: \"del\\x7F\"\n", "\"del\\x7F\": 1\n"},
	{"nel\u0085", "k: \"nel\\N\"\n", "\"nel\\N\": 1\n"},
	{"nbsp\u00a0", "k: \"nbsp\\_\"\n", "\"nbsp\\_\": 1\n"},
	{"ls\u2028", "k: \"ls\\L\"\n", "\"ls\\L\": 1\n"},
	{"bom\ufeff", "k: \"bom\\uFEFF\"\n", "\"bom\\uFEFF\": 1\n"},
	{"priv\ue000", "k: priv\ue000\n", "priv\ue000: 1\n"},
	{"fffe\ufffe", "k: \"fffe\\uFFFE\"\n", "\"fffe\\uFFFE\": 1\n"},
	{"emoji 😀", "k: emoji 😀\n", "emoji 😀: 1\n"},
	{"é", "k: é\n", "é: 1\n"},
	{"[a]", "k: '[a]'\n", "'[a]': 1\n"},
	{"{a}", "k: '{a}'\n", "'{a}': 1\n"},
	{"a,b", "k: a,b\n", "a,b: 1\n"},
	{"a]", "k: a]\n", "a]: 1\n"},
	{"1.2.3", "k: 1.2.3\n", "1.2.3: 1\n"},
	{"v1.0", "k: v1.0\n", "v1.0: 1\n"},
	{"0755", "k: '0755'\n", "'0755': 1\n"},
	{"a\nb", "k: |-\n    a\n    b\n", "\"a\\nb\": 1\n"},
	{"a\nb\n", "k: |\n    a\n    b\n", "\"a\\nb\\n\": 1\n"},
	{"a\n\nb", "k: |-\n    a\n\n    b\n", "\"a\\n\\nb\": 1\n"},
	{"a\nb\n\n", "k: |+\n    a\n    b\n\n", "\"a\\nb\\n\\n\": 1\n"},
	{"a\n  indented", "k: |-\n    a\n      indented\n", "\"a\\n  indented\": 1\n"},
	{"trail\n\n\n", "k: |+\n    trail\n\n\n", "\"trail\\n\\n\\n\": 1\n"},
	{"\n", "k: |+\n\n", "\"\\n\": 1\n"},
	{"\n\nx", "k: |-\n\n\n    x\n", "\"\\n\\nx\": 1\n"},
	{"a\n \nb", "k: |-\n    a\n     \n    b\n", "\"a\\n \\nb\": 1\n"},
	{"a: b\nc: d", "k: |-\n    a: b\n    c: d\n", "\"a: b\\nc: d\": 1\n"},
	{"# not a comment\nx", "k: |-\n    # not a comment\n    x\n", "\"# not a comment\\nx\": 1\n"},
	{"...", "k: ...\n", "...: 1\n"},
	{"---", "k: '---'\n", "---\n'---': 1\n"},
	{"--- x", "k: '--- x'\n", "---\n'--- x': 1\n"},
	{"... x", "k: ... x\n", "'... x': 1\n"}, // the reference fails on this key
	{"x...", "k: x...\n", "x...: 1\n"},
	{"1_000", "k: '1_000'\n", "'1_000': 1\n"},          // YAML 1.1 int; the reference writes it plain
	{"2023-1-1", "k: '2023-1-1'\n", "'2023-1-1': 1\n"}, // YAML 1.1 date; the reference writes it plain
	{"-.5", "k: '-.5'\n", "'-.5': 1\n"},
	{"12:30", "k: '12:30'\n", "'12:30': 1\n"},
	{"0.", "k: '0.'\n", "'0.': 1\n"},
	{"1.e3", "k: '1.e3'\n", "'1.e3': 1\n"},
	{"190:20", "k: '190:20'\n", "'190:20': 1\n"},
	{"Infinity", "k: Infinity\n", "Infinity: 1\n"},
	{"NaN", "k: NaN\n", "NaN: 1\n"},
	{"0x", "k: 0x\n", "0x: 1\n"},
	{"1e", "k: 1e\n", "1e: 1\n"},
	{"e3", "k: e3\n", "e3: 1\n"},
}

func TestMarshalStringValues(t *testing.T) {
	for _, tc := range stringCases {
		t.Run(tc.in, func(t *testing.T) {
			doc := MapOf("k", NewString(tc.in))
			out := Marshal(doc)
			require.Equal(t, tc.value, string(out), "value %q", tc.in)
			assertReadsBack(t, doc, out)
		})
	}
}

func TestMarshalStringKeys(t *testing.T) {
	for _, tc := range stringCases {
		t.Run(tc.in, func(t *testing.T) {
			doc := MapOf(tc.in, NewNumber(1))
			out := Marshal(doc)
			require.Equal(t, tc.key, string(out), "key %q", tc.in)
			assertReadsBack(t, doc, out)
		})
	}
}

// assertReadsBack checks that out parses to a document deeply equal to doc.
func assertReadsBack(t *testing.T, doc *Value, out []byte) {
	t.Helper()
	back, err := Parse(out, "out.yaml")
	require.NoError(t, err, "parsing %q", out)
	require.True(t, DeepEqual(doc, back), "%q reads back as %s, want %s", out, JSON(back), JSON(doc))
}

func TestMarshalScalars(t *testing.T) {
	ms := func(s string) float64 {
		f, ok := ParseYAMLTimestamp(s)
		require.True(t, ok, s)
		return f
	}
	tests := []struct {
		name string
		in   *Value
		want string
	}{
		{"zero", NewNumber(0), "0\n"},
		{"negative zero", NewNumber(math.Copysign(0, -1)), "-0.0\n"},
		{"one", NewNumber(1), "1\n"},
		{"minus one", NewNumber(-1), "-1\n"},
		{"half", NewNumber(1.5), "1.5\n"},
		{"tenth", NewNumber(0.1), "0.1\n"},
		{"third", NewNumber(1.0 / 3), "0.3333333333333333\n"},
		{"1e21", NewNumber(1e21), "1e+21\n"},
		{"1.23e27", NewNumber(1.23e27), "1.23e+27\n"},
		{"1e-7", NewNumber(1e-7), "1.e-7\n"},
		{"5e-7", NewNumber(5e-7), "5.e-7\n"},
		{"-5e-7", NewNumber(-5e-7), "-5.e-7\n"},
		{"1.5e-7", NewNumber(1.5e-7), "1.5e-7\n"},
		{"2^53", NewNumber(1 << 53), "9007199254740992\n"},
		{"2^53+2", NewNumber(1<<53 + 2), "9007199254740994\n"},
		{"1e300", NewNumber(1e300), "1e+300\n"},
		{"1e15", NewNumber(1e15), "1000000000000000\n"},
		{"1e16", NewNumber(1e16), "10000000000000000\n"},
		{"-0.000001", NewNumber(-0.000001), "-0.000001\n"},
		{"NaN", NewNumber(math.NaN()), ".nan\n"},
		{"Infinity", NewNumber(math.Inf(1)), ".inf\n"},
		{"-Infinity", NewNumber(math.Inf(-1)), "-.inf\n"},
		{"true", NewBool(true), "true\n"},
		{"false", NewBool(false), "false\n"},
		{"epoch", NewTime(0), "1970-01-01T00:00:00.000Z\n"},
		{"date with ms", NewTime(1672531200123), "2023-01-01T00:00:00.123Z\n"},
		{"1901", NewTime(ms("1901-01-01")), "1901-01-01T00:00:00.000Z\n"},
		{"9999", NewTime(ms("9999-12-31T23:59:59.999Z")), "9999-12-31T23:59:59.999Z\n"},
		// Out of the timestamp range: written as the reference does, read
		// back as a string.
		{"year 10007", NewTime(ms("9999-99-99")), "+010007-06-07T00:00:00.000Z\n"},
		// JavaScript throws; the emitter writes null.
		{"invalid date", NewTime(math.NaN()), "\n"},
		{"invalid date in a map", MapOf("a", NewTime(math.NaN()), "b", NewList(NewList(NewTime(math.NaN())), NewNumber(1))), "a:\nb:\n    - - null\n    - 1\n"},
		{"string", NewString("hello"), "hello\n"},
		{"null", NewNull(), ""},
		{"nil", nil, ""},
		{"empty map", NewMap(), "{}\n"},
		{"empty list", NewList(), "[]\n"},
		{"multi-line", NewString("a\nb\n"), "|\n    a\n    b\n"},
		// prettier adds a document start marker when "---" is at offset 1.
		{"dashes", NewString("---x"), "---\n'---x'\n"},
		{"dashes after one", NewString("a---"), "---\na---\n"},
		// Not the reference's output: prettier leaves a kept final line
		// break at the top level unindented, and "..." ends the document.
		{"kept line break", NewString("a\n\n"), "\"a\\n\\n\"\n"},
		{"dots", NewString("..."), "'...'\n"},
		{"dots and text", NewString("... x"), "'... x'\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := Marshal(tc.in)
			require.Equal(t, tc.want, string(out), "%s", tc.name)
			if tc.in != nil && tc.in.Kind == KindNumber {
				require.Equal(t, tc.want, FormatNumber(tc.in.Num())+"\n", "FormatNumber %s", tc.name)
			}
			if tc.in != nil && !strings.HasPrefix(tc.name, "invalid date") && tc.name != "year 10007" {
				assertReadsBack(t, tc.in, out)
			}
		})
	}
}

func TestMarshalLayout(t *testing.T) {
	s := NewString
	n := NewNumber
	tests := []struct {
		name string
		in   *Value
		want string
	}{
		{
			name: "nesting",
			in: MapOf(
				"l", NewList(
					MapOf("a", MapOf("b", n(1), "c", NewList(n(1), MapOf("d", n(2)))),
						"e", NewList(MapOf("f", NewNull()), NewList(), NewMap()),
						"g", s("x\ny")),
					NewList(NewList(MapOf("h", n(1), "i", n(2))), NewList(NewList(n(3)))),
					MapOf("k", NewMap()),
					MapOf("m", NewList()),
					MapOf("n", s("p\nq")),
				),
				"top", NewList(NewList(s("x\ny"))),
				"nulls", NewList(NewNull(), n(1), NewNull()),
				"e", NewMap(),
				"f", NewList(),
				"b", NewBool(true),
				"c", NewBool(false),
				"z", NewNull(),
			),
			want: `l:
    - a:
          b: 1
          c:
              - 1
              - d: 2
      e:
          - f:
          - []
          - {}
      g: |-
          x
          y
    - - - h: 1
          i: 2
      - - - 3
    - k: {}
    - m: []
    - 'n': |-
          p
          q
top:
    - - |-
          x
          y
nulls:
    -
    - 1
    -
e: {}
f: []
b: true
c: false
z:
`,
		},
		{
			name: "root list",
			in:   NewList(MapOf("a", n(1), "b", NewList(n(1), n(2))), MapOf("c", MapOf("d", n(1))), s("x"), NewNull(), NewList()),
			want: "- a: 1\n  b:\n      - 1\n      - 2\n- c:\n      d: 1\n- x\n-\n- []\n",
		},
		{
			name: "integer-like keys first",
			in:   MapOf("b", n(1), "2", n(2), "a", n(3), "1", n(4), "10", n(5), "01", n(6)),
			want: "'1': 4\n'2': 2\n'10': 5\nb: 1\na: 3\n'01': 6\n",
		},
		{
			name: "document start marker before a key",
			in:   MapOf("x---", n(1), "b", n(2)),
			want: "---\nx---: 1\nb: 2\n",
		},
		{
			name: "kept line breaks",
			in:   MapOf("a", s("x\n\n"), "b", NewList(s("y\n\n\n")), "c", MapOf("d", s("z\n\n"))),
			want: "a: |+\n    x\n\nb:\n    - |+\n        y\n\n\nc:\n    d: |+\n        z\n\n",
		},
		{
			// The reference writes an indentation indicator everywhere; its
			// lines are right only where the container is where js-yaml put
			// it, elsewhere the emitter falls back to double quotes.
			name: "leading space in a multi-line string",
			in:   MapOf("k", s(" a\nb"), "l", NewList(s(" a\nb")), "m", NewList(NewList(s(" a\nb"))), "n", NewList(MapOf("o", s(" a\nb")))),
			want: "k: |2-\n   a\n  b\nl:\n    - \" a\\nb\"\nm:\n    - - \" a\\nb\"\n'n':\n    - o: \" a\\nb\"\n",
		},
		{
			name: "leading space in a root list",
			in:   NewList(s(" a\nb"), NewList(s(" a\nb")), MapOf("o", s("\n a\n"))),
			want: "- |2-\n   a\n  b\n- - |2-\n     a\n    b\n- o: |2\n\n     a\n",
		},
		{
			// Not the reference's output: prettier trims the spaces.
			name: "trailing space on the last line",
			in:   MapOf("a", s("x\ntrail "), "b", s("x\n  \n"), "c", s("trail \nx")),
			want: "a: \"x\\ntrail \"\nb: \"x\\n  \\n\"\nc: |-\n    trail \n    x\n",
		},
		{
			// Not the reference's output ("- -" then "- x"), which js-yaml
			// reads as [[null, "x"]].
			name: "null ending a nested list",
			in:   NewList(NewList(NewNull()), s("x"), NewList(n(1), NewNull()), MapOf("k", NewList(NewNull())), NewNull()),
			want: "- - null\n- x\n- - 1\n  - null\n- k:\n      - null\n-\n",
		},
		{
			name: "null ending a list before a key",
			in:   MapOf("a", NewList(n(1), NewNull()), "b", NewList(NewNull())),
			want: "a:\n    - 1\n    -\nb:\n    -\n",
		},
		{
			// JavaScript's undefined: js-yaml leaves the key out, and writes
			// null for a list item.
			name: "nil values",
			in:   mapValueOf(mapOf("a", nil, "b", NewList(nil, n(1)), "c", mapValueOf(mapOf("x", nil)))),
			want: "b:\n    -\n    - 1\nc: {}\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := Marshal(tc.in)
			require.Equal(t, tc.want, string(out), "%s", tc.name)
			if tc.name != "nil values" {
				assertReadsBack(t, tc.in, out)
			}
		})
	}
}

// mapOf builds a Map directly, allowing nil values.
func mapOf(kv ...any) *Map {
	m := &Map{}
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := kv[i+1].(*Value)
		m.Set(kv[i].(string), v)
	}
	return m
}

func TestMarshalLongKey(t *testing.T) {
	for _, n := range []int{1000, 1024, 1025, 5000} {
		k := strings.Repeat("k", n)
		doc := MapOf(k, MapOf("x", NewNumber(1)), "l", NewList(MapOf(k, NewNumber(2), "z", NewNumber(3))))
		out := string(Marshal(doc))
		if n > 1024 {
			// YAML limits implicit keys to 1024 characters.
			require.True(t, strings.HasPrefix(out, "? "+k+"\n:\n    x: 1\nl:\n"), "key of %d characters", n)
			require.True(t, strings.HasSuffix(out, "    - ? "+k+"\n      : 2\n      z: 3\n"), "key of %d characters", n)
		} else {
			require.Equal(t, k+":\n    x: 1\nl:\n    - "+k+": 2\n      z: 3\n", out, "key of %d characters", n)
		}
		assertReadsBack(t, doc, []byte(out))
	}
}

func TestMarshalLongValue(t *testing.T) {
	v := strings.Repeat("word ", 20000) + "end"
	doc := MapOf("k", NewString(v), "l", NewList(NewString(v+":")))
	out := Marshal(doc)
	require.Equal(t, "k: "+v+"\nl:\n    - '"+v+":'\n", string(out))
	assertReadsBack(t, doc, out)
}

// trickyStrings are strings for round-trip checks in every position.
var trickyStrings = []string{
	"", " ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "a\rb", "\x00", "\x7f", "\u0085", "\u00a0",
	"\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\U0010ffff", "😀", "é", "\ue000",
	"a\n\tb", "\ta", "a\t", " a", "a ", " a\nb", "a\nb ", "a\n b", "a \nb", "\n a", "\n\n a\n\n",
	"a\n\n\n", "\na", "a\n", "a\n \n", "a\n  \nb", "- a\n- b", "a: b\nc: d", "|\n>", "---\n...",
	"...", "... x", "---", "--- x", ".", "..", "-", "--", "?", "? x", ":", "::", "a:", ":a", "a: b", "a:b",
	"#", "# x", "a #b", "a#b", "a # b", "&", "*", "!", "|", ">", "%", "@", "`", "'", "\"", "''", "\"\"",
	"'a'", "\"a\"", "a'b", "a\"b", "a'b\"c", "a\\b", "a\\'b", "\\", "\\n", "[", "]", "{", "}",
	",", "[a]", "{a: b}", "a,b", "a[b]", "a{b}", "<<", "=", "~", "null", "NULL", "Null", "nULL", "true",
	"True", "TRUE", "tRUE", "false", "yes", "Yes", "YES", "no", "on", "ON", "off", "y", "Y", "n", "N",
	"0", "-0", "+0", "00", "-00", "0.0", "-0.0", "1", "+1", "-1", "1.0", "1.", ".5", "-.5", "+.5",
	"1e3", "1E3", "1e+3", "1.e3", "1_000", "1__0", "_1", "1_", "0x1F", "0X1F", "0x", "0x_1", "0o17",
	"0o8", "0b101", "0b2", "017", "08", "0755", "1:20", "1:20:30", "-1:20", "190:20:30.15", "1:2.5",
	".inf", ".Inf", "-.inf", "+.inf", ".nan", "-.nan", "inf", "nan", "NaN", "Infinity", "-Infinity",
	"1e400", "123456789012345678901234567890", "2023-01-01", "2023-1-1", "2023-01-1",
	"2023-01-01T00:00:00Z", "2023-01-01t00:00:00z", "2023-01-01 00:00:00", "2023-01-01T00:00:00.5+01:00",
	"0001-01-01", "9999-99-99", "1.2.3", "v1.0.0", "tosca_simple_yaml_1_3", "component_1_present",
	"http://example.com/a?b=c#d", "C:\\path", "key: [1, 2]", "a\u00a0b", "日本語", "x\u0000y",
}

func TestRoundTripStrings(t *testing.T) {
	for _, s := range trickyStrings {
		v := NewString(s)
		docs := map[string]*Value{
			"root":         v,
			"value":        MapOf("k", v),
			"key":          MapOf(s, NewNumber(1)),
			"list item":    NewList(v, v),
			"nested":       MapOf("a", MapOf("b", NewList(MapOf("c", v, s, v), NewList(v)))),
			"nested key":   NewList(MapOf(s, MapOf(s, v))),
			"nested lists": NewList(NewList(NewList(v)), v),
		}
		for pos, doc := range docs {
			out := Marshal(doc)
			back, err := Parse(out, "out.yaml")
			require.NoError(t, err, "string %q as %s: %q", s, pos, out)
			require.True(t, DeepEqual(doc, back), "string %q as %s: %q reads back as %s", s, pos, out, JSON(back))
			require.Equal(t, string(out), string(Marshal(back)), "string %q as %s: writing is not stable", s, pos)
		}
	}
}

func TestRoundTripNumbers(t *testing.T) {
	nums := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.5, 1.5, -2.5e-10, 1e-7, 5e-7, 1e-300, 5e-324,
		1e15, 1e16, 1e21, 1e300, math.MaxFloat64, -math.MaxFloat64, 1 << 53, 1<<53 + 2, 123456789.123,
		math.NaN(), math.Inf(1), math.Inf(-1), 1.0 / 3, 2.0 / 3, 100, 1e6}
	for _, f := range nums {
		doc := MapOf("n", NewNumber(f), "l", NewList(NewNumber(f)))
		out := Marshal(doc)
		back, err := Parse(out, "out.yaml")
		require.NoError(t, err, "number %v: %q", f, out)
		require.True(t, DeepEqual(doc, back), "number %v: %q reads back as %s", f, out, JSON(back))
	}
}

func TestRoundTripDates(t *testing.T) {
	for _, s := range []string{"0100-01-01", "1900-01-01", "1970-01-01T00:00:00.001Z", "2023-01-01T23:59:59.999Z",
		"2000-02-29", "9999-12-31T23:59:59.999Z", "2023-06-15T12:30:00+05:30", "1969-12-31T23:59:59.999Z"} {
		ms, ok := ParseYAMLTimestamp(s)
		require.True(t, ok, s)
		doc := NewList(NewTime(ms), MapOf("d", NewTime(ms)))
		out := Marshal(doc)
		back, err := Parse(out, "out.yaml")
		require.NoError(t, err, "date %s: %q", s, out)
		require.True(t, DeepEqual(doc, back), "date %s: %q reads back as %s", s, out, JSON(back))
	}
}

// conformanceFiles lists the YAML files of the Vintner conformance corpus,
// or skips t when the corpus is absent.
func conformanceFiles(t testing.TB) []string {
	conformanceDir := testkit.Corpus(t, "vintner")
	var files []string
	err := filepath.WalkDir(conformanceDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files, "no YAML files under %s", conformanceDir)
	return files
}

func TestRoundTripConformance(t *testing.T) {
	for _, path := range conformanceFiles(t) {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		v, err := Parse(data, path)
		require.NoError(t, err, "parsing %s", path)
		out := Marshal(v)
		back, err := Parse(out, path)
		require.NoError(t, err, "parsing the output for %s:\n%s", path, out)
		require.True(t, DeepEqual(v, back), "%s does not read back the same:\n%s", path, out)
		require.Equal(t, string(out), string(Marshal(back)), "%s: writing is not stable", path)
	}
}

func TestWriteMatchesMarshal(t *testing.T) {
	for _, n := range []int{0, 2, 500} {
		doc := benchDoc(n)
		var buf bytes.Buffer
		require.NoError(t, Write(&buf, doc))
		out := Marshal(doc)
		require.Equal(t, len(out), buf.Len(), "n=%d", n)
		require.True(t, bytes.Equal(out, buf.Bytes()), "n=%d: Write and Marshal differ", n)
		if n == 500 {
			require.Greater(t, len(out), 2*flushSize, "the document should span several flushes")
		}
		assertReadsBack(t, doc, out)
	}
}

type failingWriter struct{ after int }

var errWrite = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errWrite
	}
	w.after--
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	for _, after := range []int{0, 1, 3} {
		err := Write(&failingWriter{after: after}, benchDoc(500))
		require.ErrorIs(t, err, errWrite, "failing after %d writes", after)
	}
	require.ErrorIs(t, Write(&failingWriter{}, MapOf("a", NewNumber(1))), errWrite, "small document")
}

func TestWriteCycle(t *testing.T) {
	l := NewList()
	l.SetList(append(l.List(), l))
	m := NewMap()
	m.Map().Set("self", m)
	for _, doc := range []*Value{l, m, MapOf("x", NewList(m))} {
		var buf bytes.Buffer
		require.ErrorIs(t, Write(&buf, doc), errCyclic)
		require.Panics(t, func() { Marshal(doc) })
	}
}

func TestMarshalShared(t *testing.T) {
	shared := MapOf("a", NewNumber(1))
	doc := MapOf("x", shared, "z", NewList(shared, shared))
	require.Equal(t, "x:\n    a: 1\nz:\n    - a: 1\n    - a: 1\n", string(Marshal(doc)))
}

func TestRoundTripDeep(t *testing.T) {
	deepList := NewString("x")
	for i := range MaxDepth { // the deepest document Parse reads
		deepList = NewList(deepList, NewNumber(float64(i)))
	}
	deepMap := NewNull()
	for i := range MaxDepth / 2 {
		deepMap = MapOf("a", deepMap, "b", NewList(NewNumber(float64(i))))
	}
	for name, doc := range map[string]*Value{"lists": deepList, "maps": deepMap} {
		out := Marshal(doc)
		back, err := Parse(out, "deep.yaml")
		require.NoError(t, err, "deep %s", name)
		require.True(t, DeepEqual(doc, back), "deep %s does not read back the same", name)
	}
}

func TestMarshalAfterDelete(t *testing.T) {
	doc := MapOf("a", NewNumber(1), "b", NewNumber(2), "1", NewNumber(3), "c", NewNumber(4))
	require.True(t, doc.Map().Delete("b"))
	require.True(t, doc.Map().Delete("1"))
	require.Equal(t, "a: 1\nc: 4\n", string(Marshal(doc)))
	doc.Map().Set("b", NewNumber(5))
	require.Equal(t, "a: 1\nc: 4\nb: 5\n", string(Marshal(doc)))
	only := MapOf("x", NewNumber(1))
	require.True(t, only.Map().Delete("x"))
	require.Equal(t, "{}\n", string(Marshal(only)))
}

// TestIsASCIIPlainWord: ASCII letters, digits and "_-./" only, starting
// with a letter or digit; every byte value in the first and a later
// position.
func TestIsASCIIPlainWord(t *testing.T) {
	letterOrDigit := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	for c := range 256 {
		b := byte(c)
		require.Equal(t, letterOrDigit(b), isASCIIPlainWord(string([]byte{b})), "%q", b)
		require.Equal(t, letterOrDigit(b) || b == '_' || b == '-' || b == '.' || b == '/', isASCIIPlainWord(string([]byte{'a', b, 'z'})), "a%qz", b)
	}
	require.True(t, isASCIIPlainWord("component_1.x/y-z"))
	require.False(t, isASCIIPlainWord("_x"))
	require.False(t, isASCIIPlainWord("a b"))
}

// mapValueOf returns the map value holding m.
func mapValueOf(m *Map) *Value {
	v := &Value{Kind: KindMap}
	v.SetMap(m)
	return v
}
