package expr

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/js"
	"v4t/model/yamlsrc"
)

var negZero = math.Copysign(0, -1)

// fmtNum distinguishes -0 from 0 in failure messages and comparisons.
func fmtNum(f float64) string {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return js.FormatNumber(f)
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
		require.Equal(t, tc.r2, fmtNum(R2(tc.x)), "R2(%v)", tc.x)
		require.Equal(t, tc.rr, fmtNum(RR(tc.x)), "RR(%v)", tc.x)
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
		require.Equal(t, tc.want, fmtNum(ToNumber(tc.v)), "Number(%s)", j)
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
		require.Equal(t, tc.strict, StrictEqual(tc.a, tc.b), "%s === %s", ja, jb)
		require.Equal(t, tc.sz, SameValueZero(tc.a, tc.b), "SameValueZero(%s, %s)", ja, jb)
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
		require.Equal(t, tc.ok, ok, "comparable %s, %s", tc.a, tc.b)
		if ok {
			require.Equal(t, tc.c, c, "compare %s, %s", tc.a, tc.b)
		}
	}
	_, ok, err := Compare(nil, val(t, "1"), time.UTC)
	require.NoError(t, err)
	require.False(t, ok, "undefined is NaN")
}

func TestJSON(t *testing.T) {
	j, err := JSON(nil)
	require.NoError(t, err)
	require.Equal(t, "undefined", j)
	j, err = JSON(val(t, `{a: [1, .nan, .inf, "x\"y"], b: 2023-01-01, c: null, d: {}}`))
	require.NoError(t, err)
	require.Equal(t, `{"a":[1,null,null,"x\"y"],"b":"2023-01-01T00:00:00.000Z","c":null,"d":{}}`, j)
	p, err := Pretty(val(t, `{a: [1, []], b: {}}`))
	require.NoError(t, err)
	require.Equal(t, "{\n    \"a\": [\n        1,\n        []\n    ],\n    \"b\": {}\n}", p)
}
