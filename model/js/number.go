package js

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// FormatNumber renders a double exactly like JavaScript's
// Number.prototype.toString (ECMAScript Number::toString with radix 10).
func FormatNumber(f float64) string {
	var d [32]byte
	return string(AppendNumber(d[:0], f))
}

// AppendNumber appends FormatNumber(f) to b.
func AppendNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case f == 0:
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	if f < 1e15 && f == math.Trunc(f) {
		return strconv.AppendInt(b, int64(f), 10)
	}
	// Shortest round-trip digits: d.dddde±XX.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	ePos := bytes.IndexByte(e, 'e')
	var digits [24]byte
	k := 0
	for _, c := range e[:ePos] {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	x, neg := 0, e[ePos+1] == '-'
	for _, c := range e[ePos+2:] {
		x = x*10 + int(c-'0')
	}
	if neg {
		x = -x
	}
	n := x + 1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		b = append(b, digits[:k]...)
		for i := 0; i < n-k; i++ {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:k]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		b = append(b, digits[:k]...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:k]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}

// IsSpace reports whether r is JavaScript WhiteSpace or LineTerminator
// (what String.prototype.trim and Number(string) strip).
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// StringToNumber is JavaScript's Number(s) for a string: surrounding white
// space is ignored, the empty string is 0, decimal literals (with optional
// sign, fraction and exponent), Infinity and unsigned 0x/0o/0b integers are
// accepted, anything else is NaN.
func StringToNumber(s string) float64 {
	s = strings.TrimFunc(s, IsSpace)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, ok := new(big.Int).SetString(s[2:], base)
			if !ok || strings.ContainsRune(s[2:], '_') || strings.ContainsAny(s[2:], "+-") {
				return math.NaN()
			}
			f, _ := new(big.Float).SetInt(n).Float64()
			return f
		}
	}
	body := s
	sign := 1.0
	switch body[0] {
	case '+':
		body = body[1:]
	case '-':
		body = body[1:]
		sign = -1
	}
	if body == "Infinity" {
		return sign * math.Inf(1)
	}
	if !isDecimalLiteral(body) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return math.NaN()
		}
	}
	return sign * f
}

// isDecimalLiteral checks StrUnsignedDecimalLiteral without Infinity:
// digits [. digits] [e[±]digits], at least one mantissa digit.
func isDecimalLiteral(s string) bool {
	i, digits := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// SpaceClass is the content of a regular expression character class that
// matches what JavaScript's \s matches: IsSpace as RE2 syntax.
const SpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// Round is JavaScript's Math.round: the nearest integer, ties toward +∞;
// -0.5 ≤ x < 0 gives -0.
func Round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == math.Trunc(x) {
		return x
	}
	f := math.Floor(x)
	if x-f >= 0.5 {
		f++
	}
	if f == 0 && x < 0 {
		return math.Copysign(0, -1)
	}
	return f
}

// MaxStringBytes bounds the strings that conversions build. V8 stops at
// 2^29-24 UTF-16 units with the RangeError "Invalid string length"; we stop
// earlier, which only matters for strings no template needs, and keeps
// aliased lists from expanding exponentially.
const MaxStringBytes = 1 << 24
