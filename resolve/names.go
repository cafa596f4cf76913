package resolve

import (
	"slices"
	"strconv"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §4 (options) and §6 (inputs and presets): the
// reference reads only the variability options it knows and only the
// variability inputs that the template declares, and ignores every other
// name without a word. v4t resolves exactly the same, and warns about each
// such name (Options.Warn) with the known name it may be a typo of, so that
// --input siz=large or --option optimisation_topology=max does not go
// unnoticed:
//
//	--input siz=large: the template declares no variability input "siz" (did you mean "size"?)
//	--option optimisation_topology=max: unknown variability option "optimisation_topology" (did you mean "optimization_topology"?)
//	inputs.yaml:3:1: the template declares no variability input "siz" (did you mean "size"?)
//
// Checked are the option overrides and the template's own options, and the
// inputs of the presets applied, of the inputs file (not of a FeatureIDE
// configuration, which lists every feature of its model), of the
// environment variables read with it and of the single assignments. The
// checks cost nothing without a sink, and nothing measurable with one.

// Codes of the warnings about unknown names.
const (
	CodeUnknownInput  = "unknown-input"
	CodeUnknownOption = "unknown-option"
)

// nameCheck reports the names of options and inputs that the reference
// ignores. A nil *nameCheck, or one without a sink, reports nothing.
type nameCheck struct {
	warn diag.Sink
	doc  *yamlsrc.Value
	// template and inputs locate keys in the template and the inputs
	// file, whose bytes are read again only when a warning needs them.
	template, inputs source
}

// source is a file named on the command line, for key positions.
type source struct {
	file  string
	data  []byte // given by the caller; nil: read file on demand
	lines *yamlsrc.Lines
}

func newNameCheck(in Input, opts Options, doc *yamlsrc.Value) *nameCheck {
	return &nameCheck{
		warn:     opts.Warn,
		doc:      doc,
		template: source{file: in.TemplatePath, data: in.TemplateData},
		inputs:   source{file: in.InputsPath, data: in.InputsData},
	}
}

func (c *nameCheck) off() bool { return c == nil || c.warn == nil }

// options checks the names of the template's variability options and of
// the overrides.
func (c *nameCheck) options(overrides []Assignment) {
	if c.off() {
		return
	}
	if o := c.doc.Get("topology_template").Get("variability").Get("options"); o.IsMap() {
		for i, name := range o.Map().Keys() {
			if !graph.IsOption(name) {
				c.emit(c.template.keyPos(o, i), "", CodeUnknownOption, diag.StageLoad, unknownOption(name))
			}
		}
	}
	for _, a := range overrides {
		if !graph.IsOption(a.Name) {
			c.emit(diag.Pos{}, a.Origin, CodeUnknownOption, diag.StageLoad, unknownOption(a.Name))
		}
	}
}

func unknownOption(name string) string {
	return "unknown variability option " + strconv.Quote(name) + diag.DidYouMean(name, slices.Values(graph.OptionNames()))
}

// declarations returns the template's variability input definitions, and
// whether names can be checked against them: not where they have a shape
// that the reference coerces (a string, a list), which is warned about
// where it is read.
func (c *nameCheck) declarations() (*yamlsrc.Value, bool) {
	defs := c.doc.Get("topology_template").Get("variability").Get("inputs")
	return defs, defs.IsNull() || defs.IsMap()
}

// input checks an assigned input name, written at pos or at origin.
func (c *nameCheck) input(name, origin string, pos diag.Pos) {
	if c.off() {
		return
	}
	if msg := c.undeclared(name); msg != "" {
		c.emit(pos, origin, CodeUnknownInput, diag.StageInputs, msg)
	}
}

// undeclared returns the warning about an input name that the template
// does not declare, or "".
func (c *nameCheck) undeclared(name string) string {
	defs, ok := c.declarations()
	if !ok || defs.Has(name) {
		return ""
	}
	var names []string
	if defs.IsMap() {
		names = defs.Map().Keys()
	}
	return "the template declares no variability input " + strconv.Quote(name) + diag.DidYouMean(name, slices.Values(names))
}

// presetInputs checks the input names of a preset that is applied.
func (c *nameCheck) presetInputs(preset string, inputs *yamlsrc.Value) {
	if c.off() || !inputs.IsMap() {
		return
	}
	for i, name := range inputs.Map().Keys() {
		if msg := c.undeclared(name); msg != "" {
			c.emit(c.template.keyPos(inputs, i), "", CodeUnknownInput, diag.StageInputs, "preset "+strconv.Quote(preset)+": "+msg)
		}
	}
}

// fileInputs checks the input names of the inputs file (a map).
func (c *nameCheck) fileInputs(data *yamlsrc.Value) {
	if c.off() {
		return
	}
	for i, name := range data.Map().Keys() {
		if msg := c.undeclared(name); msg != "" {
			c.emit(c.inputs.keyPos(data, i), "", CodeUnknownInput, diag.StageInputs, msg)
		}
	}
}

func (c *nameCheck) emit(pos diag.Pos, origin, code, stage, msg string) {
	if origin != "" {
		msg = origin + ": " + msg
	}
	d := diag.Warning(pos, stage, msg)
	d.Code = code
	c.warn(d)
}

// keyPos is the position of the i-th key of the map m of the file: that of
// the key where the source tells it, else that of its value.
func (s *source) keyPos(m *yamlsrc.Value, i int) diag.Pos {
	if s.lines == nil {
		data := s.data
		if data == nil {
			// Only a regular file is read again: a named pipe would
			// block, and has given its content already.
			data, _ = yamlsrc.ReadNamedFile(s.file)
		}
		s.lines = yamlsrc.NewLines(data)
	}
	if line, col, ok := s.lines.KeyPos(m, i); ok {
		return diag.Pos{File: s.file, Line: line, Col: col}
	}
	if v := m.Map().Val(i); v != nil && v.Line > 0 {
		return diag.Pos{File: s.file, Line: int(v.Line), Col: int(v.Col)}
	}
	return diag.Pos{File: s.file, Line: int(m.Line), Col: int(m.Col)}
}
