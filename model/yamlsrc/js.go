package yamlsrc

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"v4t/model/js"
)

// String is JavaScript's String(v) for a document value, with dates in UTC:
// undefined (nil) and null give "undefined" and "null", numbers use
// Number.prototype.toString, lists are joined with "," (null items empty, a
// list inside its own join empty), maps give "[object Object]" and dates the
// Date.prototype.toString form. It is how js-yaml turns a mapping key into a
// property name, and how the reference puts a value into a message or a
// path. (The reference prints dates in its local zone; documents are read
// in UTC.)
func String(v *Value) string {
	s, _ := convert(v, time.UTC, 0)
	return s
}

// ErrStringLength is the RangeError of a conversion whose result would be
// longer than js.MaxStringBytes.
var ErrStringLength = errors.New("Invalid string length")

// ToString is String(v) as the evaluator's runtime sees it: dates use the
// local zone loc (nil means time.Local), and a result longer than
// js.MaxStringBytes fails with ErrStringLength.
func ToString(v *Value, loc *time.Location) (string, error) {
	return convert(v, loc, js.MaxStringBytes)
}

// Join is Array.prototype.join(sep) on items: undefined and null items become
// empty strings, every other item its ToString. loc and the error are as for
// ToString.
func Join(items []*Value, sep string, loc *time.Location) (string, error) {
	c := stringer{loc: loc, limit: js.MaxStringBytes}
	if err := c.join(items, sep); err != nil {
		return "", err
	}
	return js.Normalize(c.b.String()), nil
}

func convert(v *Value, loc *time.Location, limit int) (string, error) {
	if v != nil && v.Kind == KindString {
		// A string is its own String: no copy (names are converted once
		// per reference, a copy each was the build's most frequent
		// allocation).
		if limit > 0 && len(v.Str()) > limit {
			return "", ErrStringLength
		}
		return js.Normalize(v.Str()), nil
	}
	c := stringer{loc: loc, limit: limit}
	if err := c.write(v); err != nil {
		return "", err
	}
	return js.Normalize(c.b.String()), nil
}

// stringer builds String(v); limit 0 means unbounded.
type stringer struct {
	b       strings.Builder
	loc     *time.Location
	limit   int
	joining []*Value // lists being joined, for V8's cycle rule
}

func (c *stringer) write(v *Value) error {
	if v == nil {
		c.b.WriteString("undefined")
		return nil
	}
	switch v.Kind {
	case KindNull:
		c.b.WriteString("null")
	case KindBool:
		c.b.WriteString(strconv.FormatBool(v.Bool))
	case KindNumber:
		c.b.WriteString(js.FormatNumber(v.Num()))
	case KindString:
		c.b.WriteString(v.Str())
	case KindTime:
		c.b.WriteString(js.DateString(v.Num(), c.loc))
	case KindList:
		// V8 joins a list that is already being joined (a cycle) as "".
		if slices.Contains(c.joining, v) {
			return nil
		}
		c.joining = append(c.joining, v)
		err := c.join(v.List(), ",")
		c.joining = c.joining[:len(c.joining)-1]
		return err
	default:
		c.b.WriteString("[object Object]")
	}
	return c.check()
}

func (c *stringer) join(items []*Value, sep string) error {
	for i, x := range items {
		if i > 0 {
			c.b.WriteString(sep)
			if err := c.check(); err != nil {
				return err
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

func (c *stringer) check() error {
	if c.limit > 0 && c.b.Len() > c.limit {
		return ErrStringLength
	}
	return nil
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
		if math.IsNaN(v.Num()) || math.IsInf(v.Num(), 0) {
			b.WriteString("null")
		} else {
			b.WriteString(js.FormatNumber(v.Num()))
		}
	case KindString:
		js.QuoteJSON(b, v.Str())
	case KindTime:
		if math.IsNaN(v.Num()) {
			b.WriteString("null")
		} else {
			js.QuoteJSON(b, js.FormatTime(v.Num()))
		}
	case KindList:
		if len(v.List()) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		next := cur + indent
		for i, x := range v.List() {
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
		if v.Map().Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		next := cur + indent
		v.Map().compact()
		vals := v.Map().vals()
		for i, k := range v.Map().keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(next)
			}
			js.QuoteJSON(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			writeJSON(b, vals[i], indent, next)
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(cur)
		}
		b.WriteByte('}')
	}
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
		if math.IsNaN(a.Num()) && math.IsNaN(b.Num()) {
			return true
		}
		if a.Num() == 0 && b.Num() == 0 {
			return math.Signbit(a.Num()) == math.Signbit(b.Num())
		}
		return a.Num() == b.Num()
	case KindString:
		return a.Str() == b.Str()
	case KindList:
		return slices.EqualFunc(a.List(), b.List(), DeepEqual)
	case KindMap:
		if a.Map().Len() != b.Map().Len() {
			return false
		}
		a.Map().compact()
		vals := a.Map().vals()
		for i, k := range a.Map().keys() {
			bv, ok := b.Map().Lookup(k)
			if !ok || !DeepEqual(vals[i], bv) {
				return false
			}
		}
		return true
	}
	return false
}
