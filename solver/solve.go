package solver

import (
	"context"
	"fmt"
	"slices"
)

// Solve decides cnf, runs the lexicographic steps in order, and then the
// tie-break: it walks tieBreak (variables, in order) and fixes each one to
// false if that is still satisfiable together with the literals fixed before
// it, else to true (greedy-false, variability.md §10.4, solver.md §5.9).
// Variables not decided by the tie-break take the values of the final model,
// which satisfies the CNF and every step restriction.
//
// When the context ends, Solve returns its error together with the result
// so far; a single SAT call cannot be interrupted (solver.md §4.6).
func Solve(ctx context.Context, cnf *CNF, steps []Step, tieBreak []int) (*Result, error) {
	return solve(ctx, cnf, steps, tieBreak, defaultConfig())
}

// state is what the steps have established so far (solver.md §5.8): the
// propagated residual, the bounds carried from optimising steps, and a model
// that satisfies both. Each step and each tie-break query rebuilds its solvers
// from this state, because a gophersat solver cannot undo anything.
type state struct {
	cfg    *config
	st     *Stats
	r      residual
	bounds []bound
	model  []bool
	// subs and small hold the arrays of the part being solved, in the
	// loops over a residual's parts (subBuf, smallBuf).
	subs  subBuf
	small smallBuf
	// partLits, partWeights and partProj hold a part's objective and
	// projection in runStep's loop over parts; nothing a part's
	// optimisation keeps refers to them (its bound gets copies).
	partLits    []int
	partWeights []int64
	partProj    []int
}

func solve(ctx context.Context, cnf *CNF, steps []Step, tieBreak []int, cfg *config) (*Result, error) {
	set, err := checkedSet(cnf)
	if err != nil {
		return nil, err
	}
	nv := cnf.NumVars
	for i := range steps {
		what := fmt.Sprintf("step %d", i)
		if err := validateObjective(what, nv, steps[i].Objective); err != nil {
			return nil, err
		}
		if err := validateVars(what+" projection", nv, steps[i].Projection); err != nil {
			return nil, err
		}
	}
	if err := validateVars("tie-break", nv, tieBreak); err != nil {
		return nil, err
	}

	res := &Result{Ambiguous: -1, Optima: make([]int64, len(steps))}
	s := &state{cfg: cfg, st: &res.Stats}
	r, ok := propagate(nv, nil, nil, set, nil, s.st)
	if !ok {
		return res, nil
	}
	s.r = r
	for _, f := range r.fixed {
		if f != 0 {
			res.Stats.FixedVars++
		}
	}
	res.Stats.ResidualClauses = len(r.clauses)

	sat, err := s.initialModel(ctx, preferences(nv, steps))
	if err != nil || !sat {
		return res, err
	}
	res.Sat = true
	for i := range steps {
		if err := ctx.Err(); err != nil {
			res.Model = s.snapshot()
			return res, err
		}
		ambiguous, err := s.runStep(ctx, i, &steps[i], res)
		if err != nil {
			res.Model = s.snapshot()
			return res, err
		}
		if ambiguous {
			res.Ambiguous = i
			return res, nil
		}
	}
	err = s.tieBreak(ctx, tieBreak)
	res.Model = s.snapshot()
	return res, err
}

// preferences returns, per variable, whether its first cost literal over all
// steps wants it true. Those variables are flipped for the first solve, so
// that gophersat's false-first decisions yield a cheap first model and a
// small counter.
func preferences(nv int, steps []Step) []bool {
	flip := make([]bool, nv+1)
	t := takeTemps()
	defer t.give()
	seen := t.marks.take(nv + 1)
	for _, step := range steps {
		o := step.Objective
		if o == nil {
			continue
		}
		for i, l := range o.Lits {
			v := abs(l)
			if o.Weights[i] == 0 || seen[v] != 0 {
				continue
			}
			seen[v] = 1
			// Minimising wants the literal false; maximising wants it true.
			flip[v] = (l < 0) != o.Maximize
		}
	}
	return flip
}

