package yamlsrc

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"v4t/model/js"
)

func mustParse(t *testing.T, text string) *Value {
	t.Helper()
	v, err := Parse([]byte(text), "")
	require.NoError(t, err)
	return v
}

// Expectations from Node.js: String(v) on what js-yaml loads.
func TestToStringAndJoin(t *testing.T) {
	cases := []struct {
		v    *Value
		want string
	}{
		{nil, "undefined"}, {mustParse(t, "null"), "null"}, {mustParse(t, "true"), "true"},
		{mustParse(t, "1.5e-7"), "1.5e-7"}, {mustParse(t, "1e21"), "1e+21"}, {mustParse(t, "-0.0"), "0"},
		{mustParse(t, ".nan"), "NaN"}, {mustParse(t, "-.inf"), "-Infinity"},
		{mustParse(t, "[1, [2, [3]], null, {a: 1}]"), "1,2,3,,[object Object]"}, {mustParse(t, "{}"), "[object Object]"},
		{mustParse(t, "2023-01-01"), "Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time)"},
		{mustParse(t, "[a, 2023-01-01]"), "a,Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time)"},
	}
	for _, tc := range cases {
		s, err := ToString(tc.v, time.UTC)
		require.NoError(t, err)
		require.Equal(t, tc.want, s, "String(%s)", JSON(tc.v))
		require.Equal(t, tc.want, String(tc.v), "String(%s)", JSON(tc.v))
	}
	s, err := Join([]*Value{nil, mustParse(t, "null"), mustParse(t, "1"), mustParse(t, "[a, b]")}, "-", time.UTC)
	require.NoError(t, err)
	require.Equal(t, "--1-a,b", s)

	berlin := time.FixedZone("CET", 3600)
	s, err = ToString(mustParse(t, "2023-01-01"), berlin)
	require.NoError(t, err)
	require.Equal(t, "Sun Jan 01 2023 01:00:00 GMT+0100 (Central European Standard Time)", s)
}

func TestToStringCyclesAndLimits(t *testing.T) {
	// V8 joins a list inside its own join as "".
	self := NewList(nil)
	self.List()[0] = self
	require.Equal(t, ",", String(NewList(self, self)))

	// Surrogate halves that meet are joined again.
	halves, err := Join([]*Value{NewString("a\xed\xa0\xbd"), NewString("\xed\xb8\x80b")}, "", nil)
	require.NoError(t, err)
	require.Equal(t, "a😀b", halves, "the halves of U+1F600 joined")

	// ToString stops at js.MaxStringBytes; String (for keys and messages)
	// has no bound.
	long := NewList(NewString(strings.Repeat("x", js.MaxStringBytes)), NewString("y"))
	_, err = ToString(long, time.UTC)
	require.ErrorIs(t, err, ErrStringLength)
	_, err = Join(long.List(), "", time.UTC)
	require.ErrorIs(t, err, ErrStringLength)
	require.Len(t, String(long), js.MaxStringBytes+2)
	one := NewString(strings.Repeat("x", js.MaxStringBytes+1))
	_, err = ToString(one, time.UTC)
	require.ErrorIs(t, err, ErrStringLength, "a string value over the bound")
	at, err := ToString(NewString(strings.Repeat("x", js.MaxStringBytes)), time.UTC)
	require.NoError(t, err, "a string value at the bound")
	require.Len(t, at, js.MaxStringBytes)

	// A string value is its own String, not a copy, normalised as a
	// joined one is.
	name := NewString("node_1")
	require.Same(t, unsafe.StringData(name.Str()), unsafe.StringData(String(name)))
	for _, s := range []string{"", "node_1", "a\xed\xa0\xbd", "\xed\xb8\x80b", "é😀"} {
		joined, err := Join([]*Value{NewString(s)}, "", nil)
		require.NoError(t, err)
		require.Equal(t, joined, String(NewString(s)), "%q", s)
	}
}
