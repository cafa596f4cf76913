package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/js"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// openInputsHelp documents --open-inputs and the domain rule (the rule of
// resolve's domain function) for the help texts of the commands that take
// it (enumerate, analyze, sample).
var openInputsHelp = `--open-inputs makes the variability inputs that --inputs, --preset and
--input leave unassigned free: the variants then also carry the values of
these inputs, and they are counted over (inputs, elements).
--open-inputs=NAME,... opens only the inputs named. The values an open
input ranges over are: true and false for type: boolean; else the list of
a valid_values constraint in its definition; else the values its default
and the presets give it (null values left out, duplicates once). An open
input with none of these is an error. An expression that reads open
inputs is evaluated once per combination of the values it reads (at most
` + strconv.Itoa(resolve.MaxCombinations) + ` combinations per expression); combinations where it fails are left
out, with a warning.`

// openInputsFlag is --open-inputs[=NAME,...]: without a value it opens
// every unassigned input, with one only the inputs listed.
type openInputsFlag struct {
	set   bool
	all   bool
	names []string
}

// openAll is the flag's value without "=NAMES" (pflag's NoOptDefVal).
const openAll = "*"

// registerSpaceFlags adds the flags of the commands that compile the
// configuration space of a template (analyze, sample): the template flags
// without --dump, --problems and --open-inputs.
func registerSpaceFlags(fs *pflag.FlagSet, cmd string) (*templateFlags, *openInputsFlag) {
	t := &templateFlags{cmd: cmd, noDump: true}
	t.register(fs)
	t.registerProblems(fs)
	return t, registerOpenInputs(fs)
}

// registerOpenInputs adds --open-inputs to a command's flags.
func registerOpenInputs(fs *pflag.FlagSet) *openInputsFlag {
	o := &openInputsFlag{}
	fs.Var(o, "open-inputs", "make unassigned variability inputs free over their domains: all of them (no value, or *), or only the comma-separated names given")
	fs.Lookup("open-inputs").NoOptDefVal = openAll
	return o
}

func (o *openInputsFlag) String() string {
	if o.all {
		return openAll
	}
	return strings.Join(o.names, ",")
}

// Type is empty so that the help shows --open-inputs[=*] without a type.
func (o *openInputsFlag) Type() string { return "" }

func (o *openInputsFlag) Set(s string) error {
	o.set = true
	if s == openAll {
		o.all = true
		return nil
	}
	n := 0
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			o.names = append(o.names, part)
			n++
		}
	}
	if n == 0 {
		return errors.New("expected input names, or no value to open every unassigned input")
	}
	return nil
}

// options returns the space options the flag asks for.
func (o *openInputsFlag) options() resolve.SpaceOptions {
	if !o.set {
		return resolve.SpaceOptions{}
	}
	so := resolve.SpaceOptions{OpenInputs: true}
	if !o.all {
		so.Open = o.names
	}
	return so
}

// inputsText renders a variant's input values for text output:
// "mode=large backup=true" (values in short YAML flow style).
func inputsText(as []resolve.Assignment) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.Name + "=" + resolve.Flow(a.Value)
	}
	return strings.Join(parts, " ")
}

// inputsJSON renders a variant's input values as a JSON object, in
// declaration order.
func inputsJSON(as []resolve.Assignment) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			b.WriteByte(',')
		}
		js.QuoteJSON(&b, a.Name)
		b.WriteByte(':')
		b.WriteString(yamlsrc.JSON(a.Value))
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// inputsYAML renders a variant's input values as a map, in declaration
// order.
func inputsYAML(as []resolve.Assignment) *yamlsrc.Value {
	m := yamlsrc.NewMap()
	for _, a := range as {
		m.Map().Set(a.Name, yamlsrc.Clone(a.Value))
	}
	return m
}

// writeVariant writes a variant as one line: "LABEL N:", the ids of its
// present elements, and its open inputs' values after " | " where it has
// any.
func writeVariant(w io.Writer, label string, n int, present []string, inputs []resolve.Assignment) {
	fmt.Fprintf(w, "%s %d:", label, n)
	for _, id := range present {
		fmt.Fprintf(w, " %s", id)
	}
	if len(inputs) > 0 {
		fmt.Fprintf(w, " | %s", inputsText(inputs))
	}
	fmt.Fprintln(w)
}

// variantJSON is a variant in the JSON output of enumerate and sample.
type variantJSON struct {
	Present []string        `json:"present"`
	Inputs  json.RawMessage `json:"inputs,omitempty"` // never empty where given (inputsJSON)
}

// newVariantJSON returns a variant for JSON: its present element ids ([]
// when none), and with withInputs its open inputs' values.
func newVariantJSON(present []string, inputs []resolve.Assignment, withInputs bool) variantJSON {
	v := variantJSON{Present: present}
	if v.Present == nil {
		v.Present = []string{}
	}
	if withInputs {
		v.Inputs = inputsJSON(inputs)
	}
	return v
}
