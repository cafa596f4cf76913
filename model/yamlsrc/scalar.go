package yamlsrc

import (
	"math"
	"math/big"
	"strconv"
	"time"
)

// Scalar resolution follows the js-yaml that the reference's dependency
// (^4.1.0) installs today, 4.3, with its default schema: null, bool, int,
// float, timestamp and merge, tried in that order on plain scalars
// (variability.md §2.1). Unlike 4.1, it accepts no underscores in numbers
// ("1_000" is a string), and a number must be finite, so a 400-digit
// integer or "1e400" is a string too.

// ResolvePlain resolves a plain (unquoted, untagged) scalar with js-yaml's
// default schema: null, bool, int, float, timestamp, else string.
func ResolvePlain(s string) *Value {
	kind, b, f := resolvePlain(s)
	v := &Value{Kind: kind, Bool: b}
	v.SetNum(f)
	if kind == KindString {
		v.SetStr(s)
	}
	return v
}

// resolvePlain is ResolvePlain without the allocation: it returns the kind
// and the boolean or numeric payload (epoch milliseconds for dates).
func resolvePlain(s string) (Kind, bool, float64) {
	if s == "" {
		return KindNull, false, 0
	}
	// Most plain scalars are names: one table lookup of the first byte
	// sends them on as strings.
	switch c := s[0]; plainClass[c] {
	case plainString:
	case plainNull:
		if isNull(s) {
			return KindNull, false, 0
		}
	case plainBool:
		if b, ok := parseBool(s); ok {
			return KindBool, b, 0
		}
	default: // plainNumber
		if f, ok := parseInt(s); ok {
			return KindNumber, false, f
		}
		if f, ok := parseFloat(s); ok {
			return KindNumber, false, f
		}
		if isDigit(c) {
			if ms, ok := ParseYAMLTimestamp(s); ok {
				return KindTime, false, ms
			}
		}
	}
	return KindString, false, 0
}

// The classes of a plain scalar's first byte: what it may resolve to
// other than a string.
const (
	plainString = iota
	plainNull
	plainBool
	plainNumber
)

var plainClass = func() (t [256]uint8) {
	for _, c := range "~nN" {
		t[c] = plainNull
	}
	for _, c := range "tTfF" {
		t[c] = plainBool
	}
	for _, c := range "0123456789-+." {
		t[c] = plainNumber
	}
	return t
}()

// resolvesToNonString reports whether js-yaml would read the plain scalar s
// as anything but the string s (the merge key "<<" included, and numbers
// out of range, which js-yaml reads as Infinity and v4t rejects).
func resolvesToNonString(s string) bool {
	if s == "<<" {
		return true
	}
	k, _, _ := resolvePlain(s)
	return k != KindString || overflows(s)
}

func isNull(s string) bool {
	switch s {
	case "~", "null", "Null", "NULL":
		return true
	}
	return false
}

func parseBool(s string) (bool, bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// parseInt follows js-yaml's int type: optional sign, then 0b/0x/0o digits or
// decimal digits; the value must be finite. "-0" and "+0" are +0 (js-yaml
// special-cases "0"), while "-00" and "-0x0" are -0. An int out of range
// gives ±Inf and false.
func parseInt(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	i := 0
	sign := 1.0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		i++
	}
	body := s[i:]
	if body == "" {
		return 0, false
	}
	if body == "0" {
		return 0, true
	}
	if body[0] == '0' && len(body) > 1 {
		base := 0
		switch body[1] {
		case 'b':
			base = 2
		case 'x':
			base = 16
		case 'o':
			base = 8
		}
		if base != 0 {
			digits := body[2:]
			if digits == "" {
				return 0, false
			}
			for j := 0; j < len(digits); j++ {
				if !validDigit(digits[j], base) {
					return 0, false
				}
			}
			f := parseIntBase(digits, base)
			if math.IsInf(f, 0) {
				return sign * f, false // out of range: see overflows
			}
			return sign * f, true
		}
	}
	for j := 0; j < len(body); j++ {
		if !isDigit(body[j]) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil || math.IsInf(f, 0) {
		return sign * f, false // out of range: see overflows
	}
	return sign * f, true
}

func validDigit(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return c >= '0' && c <= '7'
	}
	return isHexDigit(c)
}

// parseIntBase converts digits to the nearest double, like JS parseInt
// does for power-of-two radixes.
func parseIntBase(digits string, base int) float64 {
	if len(digits) <= 13 || (base == 2 && len(digits) <= 53) {
		n, _ := strconv.ParseUint(digits, base, 64)
		return float64(n)
	}
	var n big.Int
	n.SetString(digits, base)
	f, _ := new(big.Float).SetInt(&n).Float64()
	return f
}