// unfixedOnce returns the variables of vs that propagation left unfixed,
// each once, in order. Its marks come from the pool (temps): a run makes
// such a list for every step, over all the residual's variables.
func (s *state) unfixedOnce(vs []int) []int {
	t := takeTemps()
	defer t.give()
	seen := t.marks.take(s.r.nv + 1)
	var out []int
	for _, v := range vs {
		if s.r.fixed[v] == 0 && seen[v] == 0 {
			seen[v] = 1
			out = append(out, v)
		}
	}
	return out
}

// snapshot copies the current model.
func (s *state) snapshot() []bool {
	m := make([]bool, len(s.model))
	copy(m, s.model)
	return m
}

// initialModel answers satisfiability (variability.md §10.1) and provides the
// model that the steps start from.
func (s *state) initialModel(ctx context.Context, flip []bool) (bool, error) {
	s.model = s.r.value()
	if len(s.r.clauses) == 0 {
		// Nothing left to decide: the fixed values with every free variable
		// false are a model (solver.md §5.4).
		s.st.TrivialSolutions++
		return true, nil
	}
	sp, sat := s.initialParts(flip)
	if sp == nil {
		return sat, nil
	}
	err := withBackend(residual{nv: sp.nv, fixed: make([]int8, sp.nv+1), clauses: sp.clauses}, nil, s.cfg, s.st, func(b *backend) error {
		var err error
		sat, err = b.solve(ctx)
		if err == nil && sat {
			sp.store(b.model(), s.model)
		}
		return err
	})
	return sat, err
}

// initialParts gives the small parts of the residual their first model by
// our own search (small.go) and returns the rest as one part for gophersat,
// nil when nothing is left (sat then tells whether the small parts have
// models). Without our own search the whole residual is that part.
func (s *state) initialParts(flip []bool) (rest *sub, sat bool) {
	if !s.cfg.ownSearch || s.cfg.noSplit {
		parts, local := split(s.r.nv, s.r.clauses, nil, nil, true)
		return localize(parts[0], s.r.clauses, nil, local, flip), false
	}
	// One variable of each clause marks its part as wanted.
	firsts := make([]int, len(s.r.clauses))
	for i, c := range s.r.clauses {
		firsts[i] = abs(c[0])
	}
	parts, local := split(s.r.nv, s.r.clauses, nil, firsts, false)
	var large part
	for _, p := range parts {
		if len(p.vars) <= smallVars {
			sp := s.subs.localize(p, s.r.clauses, nil, local, flip)
			m, sat, ok := smallModel(sp, &s.small)
			if ok {
				if !sat {
					return nil, false
				}
				s.st.OwnSearches++
				sp.store(m, s.model)
				continue
			}
		}
		large.vars = append(large.vars, p.vars...)
		large.clauses = append(large.clauses, p.clauses...)
	}
	if len(large.vars) == 0 {
		return nil, true
	}
	// The large parts as one, numbered and ordered as the whole residual
	// would be.
	slices.Sort(large.vars)
	slices.Sort(large.clauses)
	for i, v := range large.vars {
		local[v] = int32(i + 1)
	}
	return localize(large, s.r.clauses, nil, local, flip), false
}

