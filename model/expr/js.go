package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"v4t/model/yamlsrc"
)

// JavaScript value semantics on document values (variability.md §9.2, §9.3).
// A nil *yamlsrc.Value is undefined, KindNull is null, KindTime a Date.

// StrictEqual is JavaScript's a === b: same type and value; NaN is never
// equal, +0 equals -0, and maps, lists and dates are equal only to themselves
// (pointer identity).
func StrictEqual(a, b *yamlsrc.Value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yamlsrc.KindNull:
		return true
	case yamlsrc.KindBool:
		return a.Bool == b.Bool
	case yamlsrc.KindNumber:
		return a.Num == b.Num
	case yamlsrc.KindString:
		return a.Str == b.Str
	}
	return a == b
}

// SameValueZero is the equality of Array.prototype.includes: like
// StrictEqual, except that NaN equals NaN.
func SameValueZero(a, b *yamlsrc.Value) bool {
	if a != nil && b != nil && a.Kind == yamlsrc.KindNumber && b.Kind == yamlsrc.KindNumber &&
		math.IsNaN(a.Num) && math.IsNaN(b.Num) {
		return true
	}
	return StrictEqual(a, b)
}

// ToNumber is JavaScript's Number(v): undefined → NaN, null → 0, booleans →
// 0/1, strings → StringToNumber, dates → epoch milliseconds, lists → their
// string conversion parsed, maps → NaN.
func ToNumber(v *yamlsrc.Value) float64 {
	if v == nil {
		return math.NaN()
	}
	switch v.Kind {
	case yamlsrc.KindNull:
		return 0
	case yamlsrc.KindBool:
		if v.Bool {
			return 1
		}
		return 0
	case yamlsrc.KindNumber, yamlsrc.KindTime:
		return v.Num
	case yamlsrc.KindString:
		return StringToNumber(v.Str)
	case yamlsrc.KindList:
		// The joined string of two or more items contains a comma, which no
		// numeric string does, so only chains of one-item lists need a look.
		var chain []*yamlsrc.Value
		for cur := v; ; {
			for _, c := range chain {
				if c == cur {
					return 0 // a cycle joins as ""
				}
			}
			chain = append(chain, cur)
			if len(cur.List) == 0 {
				return 0
			}
			if len(cur.List) > 1 {
				return math.NaN()
			}
			x := cur.List[0]
			switch {
			case x.IsNull():
				return 0
			case x.Kind == yamlsrc.KindString:
				return StringToNumber(x.Str)
			case x.Kind == yamlsrc.KindNumber:
				return StringToNumber(yamlsrc.FormatNumber(x.Num))
			case x.Kind == yamlsrc.KindList:
				cur = x
				continue
			}
			return math.NaN() // "true", "false", a date string, "[object Object]"
		}
	}
	return math.NaN()
}

// isJSSpace reports whether r is JavaScript WhiteSpace or LineTerminator
// (what String.prototype.trim and Number(string) strip).
func isJSSpace(r rune) bool {
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
	s = strings.TrimFunc(s, isJSSpace)
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

// toPrimitive is ToPrimitive(v, hint number) for document values: lists
// become their joined string, maps "[object Object]", dates their time value.
func toPrimitive(v *yamlsrc.Value, loc *time.Location) (*yamlsrc.Value, error) {
	if v == nil {
		return nil, nil
	}
	switch v.Kind {
	case yamlsrc.KindList:
		s, err := ToString(v, loc)
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewString(s), nil
	case yamlsrc.KindMap:
		return yamlsrc.NewString("[object Object]"), nil
	case yamlsrc.KindTime:
		return yamlsrc.NewNumber(v.Num), nil
	}
	return v, nil
}

// Compare is JavaScript's relational comparison of a and b (IsLessThan):
// both operands are converted to primitives; two strings compare by UTF-16
// code units, anything else numerically. It returns -1, 0 or 1, and ok=false
// when the comparison is undefined (a NaN operand), in which case <, <=, >
// and >= are all false. loc is the time zone for dates inside lists (nil
// means time.Local). The error is the RangeError of an oversized string.
func Compare(a, b *yamlsrc.Value, loc *time.Location) (c int, ok bool, err error) {
	pa, err := toPrimitive(a, loc)
	if err != nil {
		return 0, false, err
	}
	pb, err := toPrimitive(b, loc)
	if err != nil {
		return 0, false, err
	}
	if pa != nil && pb != nil && pa.Kind == yamlsrc.KindString && pb.Kind == yamlsrc.KindString {
		return compareUTF16(pa.Str, pb.Str), true, nil
	}
	x, y := ToNumber(pa), ToNumber(pb)
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return 0, false, nil
	case x < y:
		return -1, true, nil
	case x > y:
		return 1, true, nil
	}
	return 0, true, nil
}

