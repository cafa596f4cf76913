package logic

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"v4t/model/js"
)

// Error is the error type of this package. Its message is the one
// logic-solver throws in the same situation.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func throw(format string, args ...any) {
	panic(&Error{Msg: fmt.Sprintf(format, args...)})
}

// catch converts a panic raised by throw into an error.
func catch(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*Error); ok {
			*err = e
			return
		}
		panic(r)
	}
}

// Names of the two constant variables, numbered 1 and 2 in every solver.
const (
	NameFalse = "$F"
	NameTrue  = "$T"
	NumFalse  = 1
	NumTrue   = 2
)

// True and False are the constant terms (Logic.TRUE and Logic.FALSE).
const (
	True  = NameTrue
	False = NameFalse
)

// IsNumTerm reports whether x is a NumTerm: a non-zero 32-bit integer.
func IsNumTerm(x any) bool {
	n, ok := x.(int)
	return ok && n != 0 && n >= math.MinInt32 && n <= math.MaxInt32
}

// IsNameTerm reports whether x is a NameTerm: a string that is not empty,
// not only '-' characters and does not look like a number.
func IsNameTerm(x any) bool {
	s, ok := x.(string)
	return ok && !numLike(s)
}

// numLike matches /^-*[0-9]*$/.
func numLike(s string) bool {
	i := 0
	for i < len(s) && s[i] == '-' {
		i++
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsTerm reports whether x is a NumTerm or a NameTerm.
func IsTerm(x any) bool { return IsNumTerm(x) || IsNameTerm(x) }

// IsFormula reports whether x is a Formula object.
func IsFormula(x any) bool {
	_, ok := x.(Formula)
	return ok
}

func isFormulaOrTerm(x any) bool { return IsFormula(x) || IsTerm(x) }

func isWholeNumber(x int) bool { return x >= 0 && x <= math.MaxInt32 }

// jsString renders a value the way JavaScript's string concatenation does,
// for error messages.
func jsString(x any) string {
	switch v := x.(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case nil:
		return "null"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	case []int:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = strconv.Itoa(e)
		}
		return strings.Join(parts, ",")
	case Formula, *Bits:
		return "[object Object]"
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return js.FormatNumber(v)
	}
	return fmt.Sprint(x)
}

// display is the displayValue of Logic._assert: JSON.stringify of a
// string, String(x) of anything else.
func display(x any) string {
	if s, ok := x.(string); ok {
		return js.Quote(s)
	}
	return jsString(x)
}

func assertFormulaOrTerm(x any) {
	if !isFormulaOrTerm(x) {
		throw("%s is not a Formula or Term", display(x))
	}
}

func assertArrayOfFormulaOrTerm(xs []any) {
	for _, x := range xs {
		if !isFormulaOrTerm(x) {
			throw("%s is not an array of a Formula or Term", display(xs))
		}
	}
}

func assertTerm(x any) {
	if !IsTerm(x) {
		throw("%s is not a Term (appropriate string or number)", display(x))
	}
}

func assertWholeNumber(x int) {
	if !isWholeNumber(x) {
		throw("%d is not a whole number (integer >= 0)", x)
	}
}

// flatten mirrors underscore's _.flatten on the argument list: slices are
// expanded recursively, everything else is kept.
func flatten(args []any) []any {
	deep := false
	for _, a := range args {
		switch a.(type) {
		case []any, []string, []int, []Formula:
			deep = true
		}
	}
	if !deep {
		out := make([]any, len(args))
		copy(out, args)
		return out
	}
	var out []any
	var walk func(xs []any)
	walk = func(xs []any) {
		for _, a := range xs {
			switch v := a.(type) {
			case []any:
				walk(v)
			case []string:
				for _, e := range v {
					out = append(out, e)
				}
			case []int:
				for _, e := range v {
					out = append(out, e)
				}
			case []Formula:
				for _, e := range v {
					out = append(out, e)
				}
			default:
				out = append(out, a)
			}
		}
	}
	walk(args)
	return out
}