// runStep runs one lexicographic step (variability.md §10.2, solver.md §5.6,
// §5.8) part by part, and then restricts the state to the step's optimal
// face.
func (s *state) runStep(ctx context.Context, idx int, step *Step, res *Result) (ambiguous bool, err error) {
	nv := s.r.nv
	obj := normalise(step.Objective, s.r.fixed)
	var proj []int
	if step.Unique {
		// Fixed projection variables have one value in every model.
		proj = s.unfixedOnce(step.Projection)
	}
	defer func() {
		if step.Objective != nil {
			res.Optima[idx] = step.Objective.value(s.model)
		}
	}()
	if len(obj.lits) == 0 && len(proj) == 0 {
		return false, nil
	}

	// objTerm[v] is 1 + the index of v's term in obj.
	objTerm := make([]int32, nv+1)
	flip := make([]bool, nv+1)
	relevant := make([]int, 0, len(obj.lits)+len(proj))
	for i, l := range obj.lits {
		objTerm[abs(l)] = int32(i + 1)
		flip[abs(l)] = l < 0
		relevant = append(relevant, abs(l))
	}
	inProj := make([]bool, nv+1)
	for _, v := range proj {
		inProj[v] = true
		relevant = append(relevant, v)
	}
	parts, local := split(nv, s.r.clauses, s.bounds, relevant, s.cfg.noSplit)

	var (
		units     []int
		newBounds []bound
		ambSub    *sub
		ambAlt    []bool
	)
	for _, p := range parts {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		sp := s.subs.localize(p, s.r.clauses, s.bounds, local, flip)
		f := linear{lits: s.partLits[:0], weights: s.partWeights[:0]}
		pj := s.partProj[:0]
		for i := 1; i <= sp.nv; i++ {
			v := sp.vars[i]
			if t := objTerm[v]; t != 0 {
				f.lits = append(f.lits, sp.localLit(obj.lits[t-1], local))
				f.weights = append(f.weights, obj.weights[t-1])
			}
			if inProj[v] {
				pj = append(pj, i)
			}
		}
		s.partLits, s.partWeights, s.partProj = f.lits, f.weights, pj
		// Once one part is ambiguous the verdict is known; the remaining parts
		// are only optimised, so that the reported optimum is exact.
		unique := ambSub == nil && len(pj) > 0
		if len(f.lits) == 0 && !unique {
			continue
		}
		out, err := s.optimise(ctx, sp, f, pj, unique)
		if err != nil {
			return false, err
		}
		sp.store(out.model, s.model)
		if out.ambiguous {
			ambSub, ambAlt = sp.detach(), out.alt
		}
		if len(f.lits) > 0 {
			gb := bound{k: out.cost, f: linear{lits: make([]int, len(f.lits)), weights: slices.Clone(f.weights)}}
			for i, l := range f.lits {
				gb.f.lits[i] = sp.globalLit(l)
			}
			newBounds = append(newBounds, gb)
		}
		if unique && !out.ambiguous {
			// Every model on the optimal face has this projection (§5.8).
			for _, i := range pj {
				units = append(units, sp.globalLit(modelLit(out.model, i)))
			}
		}
	}
	if ambSub != nil {
		res.Model = s.snapshot()
		res.Alternative = s.snapshot()
		ambSub.store(ambAlt, res.Alternative)
		return true, nil
	}
	return false, s.restrict(units, newBounds)
}

// modelLit returns the literal of variable v that is true in m.
func modelLit(m []bool, v int) int {
	if m[v] {
		return v
	}
	return -v
}

// restrict adds what a step established: units (a proven projection) and
// bounds (f ≤ optimum, which equals f = optimum). Propagation runs again, and
// bounds that propagation decides become units or disappear; the loop runs
// until neither changes.
func (s *state) restrict(units []int, bounds []bound) error {
	all := append(s.bounds, bounds...)
	for {
		if len(units) > 0 {
			r, ok := s.r.assign(units, s.st)
			if !ok {
				return fmt.Errorf("solver: internal error: the optimal face of a step is empty")
			}
			s.r = r
		}
		units = nil
		kept := all[:0:0]
		for _, b := range all {
			nb, falseLits, keep, ok := b.settle(s.r.fixed)
			if !ok {
				return fmt.Errorf("solver: internal error: a carried bound became infeasible")
			}
			units = append(units, falseLits...)
			if keep {
				kept = append(kept, nb)
			}
		}
		all = kept
		if len(units) == 0 {
			break
		}
	}
	s.bounds = all
	for v, f := range s.r.fixed {
		if f != 0 && s.model[v] != (f > 0) {
			return fmt.Errorf("solver: internal error: model disagrees with variable %d fixed by propagation", v)
		}
	}
	return nil
}

// outcome is the result of one step on one part, in local numbering.
type outcome struct {
	model     []bool // best model found; optimal when the step optimised
	cost      int64  // its internal cost
	ambiguous bool
	alt       []bool // second witness when ambiguous
}

