package validate

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Problem reporting. Every problem is a diag.Diagnostic of stage validate
// with a position and a short code ("kind", "unknown-field", "not-found",
// ...) for tools that read --format json.

func (v *validator) add(pos diag.Pos, code, format string, args ...any) {
	v.addMsg(pos, code, fmt.Sprintf(format, args...))
}

// addMsg adds a problem with a message built already. Diagnostics are
// allocated in chunks: a template with thousands of problems would
// otherwise spend much of its time allocating them one by one.
func (v *validator) addMsg(pos diag.Pos, code, msg string) {
	if len(v.slab) == 0 {
		v.slab = make([]diag.Diagnostic, 256)
	}
	d := &v.slab[0]
	v.slab = v.slab[1:]
	*d = diag.Diagnostic{Pos: pos, Stage: diag.StageValidate, Code: code, Message: msg}
	v.problems.Add(d)
}

// addErr adds an error of the YAML reader, which is a positioned
// diagnostic already (yamlsrc locates syntax errors from the text).
func (v *validator) addErr(file string, data []byte, err error) {
	d, ok := diag.As(err)
	if !ok {
		v.add(diag.Pos{File: file}, "read", "%v", err)
		return
	}
	c := *d
	if c.Pos.File == "" {
		c.Pos.File = file
	}
	c.Stage = diag.StageValidate
	c.Code = "yaml"
	v.problems.Add(&c)
}

// defectClass tells follow-on problems from distinct ones. A problem is a
// follow-on of (caused by) one reported before it when both are at the
// same position and of the same class, that is, both say the same thing
// about the one value or key there: its YAML kind or type is wrong
// (class 1), the name there names nothing or not what it must (2), the
// key is not allowed there (3). A value has one kind, a name one
// spelling, a key one place: a second such problem is the defect seen
// again, by another check or a later phase that read the same value, or
// through a YAML alias, whose values all have the position of its anchor
// (a value used twice through an alias is reported for its first use).
// The other codes name a part of the entity at their position (a missing
// field or property, an occurrence bound, an ambiguous name, a contract):
// several of those at one position are different defects and all are
// kept, as are problems of different classes.
var defectClass = sync.OnceValue(func() map[string]uint8 {
	return map[string]uint8{
		"kind": 1, "value-type": 1,
		"not-found": 2, "parent": 2,
		"unknown-field": 3, "undefined": 3,
	}
})

// classAt returns the defect class of problem d, or 0 where its position
// names no value or key: without a line and column (values a resolver
// made have none), problems are never taken for one another.
func classAt(d *diag.Diagnostic) uint8 {
	if d.Pos.Line == 0 || d.Pos.Col == 0 {
		return 0
	}
	return defectClass()[d.Code]
}