// maxStringBytes bounds strings built by conversions. V8 stops at 2^29-24
// UTF-16 units with "Invalid string length"; we stop earlier, which only
// matters for strings no template needs, and keeps aliased lists from
// expanding exponentially.
const maxStringBytes = 1 << 24

func errStringLength() error { return rangeError("Invalid string length") }

// ToString is JavaScript's String(v): undefined and null give "undefined" and
// "null", numbers use Number.prototype.toString, lists are joined with ","
// (null items empty), maps give "[object Object]" and dates the local-time
// Date.prototype.toString form in loc (nil means time.Local). The error is
// the RangeError of an oversized string.
func ToString(v *yamlsrc.Value, loc *time.Location) (string, error) {
	var c converter
	c.loc = loc
	if err := c.write(v); err != nil {
		return "", err
	}
	return normalize(c.b.String()), nil
}

// Join is Array.prototype.join(sep) on items: undefined and null items become
// empty strings, every other item its ToString. loc is as for ToString.
func Join(items []*yamlsrc.Value, sep string, loc *time.Location) (string, error) {
	var c converter
	c.loc = loc
	if err := c.join(items, sep); err != nil {
		return "", err
	}
	return normalize(c.b.String()), nil
}

type converter struct {
	b       strings.Builder
	loc     *time.Location
	joining []*yamlsrc.Value // lists being joined, for V8's cycle rule
}

func (c *converter) write(v *yamlsrc.Value) error {
	if v == nil {
		c.b.WriteString("undefined")
		return nil
	}
	switch v.Kind {
	case yamlsrc.KindNull:
		c.b.WriteString("null")
	case yamlsrc.KindBool:
		c.b.WriteString(strconv.FormatBool(v.Bool))
	case yamlsrc.KindNumber:
		c.b.WriteString(yamlsrc.FormatNumber(v.Num))
	case yamlsrc.KindString:
		c.b.WriteString(v.Str)
	case yamlsrc.KindTime:
		c.b.WriteString(dateString(v.Num, c.loc))
	case yamlsrc.KindList:
		// V8 joins a list that is already being joined (a cycle) as "".
		for _, x := range c.joining {
			if x == v {
				return nil
			}
		}
		c.joining = append(c.joining, v)
		err := c.join(v.List, ",")
		c.joining = c.joining[:len(c.joining)-1]
		return err
	default:
		c.b.WriteString("[object Object]")
	}
	if c.b.Len() > maxStringBytes {
		return errStringLength()
	}
	return nil
}