// parseFloat follows js-yaml's float type:
//
//	[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)? | \.[0-9]+([eE][-+]?[0-9]+)?
//	| [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
//
// and a finite value except for the special forms (a value out of range
// gives ±Inf and false).
func parseFloat(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	t := s
	sign := 1.0
	signed := false
	if t[0] == '-' || t[0] == '+' {
		signed = true
		if t[0] == '-' {
			sign = -1
		}
		t = t[1:]
	}
	switch t {
	case ".inf", ".Inf", ".INF":
		return sign * math.Inf(1), true
	case ".nan", ".NaN", ".NAN":
		if signed {
			return 0, false
		}
		return math.NaN(), true
	case "":
		return 0, false
	}
	i := 0
	mant := t
	if t[0] == '.' {
		if signed {
			return 0, false
		}
		i = 1
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == 1 {
			return 0, false
		}
		mant = t[:i]
	} else {
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == 0 {
			return 0, false
		}
		if i < len(t) && t[i] == '.' {
			i++
			for i < len(t) && isDigit(t[i]) {
				i++
			}
		}
		mant = t[:i]
	}
	exp := ""
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		start := i
		i++
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			i++
		}
		d := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == d {
			return 0, false
		}
		exp = t[start:i]
	}
	if i != len(t) {
		return 0, false
	}
	// Go rejects "1." before an exponent; JS parseFloat reads it as "1".
	if mant[len(mant)-1] == '.' {
		mant = mant[:len(mant)-1]
	}
	num := mant
	if exp != "" {
		num = mant + exp
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(f, 0) {
		return sign * f, false // out of range: see overflows
	}
	return sign * f, true
}

// overflows reports whether the plain scalar s has the form of a YAML int
// or float but lies beyond the range of a double. js-yaml reads it as
// Infinity and the reference carries on; v4t rejects it, since no
// template means a number that no tool downstream can hold. parseInt and
// parseFloat say so by returning ±Inf with false.
func overflows(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; !isDigit(c) && c != '-' && c != '+' && c != '.' {
		return false
	}
	if f, ok := parseInt(s); !ok && math.IsInf(f, 0) {
		return true
	}
	f, ok := parseFloat(s)
	return !ok && math.IsInf(f, 0)
}

// ParseYAMLTimestamp parses the YAML timestamp forms js-yaml accepts and
// returns epoch milliseconds:
//
//	YYYY-MM-DD
//	YYYY-M?M-D?D([Tt]|[ \t]+)h?h:mm:ss(\.f*)?([ \t]*(Z|[-+]h?h(:mm)?))?
//
// Fields out of range carry over as in Date.UTC (2023-02-30 is March 2nd),
// and years 0000 to 0099 mean 1900 to 1999, also as in Date.UTC.
func ParseYAMLTimestamp(s string) (float64, bool) {
	if len(s) < 8 || !isDigit(s[0]) {
		return 0, false
	}
	p := tsParser{s: s}
	year := p.digits(4, 4)
	if year < 0 || !p.byte('-') {
		return 0, false
	}
	monthStart := p.i
	month := p.digits(1, 2)
	monthLen := p.i - monthStart
	if month < 0 || !p.byte('-') {
		return 0, false
	}
	dayStart := p.i
	day := p.digits(1, 2)
	if day < 0 {
		return 0, false
	}
	if p.i == len(s) {
		// The date-only form needs two-digit month and day.
		if monthLen != 2 || p.i-dayStart != 2 {
			return 0, false
		}
		return utcMillis(year, month, day, 0, 0, 0, 0), true
	}
	if !p.byte('T') && !p.byte('t') && p.spaces() == 0 {
		return 0, false
	}
	hour := p.digits(1, 2)
	if hour < 0 || !p.byte(':') {
		return 0, false
	}
	minute := p.digits(2, 2)
	if minute < 0 || !p.byte(':') {
		return 0, false
	}
	second := p.digits(2, 2)
	if second < 0 {
		return 0, false
	}
	frac := 0
	if p.byte('.') {
		start := p.i
		for p.i < len(s) && isDigit(s[p.i]) {
			p.i++
		}
		digits := s[start:p.i]
		for j := range 3 {
			frac *= 10
			if j < len(digits) {
				frac += int(digits[j] - '0')
			}
		}
	}
	delta := 0
	if p.i < len(s) {
		p.spaces()
		switch {
		case p.byte('Z'):
		case p.i < len(s) && (s[p.i] == '+' || s[p.i] == '-'):
			neg := s[p.i] == '-'
			p.i++
			th := p.digits(1, 2)
			if th < 0 {
				return 0, false
			}
			tm := 0
			if p.byte(':') {
				if tm = p.digits(2, 2); tm < 0 {
					return 0, false
				}
			}
			delta = (th*60 + tm) * 60000
			if neg {
				delta = -delta
			}
		default:
			return 0, false
		}
		if p.i != len(s) {
			return 0, false
		}
	}
	return utcMillis(year, month, day, hour, minute, second, frac) - float64(delta), true
}

type tsParser struct {
	s string
	i int
}

// digits reads between min and max decimal digits (greedy), or returns -1.
func (p *tsParser) digits(min, max int) int {
	n, j := 0, 0
	for j < max && p.i+j < len(p.s) && isDigit(p.s[p.i+j]) {
		n = n*10 + int(p.s[p.i+j]-'0')
		j++
	}
	if j < min {
		return -1
	}
	p.i += j
	return n
}

func (p *tsParser) byte(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *tsParser) spaces() int {
	n := 0
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
		n++
	}
	return n
}

// utcMillis is JS Date.UTC: out-of-range fields carry over, and years 0 to
// 99 mean 1900 to 1999.
func utcMillis(year, month, day, hour, minute, second, ms int) float64 {
	if year >= 0 && year <= 99 {
		year += 1900
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, ms*int(time.Millisecond), time.UTC)
	return float64(t.UnixMilli())
}

// truncate shortens s to n bytes and an ellipsis, for messages that quote
// user text of any length.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
