package expr

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

var negZero = math.Copysign(0, -1)

// fmtNum distinguishes -0 from 0 in failure messages and comparisons.
func fmtNum(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return yamlsrc.FormatNumber(f)
}

// Expectations from Node.js: Number(x.toFixed(2)), Math.round(x*100)/100.
func TestR2AndRR(t *testing.T) {
	cases := []struct {
		x      float64
		r2, rr string
	}{
		{0.125, "0.13", "0.13"},
		{-0.125, "-0.13", "-0.12"},
		{1.005, "1", "1"},
		{-1.005, "-1", "-1"},
		{0.005, "0.01", "0.01"},
		{0.015, "0.01", "0.02"},
		{0.025, "0.03", "0.03"},
		{2.675, "2.67", "2.68"},
		{1.45, "1.45", "1.45"},
		{negZero, "0", "-0"},
		{-0.001, "-0", "-0"},
		{-0.005, "-0.01", "-0"},
		{1e21, "1e+21", "999999999999999900000"},
		{1e21 - 131072, "999999999999999900000", "999999999999999900000"},
		{123.456, "123.46", "123.46"},
		{-123.455, "-123.45", "-123.45"},
		{0.1 + 0.2, "0.3", "0.3"},
		{1.255, "1.25", "1.25"},
		{8.345, "8.35", "8.35"},
		{999.995, "1000", "1000"},
		{1e-10, "0", "0"},
		{-1e-10, "-0", "-0"},
		{5e-324, "0", "0"},
		{math.MaxFloat64, "1.7976931348623157e+308", "Infinity"},
		{math.Inf(1), "Infinity", "Infinity"},
		{math.Inf(-1), "-Infinity", "-Infinity"},
		{math.NaN(), "NaN", "NaN"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.r2, fmtNum(R2(tc.x)), "R2(%v)", tc.x)
		assert.Equal(t, tc.rr, fmtNum(RR(tc.x)), "RR(%v)", tc.x)
	}
}

func TestRound(t *testing.T) {
	cases := []struct {
		x    float64
		want string
	}{
		{2.5, "3"}, {-2.5, "-2"}, {0.5, "1"}, {-0.5, "-0"}, {0.49999999999999994, "0"},
		{-0.49999999999999994, "-0"}, {1.5, "2"}, {-1.5, "-1"}, {4503599627370495.5, "4503599627370496"},
		{-4503599627370495.5, "-4503599627370495"}, {-0.2, "-0"}, {0.2, "0"}, {1e300, "1e+300"},
		{negZero, "-0"}, {math.NaN(), "NaN"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, fmtNum(Round(tc.x)), "Math.round(%v)", tc.x)
	}
}

// Expectations from Node.js: Number(s).
func TestStringToNumber(t *testing.T) {
	cases := []struct {
		s    string
		want string
	}{
		{"", "0"}, {" ", "0"}, {" 12 ", "12"}, {"\n\t12\u00a0", "12"}, {"\ufeff7", "7"}, {"\u200b7", "NaN"},
		{"0x10", "16"}, {"0X1f", "31"}, {"0o17", "15"}, {"0b101", "5"}, {"-0x10", "NaN"}, {"0x", "NaN"},
		{"0x1_0", "NaN"}, {"0xffffffffffffffffffff", "1.2089258196146292e+24"},
		{"1e3", "1000"}, {"1E-3", "0.001"}, {".5", "0.5"}, {"5.", "5"}, {".", "NaN"}, {"+5", "5"}, {"-5", "-5"},
		{"-0", "-0"}, {"Infinity", "Infinity"}, {"-Infinity", "-Infinity"}, {"+Infinity", "Infinity"},
		{"infinity", "NaN"}, {"1_000", "NaN"}, {"12px", "NaN"}, {"1e", "NaN"}, {"1e+", "NaN"}, {"--1", "NaN"},
		{"00012", "12"}, {"0.0000001", "1e-7"}, {"1e400", "Infinity"}, {"-1e400", "-Infinity"}, {"NaN", "NaN"},
		{"1,2", "NaN"}, {"0x1p3", "NaN"}, {"inf", "NaN"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, fmtNum(StringToNumber(tc.s)), "Number(%q)", tc.s)
	}
}

func val(t *testing.T, text string) *yamlsrc.Value {
	t.Helper()
	v, err := yamlsrc.Parse([]byte(text), "")
	require.NoError(t, err)
	return v
}

func TestToNumber(t *testing.T) {
	cases := []struct {
		v    *yamlsrc.Value
		want string
	}{
		{nil, "NaN"}, {val(t, "null"), "0"}, {val(t, "true"), "1"}, {val(t, "false"), "0"},
		{val(t, `" 7 "`), "7"}, {val(t, "2023-01-01"), "1672531200000"}, {val(t, "[]"), "0"},
		{val(t, "[5]"), "5"}, {val(t, `[["5"]]`), "5"}, {val(t, "[null]"), "0"}, {val(t, "[1, 2]"), "NaN"},
		{val(t, "[true]"), "NaN"}, {val(t, "[.nan]"), "NaN"}, {val(t, "[-.inf]"), "-Infinity"},
		{val(t, "{}"), "NaN"}, {val(t, "[{}]"), "NaN"}, {val(t, "[2023-01-01]"), "NaN"},
	}
	for _, tc := range cases {
		j, _ := JSON(tc.v)
		assert.Equal(t, tc.want, fmtNum(ToNumber(tc.v)), "Number(%s)", j)
	}
}