// optimise runs one step on one part: the block-first loop when optimising
// and checking uniqueness, plain descent when only optimising, one blocking
// query when only checking uniqueness (solver.md §5.6). It starts from the
// carried model, which satisfies everything established so far; that saves
// the first solve of each loop.
func (s *state) optimise(ctx context.Context, sp *sub, f linear, proj []int, unique bool) (outcome, error) {
	carried := sp.load(s.model)
	if sp.free() {
		return optimiseFree(sp, f, proj, unique, carried), nil
	}
	s.st.Components++
	if s.cfg.ownSearch {
		if out, ok := optimiseSmall(sp, f, proj, unique, &s.small); ok {
			s.st.OwnSearches++
			return out, nil
		}
	}
	out := outcome{model: carried, cost: f.eval(carried)}
	var err error
	switch {
	case !unique:
		err = s.descend(ctx, sp, f, &out)
	case len(f.lits) == 0:
		err = s.checkUnique(ctx, sp, f, proj, &out)
	default:
		err = s.blockFirst(ctx, sp, f, proj, &out)
	}
	return out, err
}

// phase is the propagated formula for one solver on a part (see encode).
type phase struct {
	r   residual
	pbs []pbConstraint
	ctr *counter
	nv  int // the part's variables; counter variables come after
}

// prepare encodes sp with f ≤ k asserted (no counter when f is empty). ok is
// false when propagation alone refutes it.
func (s *state) prepare(sp *sub, f linear, k int64) (*phase, bool) {
	r, pbs, ctr, ok := s.encode(sp, f, k)
	if !ok {
		return nil, false
	}
	return &phase{r: r, pbs: pbs, ctr: ctr, nv: sp.nv}, true
}

// unfixed returns the variables of vars that the phase leaves unfixed: only
// those go into blocking clauses.
func (p *phase) unfixed(vars []int) []int {
	var out []int
	for _, v := range vars {
		if p.r.fixed[v] == 0 {
			out = append(out, v)
		}
	}
	return out
}

// prepareCarried prepares the face f ≤ out.cost, which the carried model
// out.model satisfies, and returns it with the unfixed variables of proj.
// Propagation refuting the face is an internal error; what names the
// constraints the model was carried under.
func (s *state) prepareCarried(sp *sub, f linear, proj []int, out *outcome, what string) (*phase, []int, error) {
	p, ok := s.prepare(sp, f, out.cost)
	if !ok {
		return nil, nil, fmt.Errorf("solver: internal error: the carried model violates the %s constraints", what)
	}
	return p, p.unfixed(proj), nil
}

// session is a phase's solver while it lives.
type session struct {
	b        *backend
	p        *phase
	f        linear
	asserted int64 // the tightest bound asserted on f
}

func (s *state) run(p *phase, f linear, k int64, fn func(ss *session) error) error {
	return withBackend(p.r, p.pbs, s.cfg, s.st, func(b *backend) error {
		return fn(&session{b: b, p: p, f: f, asserted: k})
	})
}

// tighten asserts f ≤ k.
func (ss *session) tighten(k int64) {
	if k >= ss.asserted {
		return
	}
	ss.asserted = k
	unit, pb, trivial, infeasible := ss.p.ctr.bound(k)
	switch {
	case trivial:
	case infeasible:
		ss.b.spent = true
	case pb != nil:
		ss.b.addPB(pb)
	default:
		ss.b.addClause([]int{unit})
	}
}

// improve solves; on SAT it adopts the model, whose cost must respect the
// asserted bound.
func (ss *session) improve(ctx context.Context, out *outcome) (bool, error) {
	sat, err := ss.b.solve(ctx)
	if err != nil || !sat {
		return false, err
	}
	m := ss.b.model()[:ss.p.nv+1]
	c := ss.f.eval(m)
	if c > ss.asserted {
		return false, fmt.Errorf("solver: internal error: model of cost %d violates the bound %d", c, ss.asserted)
	}
	out.model, out.cost = m, c
	return true, nil
}

