// Package batch owns configuration spaces: a space file names templates,
// preset sets, input sets and option sets, and every combination of one of
// each is a run. It expands spaces into runs in a canonical order, resolves
// the runs (all of them, or one shard) in parallel, writes summaries with
// one row per run and merges the summaries of shards (v4t batch), and
// compares one template under several pruning and optimisation modes (v4t
// compare).
//
// The resolver's solves are serialised by the solver package (gophersat
// shares global state), so parallel runs overlap in loading, enrichment,
// encoding, transformation and writing only.
package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// MaxRuns bounds the runs of one space, so that a typo in a cross product
// fails at once instead of filling the disk.
const MaxRuns = 100000

// Space is an expanded configuration space.
type Space struct {
	// File is the space file; paths in it are relative to its directory.
	File string
	Runs []*Run
	// Total is the number of runs of the whole space, and Digest
	// fingerprints them (see digest); both stay the same in a shard.
	Total  int
	Digest string
	// Shard is the part of the space that Runs holds (Select); zero for
	// the whole space.
	Shard Shard
}

// Run is one combination of a template, a preset set, an input set and an
// option set.
type Run struct {
	// ID names the run and begins the name of its result file (FileName):
	// run-001, run-002, ... in the canonical order (templates, then preset
	// sets, then input sets, then option sets, each in file order, cross
	// products with the first key outermost).
	ID string
	// Template, InputsFile are the paths as written in the space file.
	Template   string
	InputsFile string
	Presets    []string
	Inputs     []resolve.Assignment
	Options    []resolve.Assignment
	// Input is what the resolver reads, with paths relative to the working
	// directory.
	Input resolve.Input
}

// InputsText renders the run's inputs: the inputs file, then NAME=VALUE,
// separated by spaces.
func (r *Run) InputsText() string {
	var parts []string
	if r.InputsFile != "" {
		parts = append(parts, r.InputsFile)
	}
	return strings.Join(append(parts, assignmentsText(r.Inputs)...), " ")
}

// OptionsText renders the run's option overrides as NAME=VALUE separated by
// spaces.
func (r *Run) OptionsText() string { return strings.Join(assignmentsText(r.Options), " ") }

// PresetsText renders the preset set, comma-separated.
func (r *Run) PresetsText() string { return strings.Join(r.Presets, ",") }

func assignmentsText(as []resolve.Assignment) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name + "=" + resolve.Flow(a.Value)
	}
	return out
}

// inputSet is one input set after expansion.
type inputSet struct {
	file   string
	values []resolve.Assignment
}

// LoadSpace reads and expands a space file.
func LoadSpace(path string) (*Space, error) {
	doc, err := yamlsrc.LoadFile(path)
	if err != nil {
		return nil, err
	}
	// The source again, for the positions of keys (a space is small).
	data, _ := yamlsrc.ReadNamedFile(path)
	return expand(doc, data, path, true)
}

// LoadSpaceData expands a space document read from data, such as standard
// input; file names it in positions, and its directory is the base of
// relative paths. Like LoadSpace, it checks that the files the space names
// exist.
func LoadSpaceData(data []byte, file string) (*Space, error) {
	doc, err := yamlsrc.Parse(data, file)
	if err != nil {
		return nil, err
	}
	return expand(doc, data, file, true)
}

// ParseSpace expands a space document read from data; file names it in
// positions and is the base of relative paths. Unlike LoadSpace, it does
// not check that the files the space names exist.
func ParseSpace(data []byte, file string) (*Space, error) {
	doc, err := yamlsrc.Parse(data, file)
	if err != nil {
		return nil, err
	}
	return expand(doc, data, file, false)
}

type spaceParser struct {
	file string
	// lines locates keys in the source, for the Origin of assignments.
	lines *yamlsrc.Lines
	// checkFiles makes a template or inputs file that is not there an
	// error of the space, at its position, before any run starts.
	checkFiles bool
	// at is the space being expanded when the file is a list of spaces
	// (errors without a position of their own point at it), else nil.
	at *yamlsrc.Value
}