func (c *converter) join(items []*yamlsrc.Value, sep string) error {
	for i, x := range items {
		if i > 0 {
			c.b.WriteString(sep)
			if c.b.Len() > maxStringBytes {
				return errStringLength()
			}
		}
		if !x.IsNull() {
			if err := c.write(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// arrayIndex parses a canonical array index ("0", "1", ... without leading
// zeros).
func arrayIndex(k string) (int, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
		n = n*10 + int(k[i]-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

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

// RR is regression-js's round(v, 2): Math.round(v * 100) / 100 in double
// arithmetic (variability.md §9.5).
func RR(v float64) float64 {
	return Round(v*100) / 100
}

var (
	bigHundred = big.NewInt(100)
	ratHalf    = big.NewRat(1, 2)
)

// R2 is Number(x.toFixed(2)) (variability.md §9.4): the exact binary value
// of x rounded to two decimals with ties away from zero, read back as the
// nearest double. NaN stays NaN, |x| ≥ 1e21 is returned unchanged, -0 becomes
// +0, and a negative x that rounds to zero gives -0 (from "-0.00").
func R2(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) >= 1e21 {
		return x
	}
	neg := x < 0
	r := new(big.Rat).SetFloat64(math.Abs(x)) // exact
	r.Mul(r, new(big.Rat).SetInt(bigHundred))
	r.Add(r, ratHalf)
	n := new(big.Int).Quo(r.Num(), r.Denom()) // floor, r > 0
	f, _ := new(big.Rat).SetFrac(n, bigHundred).Float64()
	if neg {
		return -f
	}
	return f
}

// JSON renders v like JSON.stringify(v): undefined gives "undefined" (as in
// a template string), non-finite numbers null, dates their ISO string. A
// cyclic value fails with V8's TypeError message.
func JSON(v *yamlsrc.Value) (string, error) {
	return marshal(v, "", nil)
}

// Pretty renders v like JSON.stringify(v, null, 4).
func Pretty(v *yamlsrc.Value) (string, error) {
	return marshal(v, "    ", nil)
}

type stackEntry struct {
	key string // "index 3" or "property 'k'"; empty for the root
	v   *yamlsrc.Value
}

type marshaller struct {
	b      strings.Builder
	indent string
	// cache holds the evaluation results that the reference stores on map
	// objects as _cached_result (absent: never evaluated; nil: undefined).
	cache map[*yamlsrc.Value]*yamlsrc.Value
	stack []stackEntry
}

func marshal(v *yamlsrc.Value, indent string, cache map[*yamlsrc.Value]*yamlsrc.Value) (string, error) {
	if v == nil {
		return "undefined", nil
	}
	m := &marshaller{indent: indent, cache: cache}
	if err := m.value(v, "", ""); err != nil {
		return "", err
	}
	if m.b.Len() > maxStringBytes {
		return "", errStringLength()
	}
	return m.b.String(), nil
}

func (m *marshaller) value(v *yamlsrc.Value, key, cur string) error {
	switch v.Kind {
	case yamlsrc.KindNull:
		m.b.WriteString("null")
	case yamlsrc.KindBool:
		m.b.WriteString(strconv.FormatBool(v.Bool))
	case yamlsrc.KindNumber:
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			m.b.WriteString("null")
		} else {
			m.b.WriteString(yamlsrc.FormatNumber(v.Num))
		}
	case yamlsrc.KindString:
		quoteJSON(&m.b, v.Str)
	case yamlsrc.KindTime:
		if math.IsNaN(v.Num) {
			m.b.WriteString("null")
		} else {
			quoteJSON(&m.b, yamlsrc.FormatTime(v.Num))
		}
	case yamlsrc.KindList, yamlsrc.KindMap:
		if m.b.Len() > maxStringBytes {
			return errStringLength()
		}
		for i, e := range m.stack {
			if e.v == v {
				return circularError(m.stack[i:], key)
			}
		}
		m.stack = append(m.stack, stackEntry{key, v})
		var err error
		if v.Kind == yamlsrc.KindList {
			err = m.list(v, cur)
		} else {
			err = m.object(v, cur)
		}
		m.stack = m.stack[:len(m.stack)-1]
		return err
	}
	return nil
}

func (m *marshaller) list(v *yamlsrc.Value, cur string) error {
	if len(v.List) == 0 {
		m.b.WriteString("[]")
		return nil
	}
	next := cur + m.indent
	m.b.WriteByte('[')
	for i, x := range v.List {
		if i > 0 {
			m.b.WriteByte(',')
		}
		m.newline(next)
		if x == nil {
			m.b.WriteString("null")
		} else if err := m.value(x, "index "+strconv.Itoa(i), next); err != nil {
			return err
		}
	}
	m.newline(cur)
	m.b.WriteByte(']')
	return nil
}

func (m *marshaller) object(v *yamlsrc.Value, cur string) error {
	type entry struct {
		k string
		v *yamlsrc.Value
	}
	entries := make([]entry, 0, v.Map.Len()+1)
	cached, evaluated := m.cache[v]
	hasKey := false
	for i, k := range v.Map.Keys() {
		x := v.Map.Val(i)
		if evaluated && k == cachedResultKey {
			hasKey = true
			x = cached
		}
		if x != nil {
			entries = append(entries, entry{k, x})
		}
	}
	if evaluated && !hasKey && cached != nil {
		entries = append(entries, entry{cachedResultKey, cached})
	}
	if len(entries) == 0 {
		m.b.WriteString("{}")
		return nil
	}
	next := cur + m.indent
	m.b.WriteByte('{')
	for i, e := range entries {
		if i > 0 {
			m.b.WriteByte(',')
		}
		m.newline(next)
		quoteJSON(&m.b, e.k)
		m.b.WriteByte(':')
		if m.indent != "" {
			m.b.WriteByte(' ')
		}
		if err := m.value(e.v, "property '"+e.k+"'", next); err != nil {
			return err
		}
	}
	m.newline(cur)
	m.b.WriteByte('}')
	return nil
}

func (m *marshaller) newline(cur string) {
	if m.indent != "" {
		m.b.WriteByte('\n')
		m.b.WriteString(cur)
	}
}

// circularError builds V8's message for JSON.stringify on a cycle: the cycle
// starts at stack[0] and is closed by key.
func circularError(stack []stackEntry, key string) error {
	ctor := func(v *yamlsrc.Value) string {
		if v.Kind == yamlsrc.KindList {
			return "'Array'"
		}
		return "'Object'"
	}
	var b strings.Builder
	b.WriteString("Converting circular structure to JSON\n    --> starting at object with constructor ")
	b.WriteString(ctor(stack[0].v))
	line := func(e stackEntry) {
		b.WriteString("\n    |     " + e.key + " -> object with constructor " + ctor(e.v))
	}
	const prefix, postfix = 2, 1
	prefixEnd := min(len(stack), 1+prefix)
	for i := 1; i < prefixEnd; i++ {
		line(stack[i])
	}
	if len(stack) > prefixEnd+postfix {
		b.WriteString("\n    |     ...")
	}
	for i := max(prefixEnd, len(stack)-postfix); i < len(stack); i++ {
		line(stack[i])
	}
	b.WriteString("\n    --- " + key + " closes the circle")
	return typeError(b.String())
}

// quoteJSON writes s as JSON.stringify does, escaping lone surrogates.
func quoteJSON(b *strings.Builder, s string) {
	if utf8.ValidString(s) {
		yamlsrc.QuoteJSON(b, s)
		return
	}
	const hex = "0123456789abcdef"
	var plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			q := strings.Builder{}
			yamlsrc.QuoteJSON(&q, plain.String())
			t := q.String()
			b.WriteString(t[1 : len(t)-1])
			plain.Reset()
		}
	}
	b.WriteByte('"')
	for len(s) > 0 {
		r, n := decodeUnit(s)
		if r >= 0xD800 && r <= 0xDFFF {
			flush()
			b.WriteString(`\u`)
			b.WriteByte(hex[r>>12&0xF])
			b.WriteByte(hex[r>>8&0xF])
			b.WriteByte(hex[r>>4&0xF])
			b.WriteByte(hex[r&0xF])
		} else {
			plain.WriteRune(r)
		}
		s = s[n:]
	}
	flush()
	b.WriteByte('"')
}
