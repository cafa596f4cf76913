// Package diag owns the project's one diagnostics type: a message with the
// document position and pipeline stage it belongs to.
//
// Positions are 1-based; zero means unknown. Columns count what yaml.v3
// counts: runes (Unicode code points) from the start of the line, so a tab is
// one column.
//
// Messages that the reference implementation raises are kept verbatim in
// Message; the text rendering escapes newlines so that every diagnostic stays
// on one line (style.md §3.4). Where the reference fails with a JavaScript
// error ("Cannot read properties of null (reading 'value')", "… is not a
// function", …), Message says in v4t's words what is wrong and Reference
// keeps the reference's message, so that conformance checks still compare
// it (README, "Malformed input").
//
// A diagnostic is an error unless its Severity says it is a warning:
// input that the reference accepts by coercing it, which v4t accepts in the
// same way and reports.
package diag

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Pos is a position in a source document.
type Pos struct {
	File string
	Line int
	Col  int
}

// Known reports whether any part of the position is known.
func (p Pos) Known() bool { return p.File != "" || p.Line > 0 }

// String renders file:line:col, leaving out the parts that are unknown.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Col))
		}
	}
	return b.String()
}

// Stage names of the variability pipeline (variability.md §1).
const (
	StageLoad      = "load"
	StageEnrich    = "enrich"
	StageInputs    = "inputs"
	StageValidate  = "validate"
	StageSolve     = "solve"
	StageCheck     = "check"
	StageTransform = "transform"
	StageWrite     = "write"
)

// Related is a secondary position that helps to explain a diagnostic.
type Related struct {
	Pos     Pos
	Message string
}

// Severity tells errors from warnings.
type Severity uint8

// The severities; the zero value is an error.
const (
	SeverityError Severity = iota
	SeverityWarning
)

// Diagnostic is one reported problem.
type Diagnostic struct {
	Pos     Pos
	Path    string
	Stage   string
	Code    string
	Message string
	// Reference is the reference implementation's verbatim message where
	// it differs from Message (a JavaScript error that v4t words itself);
	// empty when Message is the reference's message.
	Reference string
	Severity  Severity
	Related   []Related
}

// Sink receives warnings as they are found.
type Sink func(*Diagnostic)

// Error makes a Diagnostic usable as an error; it returns the verbatim message.
func (d *Diagnostic) Error() string { return d.Message }

// ReferenceMessage is the message the reference implementation reports for
// the problem: Reference when set, else Message. Conformance checks compare
// it.
func (d *Diagnostic) ReferenceMessage() string {
	if d.Reference != "" {
		return d.Reference
	}
	return d.Message
}

// Text is the message as v4t prints it: Message, followed by
// " (the reference fails with: REFERENCE)" when Reference is set.
func (d *Diagnostic) Text() string {
	if d.Reference == "" {
		return d.Message
	}
	return d.Message + " (the reference fails with: " + d.Reference + ")"
}

// Line renders the diagnostic on one line: "file:line:col: text", with
// newlines in the text escaped.
func (d *Diagnostic) Line() string {
	msg := strings.ReplaceAll(d.Text(), "\n", `\n`)
	if d.Pos.Known() {
		return d.Pos.String() + ": " + msg
	}
	return msg
}

// New returns a diagnostic error with a message and no position.
func New(stage, msg string) *Diagnostic {
	return &Diagnostic{Stage: stage, Message: msg}
}

// At returns a diagnostic error at a position.
func At(pos Pos, stage, msg string) *Diagnostic {
	return &Diagnostic{Pos: pos, Stage: stage, Message: msg}
}

// AtRef returns a diagnostic error at a position with v4t's message and the
// reference's differing message (see Diagnostic.Reference).
func AtRef(pos Pos, stage, msg, reference string) *Diagnostic {
	return &Diagnostic{Pos: pos, Stage: stage, Message: msg, Reference: reference}
}

// Warning returns a warning at a position.
func Warning(pos Pos, stage, msg string) *Diagnostic {
	return &Diagnostic{Pos: pos, Stage: stage, Message: msg, Severity: SeverityWarning}
}

// Errorf returns a diagnostic error with a formatted message.
func Errorf(pos Pos, stage, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Stage: stage, Message: fmt.Sprintf(format, args...)}
}

// As extracts the diagnostic from an error chain.
func As(err error) (*Diagnostic, bool) {
	var d *Diagnostic
	if errors.As(err, &d) {
		return d, true
	}
	return nil, false
}

// List is an ordered list of diagnostics. Insertion order is kept so that
// First returns the problem the reference would have thrown first.
type List []*Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d *Diagnostic) { *l = append(*l, d) }

// Err returns nil for an empty list, else the list as an error.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// First returns the primary diagnostic, or nil.
func (l List) First() *Diagnostic {
	if len(l) == 0 {
		return nil
	}
	return l[0]
}

// Error returns the first message and how many more there are.
func (l List) Error() string {
	if len(l) == 0 {
		return "no diagnostics"
	}
	if len(l) == 1 {
		return l[0].Message
	}
	return fmt.Sprintf("%s (and %d more)", l[0].Message, len(l)-1)
}

// Unwrap returns the diagnostics as errors, so that errors.As and As find
// the first diagnostic of a List returned as an error.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, d := range l {
		errs[i] = d
	}
	return errs
}

// ListOf returns the diagnostics of an error: the List it is or wraps, else
// the Diagnostic in its chain, else the error's message as a diagnostic
// without a position. A nil error has none.
func ListOf(err error) List {
	if err == nil {
		return nil
	}
	var l List
	if errors.As(err, &l) {
		return l
	}
	if d, ok := As(err); ok {
		return List{d}
	}
	return List{&Diagnostic{Message: err.Error()}}
}

// Sorted returns a copy ordered by file, line, column and message, without
// adjacent duplicates.
func (l List) Sorted() List {
	out := append(List(nil), l...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Message < b.Message
	})
	dedup := out[:0]
	for i, d := range out {
		if i > 0 && d.Pos == out[i-1].Pos && d.Message == out[i-1].Message {
			continue
		}
		dedup = append(dedup, d)
	}
	return dedup
}