// sortProblems returns the problems ordered by file, line, column and
// message, without duplicates, and without follow-ons: a problem of the
// same defect class as one reported before it at the same position is
// the same defect again (defectClass), and only the one reported first
// is kept, which is that of the earliest phase (doc.go). Sorting by
// position alone first keeps the report order within each position.
func sortProblems(l diag.List) diag.List {
	byPos := append(diag.List(nil), l...)
	sort.SliceStable(byPos, func(i, j int) bool {
		a, b := byPos[i].Pos, byPos[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := make(diag.List, 0, len(byPos))
	for i := 0; i < len(byPos); {
		j := i + 1
		for j < len(byPos) && byPos[j].Pos == byPos[i].Pos {
			j++
		}
		if j == i+1 {
			out = append(out, byPos[i])
			i = j
			continue
		}
		start := len(out)
		var seen uint16 // the defect classes reported at this position
		for _, d := range byPos[i:j] {
			if c := classAt(d); c != 0 {
				if seen&(1<<c) != 0 {
					continue
				}
				seen |= 1 << c
			}
			out = append(out, d)
		}
		g := out[start:]
		sort.SliceStable(g, func(a, b int) bool { return g[a].Message < g[b].Message })
		n := 1
		for k := 1; k < len(g); k++ {
			if g[k].Message != g[n-1].Message {
				g[n] = g[k]
				n++
			}
		}
		out = out[:start+n]
		i = j
	}
	return out
}

// msg builds a message in the validator's scratch buffer, for the problems
// a large template may have by the thousand (names not found): one
// allocation per message instead of fmt's several.
type msg struct{ b []byte }

func (v *validator) msg() *msg {
	v.scratch.b = v.scratch.b[:0]
	return &v.scratch
}

// s appends plain text.
func (m *msg) s(parts ...string) *msg {
	for _, p := range parts {
		m.b = append(m.b, p...)
	}
	return m
}

// q appends a quoted string, as %q does.
func (m *msg) q(s string) *msg {
	m.b = appendQuote(m.b, s)
	return m
}

// appendQuote is strconv.AppendQuote with a fast path for the printable
// ASCII names templates are made of, which need no escapes.
func appendQuote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// subj appends the rendering of a subject.
func (m *msg) subj(s subject) *msg {
	m.b = s.append(m.b)
	return m
}

func (m *msg) String() string { return string(m.b) }

// subject names the entity a message is about, such as
// `requirement "host" of node template "app"`. Checks pass it down instead
// of a string, and it is rendered only when a message needs it, so that
// checking a clean template builds no names. It deliberately has no String
// method: pass subj.text() to fmt, so that vet catches a subject passed as
// it is (which would also make every parent escape to the heap).
type subject struct {
	noun  string // "node template", "entry_schema", ...
	name  string
	named bool // name is quoted after the noun (it may be empty)
	of    *subject
}

// sub returns the subject `noun "name" of parent`; of may be nil.
func sub(noun, name string, of *subject) subject {
	return subject{noun: noun, name: name, named: true, of: of}
}

// bare returns the subject `noun of parent` (the noun alone when of is nil).
func bare(noun string, of *subject) subject {
	return subject{noun: noun, of: of}
}

func (s subject) append(b []byte) []byte {
	for p := &s; p != nil; p = p.of {
		if p != &s {
			b = append(b, " of "...)
		}
		b = append(b, p.noun...)
		if p.named {
			b = append(b, ' ')
			b = appendQuote(b, p.name)
		}
	}
	return b
}

func (s subject) text() string { return string(s.append(nil)) }

// at returns the position of a value of the unit.
func (u *unit) at(x *yamlsrc.Value) diag.Pos {
	if x == nil || x.Line == 0 {
		return diag.Pos{File: u.file}
	}
	return diag.Pos{File: u.file, Line: int(x.Line), Col: int(x.Col)}
}

// place is a position found only when a problem needs it: the i-th key
// of map m of unit u (keyAt, which needs the unit's line index), the
// position of value m itself (i == placeValue), or the start of the unit's
// file (i == placeStart). Names of entities are keys, and most entities
// never have a problem, so their positions stay unresolved
// (style.md §3.2: positions are free until something is reported).
type place struct {
	u *unit
	m *yamlsrc.Value
	i int
}

const (
	placeValue = -1
	placeStart = -2
)

func keyPlace(u *unit, m *yamlsrc.Value, i int) place { return place{u, m, i} }

func valuePlace(u *unit, x *yamlsrc.Value) place { return place{u, x, placeValue} }

func startPlace(u *unit) place { return place{u: u, i: placeStart} }

// pos resolves the place.
func (p place) pos() diag.Pos {
	switch {
	case p.u == nil:
		return diag.Pos{}
	case p.i == placeStart:
		return diag.Pos{File: p.u.file, Line: 1, Col: 1}
	case p.i == placeValue || p.m == nil:
		return p.u.at(p.m)
	}
	return p.u.keyAt(p.m, p.i)
}

// keyAt returns the position of the i-th key of map m, found in the source
// (yamlsrc.Lines.KeyPos); where the source cannot tell, the value's
// position is the best answer.
func (u *unit) keyAt(m *yamlsrc.Value, i int) diag.Pos {
	val := m.Map().Val(i)
	if val == nil || val.Line == 0 {
		return u.at(m)
	}
	if u.lines == nil {
		u.lines = yamlsrc.NewLines(u.data)
	}
	if line, col, ok := u.lines.KeyPos(m, i); ok {
		return diag.Pos{File: u.file, Line: line, Col: col}
	}
	return u.at(val)
}

// allOf yields the names of lists in order: candidates for suggest.
func allOf(lists ...[]string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for _, list := range lists {
			for _, n := range list {
				if !yield(n) {
					return
				}
			}
		}
	}
}

// maxSuggestions bounds the "did you mean" searches of one run: each is
// linear in the candidates, so a template with thousands of unknown names
// would otherwise be quadratic.
const maxSuggestions = 64

// suggest returns ` (did you mean "x"?)` for the candidate closest to name,
// or "" (diag.DidYouMean).
func (v *validator) suggest(name string, candidates func(yield func(string) bool)) string {
	if v.nSuggest >= maxSuggestions || name == "" {
		return ""
	}
	v.nSuggest++
	return diag.DidYouMean(name, candidates)
}
