package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// choiceValue is a string flag that takes one of a fixed set of values.
// The values are spelled once, for the help line and for the error on any
// other value; flag parsing reports that error, so a command never runs
// with a value it does not know.
type choiceValue struct {
	p       *string
	choices []string
}

func (c *choiceValue) String() string { return *c.p }

func (c *choiceValue) Type() string { return "string" }

func (c *choiceValue) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return errors.New("expected " + orList(c.choices))
	}
	*c.p = s
	return nil
}

// choiceVar defines a flag whose value is one of choices, def by default.
// usage names the value in backquotes, as pflag wants, and holds one %s
// for the choices ("output `FORMAT`: %s").
func choiceVar(fs *pflag.FlagSet, p *string, name, def, usage string, choices ...string) {
	*p = def
	fs.Var(&choiceValue{p: p, choices: choices}, name, fmt.Sprintf(usage, orList(choices)))
}

// orList writes a list of alternatives as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// invalidValue words pflag's error for a value a flag cannot take as
// v4t's usage errors are worded, `--limit "x": expected a whole number`,
// instead of `invalid argument "x" for "--limit" flag: strconv.ParseInt:
// parsing "x": invalid syntax`.
func invalidValue(err *pflag.InvalidValueError) string {
	f := err.GetFlag()
	want := err.Unwrap().Error()
	var num *strconv.NumError
	switch typ := f.Value.Type(); {
	case typ == "duration":
		want = "expected a duration such as 90s, 5m or 1h30m"
	case errors.As(err, &num) && num.Err == strconv.ErrRange:
		want = "out of range"
	case typ == "bool":
		want = "expected true or false"
	case strings.HasPrefix(typ, "uint"):
		want = "expected a whole number, 0 or more"
	case strings.HasPrefix(typ, "int"):
		want = "expected a whole number"
	case strings.HasPrefix(typ, "float"):
		want = "expected a number"
	}
	return fmt.Sprintf("--%s %q: %s", f.Name, err.GetValue(), want)
}
