package yamlsrc

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// FormatNumber renders a double exactly like JavaScript's
// Number.prototype.toString (ECMAScript Number::toString with radix 10).
func FormatNumber(f float64) string {
	var d [32]byte
	return string(appendNumber(d[:0], f))
}

// appendNumber appends FormatNumber(f) to b.
func appendNumber(b []byte, f float64) []byte {
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

// JSON renders v like JavaScript's JSON.stringify(v) (compact).
func JSON(v *Value) string {
	var b strings.Builder
	writeJSON(&b, v, "", "")
	return b.String()
}

// Pretty renders v like JSON.stringify(v, null, 4).
func Pretty(v *Value) string {
	var b strings.Builder
	writeJSON(&b, v, "    ", "")
	return b.String()
}

func writeJSON(b *strings.Builder, v *Value, indent, cur string) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch v.Kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindNumber:
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			b.WriteString("null")
		} else {
			b.WriteString(FormatNumber(v.Num))
		}
	case KindString:
		QuoteJSON(b, v.Str)
	case KindTime:
		if math.IsNaN(v.Num) {
			b.WriteString("null")
		} else {
			QuoteJSON(b, FormatTime(v.Num))
		}
	case KindList:
		if len(v.List) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		next := cur + indent
		for i, x := range v.List {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(next)
			}
			writeJSON(b, x, indent, next)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(cur)
		}
		b.WriteByte(']')
	case KindMap:
		if v.Map.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		next := cur + indent
		v.Map.compact()
		for i, k := range v.Map.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(next)
			}
			QuoteJSON(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			writeJSON(b, v.Map.vals[i], indent, next)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(cur)
		}
		b.WriteByte('}')
	}
}

// QuoteJSON writes s as a JSON string literal the way JSON.stringify does.
func QuoteJSON(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// DeepEqual compares two documents with chai's deep equality as the
// reference's test runner uses it: map key order is ignored, list order is
// not, numbers compare as doubles (NaN equals NaN, but -0 differs from 0),
// dates compare as instants, and types must match.
func DeepEqual(a, b *Value) bool {
	if a == nil || b == nil {
		return a.IsNull() && b.IsNull() && (a == nil) == (b == nil)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindNull:
		return true
	case KindBool:
		return a.Bool == b.Bool
	case KindNumber, KindTime:
		if math.IsNaN(a.Num) && math.IsNaN(b.Num) {
			return true
		}
		if a.Num == 0 && b.Num == 0 {
			return math.Signbit(a.Num) == math.Signbit(b.Num)
		}
		return a.Num == b.Num
	case KindString:
		return a.Str == b.Str
	case KindList:
		if len(a.List) != len(b.List) {
			return false
		}
		for i := range a.List {
			if !DeepEqual(a.List[i], b.List[i]) {
				return false
			}
		}
		return true
	case KindMap:
		if a.Map.Len() != b.Map.Len() {
			return false
		}
		a.Map.compact()
		for i, k := range a.Map.keys {
			bv, ok := b.Map.Lookup(k)
			if !ok || !DeepEqual(a.Map.vals[i], bv) {
				return false
			}
		}
		return true
	}
	return false
}