// descend is the plain descent: assert f ≤ cost − 1 until the answer is
// UNSAT. The last model is optimal.
func (s *state) descend(ctx context.Context, sp *sub, f linear, out *outcome) error {
	if out.cost == 0 {
		return nil
	}
	p, ok := s.prepare(sp, f, out.cost-1)
	if !ok {
		// Propagation alone refutes anything cheaper.
		return nil
	}
	improved := false
	err := s.run(p, f, out.cost-1, func(ss *session) error {
		for {
			sat, err := ss.improve(ctx, out)
			if err != nil || !sat || out.cost == 0 {
				return err
			}
			if p.ctr.native {
				// The carried model was not optimal: bisect the rest.
				improved = true
				return nil
			}
			ss.tighten(out.cost - 1)
		}
	})
	if err != nil || !improved {
		return err
	}
	return s.bisect(ctx, sp, f, out)
}

// bisect is the descent for objectives too large for a totalizer up to
// the current cost. Stepping down one native pseudo-Boolean bound at a
// time can take thousands of solves, each slow in gophersat's PB
// propagation (a parity chain of 1,600 variables did not finish in a
// minute). Once a first step has shown that the carried model is not
// optimal (when it is, one solve proves it, as before), each round probes
// f ≤ k halfway between a proven lower bound and the cost, in a fresh
// solver, since a bound cannot be taken back: a model moves the cost down to its own, a refutation moves the
// lower bound up to k+1. Once k is small enough for a totalizer, the plain
// descent finishes inside that solver.
func (s *state) bisect(ctx context.Context, sp *sub, f linear, out *outcome) error {
	lb := int64(0)
	for lb < out.cost {
		k := lb + (out.cost-1-lb)/2
		p, ok := s.prepare(sp, f, k)
		if !ok {
			lb = k + 1
			continue
		}
		refuted, done := false, false
		err := s.run(p, f, k, func(ss *session) error {
			for {
				sat, err := ss.improve(ctx, out)
				if err != nil {
					return err
				}
				if !sat {
					// Nothing costs at most the asserted bound: k when no
					// model was found here, else cost − 1, the optimum.
					refuted, done = ss.asserted == k, ss.asserted < k
					return nil
				}
				if out.cost == 0 || p.ctr.native {
					done = out.cost == 0
					return nil
				}
				ss.tighten(out.cost - 1)
			}
		})
		switch {
		case err != nil:
			return err
		case done:
			return nil
		case refuted:
			lb = k + 1
		}
	}
	return nil
}

// checkUnique queries once for a model on the face f ≤ out.cost (no bound
// when f is empty) that differs from out.model on the projection.
func (s *state) checkUnique(ctx context.Context, sp *sub, f linear, proj []int, out *outcome) error {
	p, block, err := s.prepareCarried(sp, f, proj, out, "established")
	if err != nil || len(block) == 0 {
		return err
	}
	return s.run(p, f, out.cost, func(ss *session) error {
		s.st.BlockingClauses++
		ss.b.addClause(blockingClause(out.model, block))
		sat, err := ss.b.solve(ctx)
		if err == nil && sat {
			out.ambiguous, out.alt = true, ss.b.model()[:p.nv+1]
		}
		return err
	})
}