// checkFile reports a path of the space (relative to it) that names no
// regular file.
func (p *spaceParser) checkFile(v *yamlsrc.Value, what string) error {
	if !p.checkFiles {
		return nil
	}
	fi, err := os.Stat(relTo(filepath.Dir(p.file), v.Str()))
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return p.errAt(v, "%s %q does not exist", what, v.Str())
	case err != nil:
		return p.errAt(v, "%s %q cannot be read: %v", what, v.Str(), err)
	case !fi.Mode().IsRegular():
		return p.errAt(v, "%s %q is not a file", what, v.Str())
	}
	return nil
}

func (p *spaceParser) errAt(v *yamlsrc.Value, format string, args ...any) error {
	pos := diag.Pos{File: p.file}
	if v != nil {
		pos.Line, pos.Col = int(v.Line), int(v.Col)
	}
	return diag.Errorf(pos, diag.StageLoad, format, args...)
}

// expand expands a space file: one space (a map), or a list of spaces whose
// runs follow each other in list order, numbered across the list. The ids
// of a file with one space do not depend on the list form existing.
func expand(doc *yamlsrc.Value, data []byte, file string, checkFiles bool) (*Space, error) {
	p := &spaceParser{file: file, lines: yamlsrc.NewLines(data), checkFiles: checkFiles}
	var runs []*Run
	switch {
	case doc.IsMap():
		rs, err := p.space(doc, 0)
		if err != nil {
			return nil, err
		}
		runs = rs
	case doc.IsList() && len(doc.List()) > 0:
		for _, item := range doc.List() {
			if !item.IsMap() {
				return nil, p.errAt(item, "expected a space (a map with templates, presets, inputs and options), found %s", kind(item))
			}
			p.at = item
			rs, err := p.space(item, len(runs))
			if err != nil {
				return nil, err
			}
			runs = append(runs, rs...)
		}
	case doc.IsList():
		return nil, p.errAt(doc, "expected a space or a non-empty list of spaces, found an empty list")
	default:
		return nil, p.errAt(doc, "expected a space (a map with templates, presets, inputs and options) or a list of spaces, found %s", kind(doc))
	}
	width := max(3, len(fmt.Sprint(len(runs))))
	for i, r := range runs {
		r.ID = fmt.Sprintf("run-%0*d", width, i+1)
	}
	s := &Space{File: file, Runs: runs, Total: len(runs)}
	s.Digest = digest(runs)
	return s, nil
}

// space expands one space of the file into its runs, without ids; before
// is the number of runs of the spaces before it in a list.
func (p *spaceParser) space(doc *yamlsrc.Value, before int) ([]*Run, error) {
	for _, k := range doc.Map().Keys() {
		switch k {
		case "templates", "presets", "inputs", "options", "description":
		default:
			return nil, p.errAt(doc.Map().Get(k), "unknown key %q in a space (expected templates, presets, inputs, options or description)", k)
		}
	}
	templates, err := p.templates(doc.Get("templates"))
	if err != nil {
		return nil, err
	}
	presets, err := p.presets(doc.Get("presets"))
	if err != nil {
		return nil, err
	}
	inputs, err := p.inputSets(doc.Get("inputs"))
	if err != nil {
		return nil, err
	}
	options, err := p.optionSets(doc.Get("options"))
	if err != nil {
		return nil, err
	}
	total := len(templates) * len(presets)
	if total *= len(inputs); total <= MaxRuns {
		total *= len(options)
	}
	if total > MaxRuns {
		return nil, p.errAt(doc, "the space has %d runs, more than %d", total, MaxRuns)
	}
	if before+total > MaxRuns {
		return nil, p.errAt(doc, "the spaces have %d runs up to this one, more than %d", before+total, MaxRuns)
	}
	dir := filepath.Dir(p.file)
	runs := make([]*Run, 0, total)
	for _, t := range templates {
		for _, ps := range presets {
			for _, is := range inputs {
				for _, opt := range options {
					r := &Run{
						Template: t, InputsFile: is.file, Presets: ps,
						Inputs: is.values, Options: opt,
					}
					r.Input = resolve.Input{TemplatePath: relTo(dir, t), Presets: ps, Inputs: is.values}
					if is.file != "" {
						r.Input.InputsPath = relTo(dir, is.file)
					}
					runs = append(runs, r)
				}
			}
		}
	}
	return runs, nil
}

