package expr

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"v4t/model/js"
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
		return a.Num() == b.Num()
	case yamlsrc.KindString:
		return a.Str() == b.Str()
	}
	return a == b
}

// SameValueZero is the equality of Array.prototype.includes: like
// StrictEqual, except that NaN equals NaN.
func SameValueZero(a, b *yamlsrc.Value) bool {
	if a != nil && b != nil && a.Kind == yamlsrc.KindNumber && b.Kind == yamlsrc.KindNumber &&
		math.IsNaN(a.Num()) && math.IsNaN(b.Num()) {
		return true
	}
	return StrictEqual(a, b)
}

// ToNumber is JavaScript's Number(v): undefined → NaN, null → 0, booleans →
// 0/1, strings → js.StringToNumber, dates → epoch milliseconds, lists → their
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
		return v.Num()
	case yamlsrc.KindString:
		return js.StringToNumber(v.Str())
	case yamlsrc.KindList:
		// The joined string of two or more items contains a comma, which no
		// numeric string does, so only chains of one-item lists need a look.
		var chain []*yamlsrc.Value
		for cur := v; ; {
			if slices.Contains(chain, cur) {
				return 0 // a cycle joins as ""
			}
			chain = append(chain, cur)
			if len(cur.List()) == 0 {
				return 0
			}
			if len(cur.List()) > 1 {
				return math.NaN()
			}
			x := cur.List()[0]
			switch {
			case x.IsNull():
				return 0
			case x.Kind == yamlsrc.KindString:
				return js.StringToNumber(x.Str())
			case x.Kind == yamlsrc.KindNumber:
				return js.StringToNumber(js.FormatNumber(x.Num()))
			case x.Kind == yamlsrc.KindList:
				cur = x
				continue
			}
			return math.NaN() // "true", "false", a date string, "[object Object]"
		}
	}
	return math.NaN()
}

// toPrimitive is ToPrimitive(v, hint number) for document values: lists
// become their joined string, maps "[object Object]", dates their time value.
func toPrimitive(v *yamlsrc.Value, loc *time.Location) (*yamlsrc.Value, error) {
	if v == nil {
		return nil, nil
	}
	switch v.Kind {
	case yamlsrc.KindList:
		s, err := toString(v, loc)
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewString(s), nil
	case yamlsrc.KindMap:
		return yamlsrc.NewString("[object Object]"), nil
	case yamlsrc.KindTime:
		return yamlsrc.NewNumber(v.Num()), nil
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
		return js.CompareUTF16(pa.Str(), pb.Str()), true, nil
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

func errStringLength() error { return rangeError(yamlsrc.ErrStringLength.Error()) }

// toString is String(v) in the evaluator's zone loc (yamlsrc.ToString), with
// the RangeError of an oversized string as a diagnostic.
func toString(v *yamlsrc.Value, loc *time.Location) (string, error) {
	s, err := yamlsrc.ToString(v, loc)
	if err != nil {
		return "", errStringLength()
	}
	return s, nil
}

// join is Array.prototype.join (yamlsrc.Join) with the RangeError of an
// oversized string as a diagnostic.
func join(items []*yamlsrc.Value, sep string, loc *time.Location) (string, error) {
	s, err := yamlsrc.Join(items, sep, loc)
	if err != nil {
		return "", errStringLength()
	}
	return s, nil
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

// RR is regression-js's round(v, 2): Math.round(v * 100) / 100 in double
// arithmetic (variability.md §9.5).
func RR(v float64) float64 {
	return js.Round(v*100) / 100
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
	cache *resultCache
	stack []stackEntry
}

func marshal(v *yamlsrc.Value, indent string, cache *resultCache) (string, error) {
	if v == nil {
		return "undefined", nil
	}
	m := &marshaller{indent: indent, cache: cache}
	if err := m.value(v, "", ""); err != nil {
		return "", err
	}
	if m.b.Len() > js.MaxStringBytes {
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
		if math.IsNaN(v.Num()) || math.IsInf(v.Num(), 0) {
			m.b.WriteString("null")
		} else {
			m.b.WriteString(js.FormatNumber(v.Num()))
		}
	case yamlsrc.KindString:
		js.QuoteJSON(&m.b, v.Str())
	case yamlsrc.KindTime:
		if math.IsNaN(v.Num()) {
			m.b.WriteString("null")
		} else {
			js.QuoteJSON(&m.b, js.FormatTime(v.Num()))
		}
	case yamlsrc.KindList, yamlsrc.KindMap:
		if m.b.Len() > js.MaxStringBytes {
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
	if len(v.List()) == 0 {
		m.b.WriteString("[]")
		return nil
	}
	next := cur + m.indent
	m.b.WriteByte('[')
	for i, x := range v.List() {
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
	entries := make([]entry, 0, v.Map().Len()+1)
	cached, evaluated := m.cache.get(v)
	hasKey := false
	for i, k := range v.Map().Keys() {
		x := v.Map().Val(i)
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
		js.QuoteJSON(&m.b, e.k)
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
