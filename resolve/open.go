package resolve

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/yamlsrc"
)

// Spec spaces.md §4 (open inputs): variability inputs that nothing assigns
// become free over a finite domain; a value expression that reads them is
// evaluated once per combination of the values it reads, and encoded over
// one-hot input variables. The resolver itself is unchanged.

// MaxCombinations bounds the input combinations one value expression in
// logic position may be evaluated in (the leaves of its case split over the
// open inputs it reads). A larger split is refused with an error rather
// than encoded.
const MaxCombinations = 4096

// openInputs finds the open inputs of a prepared template and their
// domains (see domain). An input is open when it is declared in
// topology_template.variability.inputs, the presets, the inputs file and
// the single assignments leave it unassigned (or assign it null, which falls
// back to the default as in variability.md §6), and only lists it or is
// nil. An open input with an empty domain is an error at its definition;
// names in only that are not declared inputs are an error. The warnings say
// which listed inputs stay fixed because they are assigned.
func openInputs(p *prepared, only []string) ([]OpenInput, []string, error) {
	vb := p.g.Variability()
	decls := vb.Get("inputs")
	var names []string
	if decls.IsMap() {
		names = decls.Map().Keys()
	}
	declared := map[string]bool{}
	for _, n := range names {
		declared[n] = true
	}
	var listed map[string]bool
	if only != nil {
		listed = map[string]bool{}
		for _, n := range only {
			if !declared[n] {
				return nil, nil, diag.At(diag.Pos{File: p.file}, diag.StageInputs,
					fmt.Sprintf("open input %q is not a declared variability input%s", n, diag.DidYouMean(n, slices.Values(names))))
			}
			listed[n] = true
		}
	}
	presets := vb.Get("presets")
	var warnings []string
	var out []OpenInput
	for i, name := range names {
		if listed != nil && !listed[name] {
			continue
		}
		if !p.assigned.Get(name).IsNull() {
			if listed != nil {
				warnings = append(warnings, fmt.Sprintf("%s: open input %q is assigned, so it stays fixed", p.file, name))
			}
			continue
		}
		def := decls.Map().Val(i)
		pos := diag.Pos{File: p.file, Line: int(def.Line), Col: int(def.Col)}
		if def.Line == 0 {
			pos = diag.Pos{File: p.file, Line: int(decls.Line), Col: int(decls.Col)}
		}
		values := domain(def, name, presets)
		if len(values) == 0 {
			return nil, nil, diag.At(pos, diag.StageInputs, fmt.Sprintf(
				"open input %q has no finite domain: give it type boolean, a valid_values constraint, a default or a preset value, or assign it with --input %s=VALUE", name, name))
		}
		out = append(out, OpenInput{Name: name, Pos: pos, Values: values})
	}
	return out, warnings, nil
}

// domain is the domain of an open input: by the first rule that gives
// one,
//
//  1. [false, true] when its definition has type: boolean;
//  2. the list of a valid_values constraint of its definition
//     (constraints: [{valid_values: [...]}] as in TOSCA 1.3, or a
//     valid_values list directly in the definition);
//  3. the values its default and the presets give it: the default first,
//     then every preset's inputs, in preset declaration order.
//
// Values are deduplicated by deep equality, keeping the first occurrence,
// and null values are left out (assigning null means "use the default").
// An empty domain means the input has no finite domain.
func domain(def *yamlsrc.Value, name string, presets *yamlsrc.Value) []*yamlsrc.Value {
	var values []*yamlsrc.Value
	add := func(v *yamlsrc.Value) {
		if v.IsNull() {
			return
		}
		for _, w := range values {
			if yamlsrc.DeepEqual(v, w) {
				return
			}
		}
		values = append(values, v)
	}
	if t := def.Get("type"); t.IsString() && t.Str() == "boolean" {
		return []*yamlsrc.Value{yamlsrc.NewBool(false), yamlsrc.NewBool(true)}
	}
	if vv := validValues(def); vv != nil {
		for _, v := range vv.List() {
			add(v)
		}
		if len(values) > 0 {
			return values
		}
	}
	add(def.Get("default"))
	if presets.IsMap() {
		for i := 0; i < presets.Map().Len(); i++ {
			add(presets.Map().Val(i).Get("inputs").Get(name))
		}
	}
	return values
}

// validValues returns the list of a definition's valid_values constraint
// (TOSCA 1.3: an entry of its constraints list), or a valid_values list
// given directly in the definition, or nil.
func validValues(def *yamlsrc.Value) *yamlsrc.Value {
	if cs := def.Get("constraints"); cs.IsList() {
		for _, c := range cs.List() {
			if vv := c.Get("valid_values"); vv.IsList() {
				return vv
			}
		}
	}
	if vv := def.Get("valid_values"); vv.IsList() {
		return vv
	}
	return nil
}

// splitter is the encoder's evaluator with open inputs
// (encode.CaseEvaluator): it evaluates a value expression under partial
// assignments of the open inputs, splitting on each open input it reads.
type splitter struct {
	ev     *expr.Evaluator
	file   string
	byName map[string]*OpenInput
	// cur is the current partial assignment: input → index into its domain.
	cur  map[string]int
	memo map[*yamlsrc.Value][]encode.Case
	// warnings are the excluded combinations, one per distinct message.
	warnings []string
	seen     map[string]bool
}