// digest fingerprints the runs of a space: their ids, templates, preset
// sets, inputs and options, in order. Shard summaries record it, so that
// merge can tell shards of different spaces apart (and of a space file
// that changed between shards).
func digest(runs []*Run) string {
	h := sha256.New()
	for _, r := range runs {
		fmt.Fprintf(h, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Template, r.PresetsText(), r.InputsText(), r.OptionsText())
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func relTo(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, filepath.FromSlash(path))
}

func kind(v *yamlsrc.Value) string {
	if v == nil {
		return "nothing"
	}
	return v.Kind.String()
}

// templates: a non-empty list of paths (or one path).
func (p *spaceParser) templates(v *yamlsrc.Value) ([]string, error) {
	if v.IsNull() {
		return nil, p.errAt(p.at, "the space has no templates")
	}
	items := []*yamlsrc.Value{v}
	if v.IsList() {
		items = v.List()
	}
	if len(items) == 0 {
		return nil, p.errAt(v, "the space has no templates")
	}
	var out []string
	for _, it := range items {
		if !it.IsString() || it.Str() == "" {
			return nil, p.errAt(it, "expected a template path, found %s", kind(it))
		}
		if err := p.checkFile(it, "template"); err != nil {
			return nil, err
		}
		out = append(out, it.Str())
	}
	return out, nil
}

// presets: a list of preset sets; a set is a list of names, one name, or
// an empty list (no presets). Missing: one empty set.
func (p *spaceParser) presets(v *yamlsrc.Value) ([][]string, error) {
	if v.IsNull() {
		return [][]string{nil}, nil
	}
	if !v.IsList() || len(v.List()) == 0 {
		return nil, p.errAt(v, "expected presets as a non-empty list of preset sets")
	}
	var out [][]string
	for _, set := range v.List() {
		names := []*yamlsrc.Value{set}
		if set.IsList() {
			names = set.List()
		}
		var ps []string
		for _, n := range names {
			if !n.IsString() || n.Str() == "" {
				return nil, p.errAt(n, "expected a preset name, found %s", kind(n))
			}
			ps = append(ps, n.Str())
		}
		out = append(out, ps)
	}
	return out, nil
}

// inputSets: a list of input sets; a set is an inputs file path or a map of
// inputs whose list values expand to their cross product.
func (p *spaceParser) inputSets(v *yamlsrc.Value) ([]inputSet, error) {
	if v.IsNull() {
		return []inputSet{{}}, nil
	}
	if !v.IsList() || len(v.List()) == 0 {
		return nil, p.errAt(v, "expected inputs as a non-empty list of input sets (an inputs file or a map)")
	}
	var out []inputSet
	for _, set := range v.List() {
		switch {
		case set.IsString() && set.Str() != "":
			if err := p.checkFile(set, "inputs file"); err != nil {
				return nil, err
			}
			out = append(out, inputSet{file: set.Str()})
		case set.IsMap():
			if err := p.noEmptyLists(set, "input"); err != nil {
				return nil, err
			}
			for _, as := range p.product(set) {
				out = append(out, inputSet{values: as})
			}
		default:
			return nil, p.errAt(set, "expected an input set (an inputs file or a map), found %s", kind(set))
		}
	}
	return out, nil
}

// optionSets: a list of maps of option overrides whose list values expand
// to their cross product. Missing: one empty set.
func (p *spaceParser) optionSets(v *yamlsrc.Value) ([][]resolve.Assignment, error) {
	if v.IsNull() {
		return [][]resolve.Assignment{nil}, nil
	}
	if !v.IsList() || len(v.List()) == 0 {
		return nil, p.errAt(v, "expected options as a non-empty list of option sets (maps)")
	}
	var out [][]resolve.Assignment
	for _, set := range v.List() {
		if !set.IsMap() {
			return nil, p.errAt(set, "expected an option set (a map of option values), found %s", kind(set))
		}
		if err := p.noEmptyLists(set, "option"); err != nil {
			return nil, err
		}
		out = append(out, p.product(set)...)
	}
	return out, nil
}

// noEmptyLists rejects a key with an empty list of values, which would
// silently remove every run of the set, and a set whose cross product alone
// has more than MaxRuns combinations.
func (p *spaceParser) noEmptyLists(set *yamlsrc.Value, what string) error {
	n := 1
	for _, k := range set.Map().Keys() {
		l := set.Map().Get(k)
		if !l.IsList() {
			continue
		}
		if len(l.List()) == 0 {
			return p.errAt(l, "%s %q has an empty list of values (write [[]] for the empty list as one value)", what, k)
		}
		if n *= len(l.List()); n > MaxRuns {
			return p.errAt(set, "this %s set has more than %d combinations", what, MaxRuns)
		}
	}
	return nil
}

// product expands a map whose list values are alternatives into every
// combination, the first key outermost. A list value that should be one
// value is written inside another list: [[a, b]]. An empty list gives no
// combination.
//
// Each assignment's Origin is the position of its key in the space file,
// for warnings about the name (an input the template does not declare, an
// unknown option).
func (p *spaceParser) product(m *yamlsrc.Value) [][]resolve.Assignment {
	out := [][]resolve.Assignment{nil}
	for i, k := range m.Map().Keys() {
		origin := p.keyPos(m, i).String()
		v := m.Map().Get(k)
		alts := []*yamlsrc.Value{v}
		if v.IsList() {
			alts = v.List()
		}
		var next [][]resolve.Assignment
		for _, prefix := range out {
			for _, a := range alts {
				as := append(append([]resolve.Assignment(nil), prefix...), resolve.Assignment{Name: k, Value: a, Origin: origin})
				next = append(next, as)
			}
		}
		out = next
	}
	return out
}

// keyPos is the position of the i-th key of the map m: that of the key
// where the source tells it, else that of its value.
func (p *spaceParser) keyPos(m *yamlsrc.Value, i int) diag.Pos {
	if line, col, ok := p.lines.KeyPos(m, i); ok {
		return diag.Pos{File: p.file, Line: line, Col: col}
	}
	if v := m.Map().Val(i); v != nil && v.Line > 0 {
		return diag.Pos{File: p.file, Line: int(v.Line), Col: int(v.Col)}
	}
	return diag.Pos{File: p.file, Line: int(m.Line), Col: int(m.Col)}
}

// ResolveArgs are the arguments of the v4t resolve command line that
// resolves this run on its own (without "v4t resolve" itself), for
// spot-checks and timing single runs.
func (r *Run) ResolveArgs() []string {
	args := []string{"--template", r.Input.TemplatePath}
	for _, p := range r.Presets {
		args = append(args, "--preset", p)
	}
	if r.Input.InputsPath != "" {
		args = append(args, "--inputs", r.Input.InputsPath)
	}
	for _, a := range r.Inputs {
		args = append(args, "--input", a.Name+"="+resolve.Flow(a.Value))
	}
	for _, a := range r.Options {
		args = append(args, "--option", a.Name+"="+resolve.Flow(a.Value))
	}
	return args
}
