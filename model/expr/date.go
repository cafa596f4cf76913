package expr

import (
	"math"
	"regexp"
	"strconv"
	"sync"

	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Date operands (variability.md §9.6): the operands of the date operators are
// converted to instants the way dayjs 1.11 does, with V8's Date parser for
// everything dayjs hands to new Date().
//
// Quirk: date operands are not evaluated (variability.md §17), and a missing
// operand means now.

// dayjsRegexParse is dayjs's REGEX_PARSE with JavaScript's \s, compiled on
// first use.
var dayjsRegexParse = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt` + js.SpaceClass + `]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$`)
})

// instant converts a date operand like dayjs(v) and reports whether the
// result is a valid date. A map carrying $isDayjsObject is taken for a dayjs
// object by dayjs and fails cloning.
func (e *Evaluator) instant(v *yamlsrc.Value) (float64, bool, error) {
	if v == nil {
		return e.now, true, nil
	}
	var t float64
	switch v.Kind {
	case yamlsrc.KindNull:
		t = math.NaN()
	case yamlsrc.KindTime, yamlsrc.KindNumber:
		t = js.TimeClip(v.Num())
	case yamlsrc.KindBool:
		t = 0
		if v.Bool {
			t = 1
		}
	case yamlsrc.KindString:
		t = e.dayjsString(v.Str())
	case yamlsrc.KindList:
		str, err := toString(v, e.loc)
		if err != nil {
			return 0, false, err
		}
		t = js.ParseDate(str, e.loc)
	case yamlsrc.KindMap:
		if v.Get("$isDayjsObject").Truthy() {
			return 0, false, typeError("t.clone is not a function")
		}
		t = math.NaN() // "[object Object]"
	}
	return t, !math.IsNaN(t), nil
}

// dayjsString is dayjs's parseDate for strings: unless the string ends in Z,
// the REGEX_PARSE shape is read as local time; anything else goes to new
// Date(string).
func (e *Evaluator) dayjsString(s string) float64 {
	if n := len(s); n == 0 || (s[n-1] != 'Z' && s[n-1] != 'z') {
		if d := dayjsRegexParse().FindStringSubmatch(s); d != nil {
			num := func(x string) float64 {
				f, _ := strconv.ParseFloat(x, 64)
				return f
			}
			m := 0.0 // d[2] - 1 || 0
			if d[2] != "" {
				m = num(d[2]) - 1
			}
			day := 1.0 // d[3] || 1
			if d[3] != "" {
				day = num(d[3])
			}
			ms := d[7] // (d[7] || '0').substring(0, 3)
			if len(ms) > 3 {
				ms = ms[:3]
			}
			return js.LocalDate(num(d[1]), m, day, num(d[4]), num(d[5]), num(d[6]), num(ms), e.loc)
		}
	}
	return js.ParseDate(s, e.loc)
}

// dateOp builds the two-operand date comparisons.
func dateOp(holds func(a, b float64) bool) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		if err := e.array(x, arg); err != nil {
			return nil, err
		}
		a, b, err := e.datePair(x, arg)
		if err != nil {
			return nil, err
		}
		return boolValue(holds(a, b)), nil
	}
}

// date is dayjs(v) followed by assert.isDate.
func (e *Evaluator) date(x, v *yamlsrc.Value) (float64, error) {
	t, ok, err := e.instant(v)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, e.fail(x, `Element "Invalid Date" is not a date`)
	}
	return t, nil
}

// datePair reads the first two items of list as dates, in order.
func (e *Evaluator) datePair(x, list *yamlsrc.Value) (a, b float64, err error) {
	if a, err = e.date(x, index(list, 0)); err != nil {
		return 0, 0, err
	}
	b, err = e.date(x, index(list, 1))
	return a, b, err
}

// opWithin is dayjs's isBetween with exclusive bounds, in either order.
func (e *Evaluator) opWithin(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	if err := e.array(x, arg); err != nil {
		return nil, err
	}
	bounds := index(arg, 1)
	if err := e.array(x, bounds); err != nil {
		return nil, err
	}
	t, err := e.date(x, index(arg, 0))
	if err != nil {
		return nil, err
	}
	lo, hi, err := e.datePair(x, bounds)
	if err != nil {
		return nil, err
	}
	return boolValue(t > lo && t < hi || t < lo && t > hi), nil
}
