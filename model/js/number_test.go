package js

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

var negZero = math.Copysign(0, -1)

// assertNumber checks got bit for bit (NaN equal to NaN, -0 not equal to 0)
// against want, written as Go's strconv reads it ("-0", "NaN", "Infinity").
func assertNumber(t *testing.T, want string, got float64, msgAndArgs ...any) {
	t.Helper()
	w, err := strconv.ParseFloat(want, 64)
	require.NoError(t, err, "want %q", want)
	require.True(t, sameFloat(w, got), "want %s, got %v: %s", want, got, fmt.Sprint(msgAndArgs...))
}

// Expectations from Node.js: String(x).
func TestFormatNumber(t *testing.T) {
	cases := []struct {
		x    float64
		want string
	}{
		{0, "0"}, {negZero, "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1.5e-7, "1.5e-7"}, {0.000001, "0.000001"}, {1.2e-6, "0.0000012"}, {1e-7, "1e-7"}, {-1e-7, "-1e-7"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {1e15, "1000000000000000"},
		{1 << 53, "9007199254740992"}, {123e-20, "1.23e-18"}, {4.35, "4.35"}, {100, "100"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, FormatNumber(tc.x), "String(%v)", tc.x)
		require.Equal(t, "<"+tc.want, string(AppendNumber([]byte("<"), tc.x)), "String(%v) appended", tc.x)
	}
}

// FuzzFormatNumber: every finite double reads back as itself through
// Number(String(x)), as in JavaScript.
func FuzzFormatNumber(f *testing.F) {
	for _, x := range []float64{0, 1.5e-7, 1e21, 123456789012345680000, 5e-324, math.MaxFloat64, 0.30000000000000004} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		s := FormatNumber(x)
		back := StringToNumber(s)
		if math.IsNaN(x) {
			if !math.IsNaN(back) {
				t.Fatalf("String(NaN) = %q reads back as %v", s, back)
			}
			return
		}
		if back != x {
			t.Fatalf("String(%v) = %q reads back as %v", x, s, back)
		}
	})
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
		assertNumber(t, tc.want, StringToNumber(tc.s), "Number(", strconv.Quote(tc.s), ")")
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
		assertNumber(t, tc.want, Round(tc.x), "Math.round(", tc.x, ")")
	}
}