func TestEquality(t *testing.T) {
	list := val(t, "[1]")
	date := val(t, "2023-01-01")
	cases := []struct {
		a, b       *yamlsrc.Value
		strict, sz bool
	}{
		{nil, nil, true, true},
		{nil, val(t, "null"), false, false},
		{val(t, "null"), val(t, "~"), true, true},
		{val(t, "1"), val(t, "1.0"), true, true},
		{val(t, "0"), yamlsrc.NewNumber(negZero), true, true},
		{val(t, ".nan"), val(t, ".nan"), false, true},
		{val(t, "1"), val(t, `"1"`), false, false},
		{val(t, "a"), val(t, `"a"`), true, true},
		{val(t, "true"), val(t, "true"), true, true},
		{list, list, true, true},
		{list, val(t, "[1]"), false, false},
		{val(t, "{}"), val(t, "{}"), false, false},
		{date, date, true, true},
		{date, val(t, "2023-01-01"), false, false},
	}
	for _, tc := range cases {
		ja, _ := JSON(tc.a)
		jb, _ := JSON(tc.b)
		assert.Equal(t, tc.strict, StrictEqual(tc.a, tc.b), "%s === %s", ja, jb)
		assert.Equal(t, tc.sz, SameValueZero(tc.a, tc.b), "SameValueZero(%s, %s)", ja, jb)
	}
}

func TestCompare(t *testing.T) {
	cases := []struct {
		a, b string
		c    int
		ok   bool
	}{
		{"1", "2", -1, true},
		{`"10"`, `"9"`, -1, true},
		{`"10"`, "9", 1, true},
		{`"a"`, "1", 0, false},
		{"true", "1", 0, true},
		{"null", "0", 0, true},
		{"[10]", "[9]", -1, true},
		{"[2]", "1", 1, true},
		{"[1, 2]", `"1,2"`, 0, true},
		{".nan", ".nan", 0, false},
		{"-0.0", "0", 0, true},
		{`""`, "0", 0, true},
		{"{}", `"[object Object]"`, 0, true},
		{"2023-01-01", "1672531200000", 0, true},
		{`"\U0001F600"`, `"\uff21"`, -1, true},
		{`"é"`, `"z"`, 1, true},
	}
	for _, tc := range cases {
		c, ok, err := Compare(val(t, tc.a), val(t, tc.b), time.UTC)
		require.NoError(t, err)
		assert.Equal(t, tc.ok, ok, "comparable %s, %s", tc.a, tc.b)
		if ok {
			assert.Equal(t, tc.c, c, "compare %s, %s", tc.a, tc.b)
		}
	}
	_, ok, err := Compare(nil, val(t, "1"), time.UTC)
	require.NoError(t, err)
	assert.False(t, ok, "undefined is NaN")
}

func TestToStringAndJoin(t *testing.T) {
	cases := []struct {
		v    *yamlsrc.Value
		want string
	}{
		{nil, "undefined"}, {val(t, "null"), "null"}, {val(t, "true"), "true"}, {val(t, "1.5e-7"), "1.5e-7"},
		{val(t, "1e21"), "1e+21"}, {val(t, "-0.0"), "0"}, {val(t, ".nan"), "NaN"}, {val(t, "-.inf"), "-Infinity"},
		{val(t, "[1, [2, [3]], null, {a: 1}]"), "1,2,3,,[object Object]"}, {val(t, "{}"), "[object Object]"},
		{val(t, "2023-01-01"), "Sun Jan 01 2023 00:00:00 GMT+0000 (Coordinated Universal Time)"},
	}
	for _, tc := range cases {
		s, err := ToString(tc.v, time.UTC)
		require.NoError(t, err)
		j, _ := JSON(tc.v)
		assert.Equal(t, tc.want, s, "String(%s)", j)
	}
	s, err := Join([]*yamlsrc.Value{nil, val(t, "null"), val(t, "1"), val(t, "[a, b]")}, "-", time.UTC)
	require.NoError(t, err)
	assert.Equal(t, "--1-a,b", s)
}

func TestUTF16(t *testing.T) {
	cases := []struct {
		s    string
		want int
	}{
		{"", 0}, {"abc", 3}, {"é", 1}, {"€", 1}, {"😀", 2}, {"a😀b", 4}, {"👩‍👩‍👧", 8}, {"\xed\xa0\xbd", 1}, {"\xff", 1},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, UTF16Len(tc.s), "length of %q", tc.s)
	}
	assert.Equal(t, []string{"a", "\xed\xa0\xbd", "\xed\xb8\x80", "b"}, splitJS("a😀b", ""))
	assert.Equal(t, "a😀b", normalize("a\xed\xa0\xbd"+"\xed\xb8\x80b"))
	assert.Equal(t, -1, compareUTF16("\U0001F600", "\uff21"), "surrogates sort below U+FF21")
	var b strings.Builder
	quoteJSON(&b, "x\xed\xa0\xbdy\n")
	assert.Equal(t, `"x\ud83dy\n"`, b.String())
}

func TestJSON(t *testing.T) {
	j, err := JSON(nil)
	require.NoError(t, err)
	assert.Equal(t, "undefined", j)
	j, err = JSON(val(t, `{a: [1, .nan, .inf, "x\"y"], b: 2023-01-01, c: null, d: {}}`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":[1,null,null,"x\"y"],"b":"2023-01-01T00:00:00.000Z","c":null,"d":{}}`, j)
	p, err := Pretty(val(t, `{a: [1, []], b: {}}`))
	require.NoError(t, err)
	assert.Equal(t, "{\n    \"a\": [\n        1,\n        []\n    ],\n    \"b\": {}\n}", p)
}