func newSplitter(p *prepared, open []OpenInput) *splitter {
	s := &splitter{file: p.file, byName: map[string]*OpenInput{}, cur: map[string]int{},
		memo: map[*yamlsrc.Value][]encode.Case{}, seen: map[string]bool{}}
	for i := range open {
		s.byName[open[i].Name] = &open[i]
	}
	vb := p.g.Variability()
	s.ev = expr.New(expr.Env{
		Expressions: vb.Get("expressions"),
		Inputs:      vb.Get("inputs"),
		// A copy: lookups remember defaults, and p.assigned is the
		// resolver's (enumerate resolves variants from it).
		Assigned: yamlsrc.Clone(p.assigned),
		Now:      p.now,
		File:     p.file,
		Open:     s.lookup,
	})
	return s
}

// lookup is expr.Env.Open.
func (s *splitter) lookup(name string) (*yamlsrc.Value, bool) {
	in, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	if i, ok := s.cur[name]; ok {
		return in.Values[i], true
	}
	return nil, true
}

// Eval evaluates x under the current partial assignment.
func (s *splitter) Eval(x *yamlsrc.Value) (*yamlsrc.Value, error) { return s.ev.Eval(x) }

// Cases evaluates x once per combination of the values of the open inputs
// it reads: depth first, branching over an input's domain (in domain order)
// when the evaluation reads it unassigned, so that only the inputs read on
// a path are split.
func (s *splitter) Cases(x *yamlsrc.Value) ([]encode.Case, error) {
	if cs, ok := s.memo[x]; ok {
		return cs, nil
	}
	var out []encode.Case
	var path []encode.Assumption
	var read []string
	var split func() error
	split = func() error {
		v, err := s.ev.Eval(x)
		var oe *expr.OpenInputError
		if errors.As(err, &oe) {
			in := s.byName[oe.Name]
			if in == nil {
				panic("resolve: an open input that is not open: " + oe.Name)
			}
			if _, ok := s.cur[oe.Name]; ok {
				panic("resolve: an assigned open input read as unknown: " + oe.Name)
			}
			if !contains(read, oe.Name) {
				read = append(read, oe.Name)
			}
			for i := range in.Values {
				s.cur[oe.Name] = i
				path = append(path, encode.Assumption{Input: oe.Name, Index: i})
				err := split()
				path = path[:len(path)-1]
				if err != nil {
					delete(s.cur, oe.Name)
					return err
				}
			}
			delete(s.cur, oe.Name)
			return nil
		}
		if len(out) == MaxCombinations {
			return diag.At(s.pos(x, nil), diag.StageSolve, fmt.Sprintf(
				"the expression reads the open inputs %s in more than %d combinations: assign some of them with --input, or open fewer",
				strings.Join(read, ", "), MaxCombinations))
		}
		out = append(out, encode.Case{Assumed: append([]encode.Assumption(nil), path...), Value: v, Err: err})
		return nil
	}
	if err := split(); err != nil {
		return nil, err
	}
	s.memo[x] = out
	return out, nil
}

func contains(list []string, s string) bool {
	return slices.Contains(list, s)
}

// pos is the position of expression x, else of err, else the template.
func (s *splitter) pos(x *yamlsrc.Value, err error) diag.Pos {
	if x != nil && x.Line > 0 {
		return diag.Pos{File: s.file, Line: int(x.Line), Col: int(x.Col)}
	}
	if d, ok := diag.As(err); ok && d.Pos.Known() {
		return d.Pos
	}
	return diag.Pos{File: s.file}
}

// Excluded records a warning for a combination the resolver would reject:
// one line per distinct position and message, with the first combination
// as an example.
func (s *splitter) Excluded(x *yamlsrc.Value, c encode.Case, err error) {
	msg := err.Error()
	if d, ok := diag.As(err); ok {
		msg = d.Message
	}
	msg = strings.ReplaceAll(msg, "\n", `\n`)
	at := s.pos(x, err).String()
	key := at + "\x00" + msg
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	parts := make([]string, len(c.Assumed))
	for i, a := range c.Assumed {
		parts[i] = a.Input + "=" + Flow(s.byName[a.Input].Values[a.Index])
	}
	// The inputs in the order the expression read them.
	s.warnings = append(s.warnings, fmt.Sprintf("%s: input combinations where %s are excluded: %s", at, strings.Join(parts, ", "), msg))
}

// encodeOpen encodes graph #3 with open inputs: value expressions are split
// into cases over one-hot input variables, every open input takes exactly
// one value, and the validator's constraints (variability.md §7) hold over
// the inputs' truthiness. It fills the inputs' variables and returns the
// warnings of excluded combinations.
func (p *prepared) encodeOpen(open []OpenInput) (*encode.Result, []string, error) {
	sp := newSplitter(p, open)
	enc, err := encode.Encode(p.g, sp, encode.Options{Groups: p.opts.Explain, Warn: p.opts.Warn})
	if err != nil {
		return nil, nil, err
	}
	b := enc.Builder()
	b.SetGroup(0)
	byName := map[string]*OpenInput{}
	for i := range open {
		in := &open[i]
		byName[in.Name] = in
		lits := make([]encode.Lit, len(in.Values))
		in.Vars = make([]int, len(in.Values))
		for j := range in.Values {
			lits[j] = b.Var(encode.OneHotTerm(in.Name, j))
			in.Vars[j] = int(lits[j])
		}
		b.Require(b.Exo(lits...))
	}
	c, err := buildInputConstraints(p.g, b, validatorPrefix)
	if err != nil {
		return nil, nil, err
	}
	if c != nil {
		if err := c.requireSpace(p.assigned, byName); err != nil {
			return nil, nil, err
		}
	}
	enc.NumVars = b.NumVars()
	enc.Clauses = b.Packed()
	enc.Unsat = b.Unsat()
	if p.opts.Explain {
		enc.ClauseGroups = b.ClauseGroups()
	}
	return enc, sp.warnings, nil
}