// blockFirst is the block-first loop of solver.md §5.6: optimum and
// uniqueness in one solver, whose final UNSAT answer proves both.
//
// The blocking clause of a model M of cost c is "differs from M on the
// projection, or costs less than c": block(M) ∨ ¬[f ≥ c], with the
// totalizer output for f ≥ c. A plain block(M), as solver.md §5.6 words it,
// would be wrong after an improvement: it also excludes the cheaper models
// that share M's projection, so the loop could stop above the optimum (the
// oracle test finds such cases). Once the bound drops below c, the output is
// free to be false and the clause stops constraining anything.
//
// The native pseudo-Boolean fallback has no such output. There the step
// descends to the optimum first and then makes one blocking query on the
// optimal face, in a second solver.
func (s *state) blockFirst(ctx context.Context, sp *sub, f linear, proj []int, out *outcome) error {
	p, block, err := s.prepareCarried(sp, f, proj, out, "step's")
	if err != nil {
		return err
	}
	if p.ctr.native || len(block) == 0 {
		if err := s.descend(ctx, sp, f, out); err != nil || len(block) == 0 {
			// Without unfixed projection variables the face is unique.
			return err
		}
		return s.checkUnique(ctx, sp, f, proj, out)
	}
	return s.run(p, f, out.cost, func(ss *session) error {
		for {
			m, c := out.model, out.cost
			clause := blockingClause(m, block)
			if c > 0 {
				geq, ok := p.ctr.geq(c)
				if !ok {
					return fmt.Errorf("solver: internal error: cost %d beyond the counter", c)
				}
				clause = append(clause, -geq)
			}
			s.st.BlockingClauses++
			ss.b.addClause(clause)
			sat, err := ss.improve(ctx, out)
			if err != nil || !sat {
				// UNSAT: the model is optimal and unique on the projection.
				return err
			}
			if out.cost < c {
				ss.tighten(out.cost)
				continue
			}
			// A model of the same cost with another projection: the optimum
			// is ambiguous unless something cheaper exists.
			w := out.model
			out.model, out.cost = m, c
			if c == 0 {
				out.ambiguous, out.alt = true, w
				return nil
			}
			ss.tighten(c - 1)
			if sat, err = ss.improve(ctx, out); err != nil {
				return err
			}
			if !sat {
				out.ambiguous, out.alt = true, w
				return nil
			}
			ss.tighten(out.cost)
		}
	})
}

// blockingClause is the clause that some variable of vars differs from m.
func blockingClause(m []bool, vars []int) []int {
	c := make([]int, len(vars))
	for i, v := range vars {
		if m[v] {
			c[i] = -v
		} else {
			c[i] = v
		}
	}
	return c
}

// optimiseFree handles a part without constraints: its variables are
// independent, so each cost literal is simply made false, and a projection
// variable without a cost term can take either value.
func optimiseFree(sp *sub, f linear, proj []int, unique bool, carried []bool) outcome {
	m := carried
	for _, l := range f.lits {
		m[abs(l)] = l < 0
	}
	out := outcome{model: m}
	if !unique {
		return out
	}
	costed := make(map[int]bool, len(f.lits))
	for _, l := range f.lits {
		costed[abs(l)] = true
	}
	for _, v := range proj {
		if !costed[v] {
			alt := make([]bool, len(m))
			copy(alt, m)
			alt[v] = !alt[v]
			out.ambiguous, out.alt = true, alt
			break
		}
	}
	return out
}

// encode builds the formula for a solver on sp: its clauses, a counter per
// carried bound with that bound asserted, and, when f is non-empty, a counter
// for f prepared for bounds up to kmax with f ≤ kmax asserted. Everything is
// propagated by us before gophersat sees it. ok is false when propagation
// finds a conflict.
func (s *state) encode(sp *sub, f linear, kmax int64) (r residual, pbs []pbConstraint, ctr *counter, ok bool) {
	nv := sp.nv
	var raw [][]int
	var units []int
	add := func(g linear, k int64) (*counter, bool) {
		if k == 0 {
			// f ≤ 0 is just every cost literal false, and nothing lower can
			// be asked for: no counter needed. With the literals forced
			// false, every later bound is trivial, which total 0 says.
			for _, l := range g.lits {
				units = append(units, -l)
			}
			return &counter{f: g}, true
		}
		c, cls, next := newCounter(g, k, nv+1, s.cfg.maxCounterClauses)
		nv = next - 1
		raw = append(raw, cls...)
		s.st.CounterClauses += len(cls)
		unit, pb, trivial, infeasible := c.bound(k)
		switch {
		case infeasible:
			return c, false
		case trivial:
		case pb != nil:
			pbs = append(pbs, *pb)
		default:
			units = append(units, unit)
		}
		return c, true
	}
	for _, b := range sp.bounds {
		if _, ok := add(b.f, b.k); !ok {
			return residual{}, nil, nil, false
		}
	}
	if len(f.lits) > 0 {
		var ok bool
		if ctr, ok = add(f, kmax); !ok {
			return residual{}, nil, nil, false
		}
	}
	r, ok = propagate(nv, nil, sp.clauses, clauseSet{list: raw}, units, s.st)
	return r, pbs, ctr, ok
}
