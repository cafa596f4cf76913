package logic

// This file is a port of the MiniSat build embedded in logic-solver 2.0.1
// (minisat.js). That build is MiniSat's development version of 2013/2014
// (not the 2.2.0 release): a SimpSolver whose variable elimination is switched
// off once, at creation, by eliminate(true). What remains is the core Solver:
// user polarities, the non-recursive litRedundant, removeSatisfied that also
// trims false literals, a min-learnts option, and so on. Every routine that
// can influence the search is reproduced statement by statement; the comments
// name the MiniSat function each one stands for.
//
// Facts of the build that shape the search (read from the asm.js code and
// the running heap): logic-solver variable k is MiniSat variable k, and
// variable 0 exists unused, so it is the first decision; all variables are
// decision variables, user polarity is undefined and the default phase is
// negative; eliminate(true) at creation leaves simpDB_assigns at 0, not -1;
// clause activities are float32, but the rescaling test compares the
// double sum before rounding; garbage collection keeps every list in order,
// so when it runs does not matter.

import "math"

// Search parameters of the build (checked by reading the running
// Emscripten heap).
var (
	varDecay    = 0.95
	clauseDecay = 0.999
)

const (
	optPhaseSaving        = 2
	optLubyRestart        = true
	optRestartFirst       = 100
	optRestartInc         = 2.0
	optGarbageFrac        = 0.20
	optMinLearntsLim      = 0
	optLearntsizeFactor   = 1.0 / 3.0
	optLearntsizeInc      = 1.1
	optLearntsizeAdjStart = 100
	optLearntsizeAdjInc   = 1.5
)

// lit is a MiniSat literal: var<<1 | sign, sign 1 meaning negated.
type lit int32

const litUndef lit = -2

func mkLit(v int32, neg bool) lit {
	if neg {
		return lit(v<<1 | 1)
	}
	return lit(v << 1)
}

func (p lit) v() int32    { return int32(p >> 1) }
func (p lit) sign() bool  { return p&1 == 1 }
func (p lit) neg() lit    { return p ^ 1 }
func (p lit) signU() byte { return byte(p & 1) }

// lbool values as in MiniSat: 0 true, 1 false, 2 (or 3) undefined.
type lbool = byte

const (
	lTrue  lbool = 0
	lFalse lbool = 1
	lUndef lbool = 2
)

func isTrue(b lbool) bool  { return b == lTrue }
func isFalse(b lbool) bool { return b == lFalse }
func isUndef(b lbool) bool { return b&2 != 0 }

type cref = uint32

const crefUndef cref = math.MaxUint32

// Clause arena. A clause at cr is mem[cr] = header (size<<5 | reloced<<4 |
// hasExtra<<3 | learnt<<2 | mark), then size literals, then for learnt
// clauses one word holding the float32 activity.
type arena struct {
	mem    []uint32
	wasted uint32
}

const (
	hdrLearnt  = 1 << 2
	hdrExtra   = 1 << 3
	hdrReloced = 1 << 4
)

func (a *arena) size(cr cref) int          { return int(a.mem[cr] >> 5) }
func (a *arena) learnt(cr cref) bool       { return a.mem[cr]&hdrLearnt != 0 }
func (a *arena) mark(cr cref) uint32       { return a.mem[cr] & 3 }
func (a *arena) setMark(cr cref, m uint32) { a.mem[cr] = a.mem[cr]&^3 | m }
func (a *arena) get(cr cref, i int) lit    { return lit(a.mem[cr+1+cref(i)]) }
func (a *arena) set(cr cref, i int, p lit) { a.mem[cr+1+cref(i)] = uint32(p) }
func (a *arena) activity(cr cref) float32 {
	return math.Float32frombits(a.mem[cr+1+cref(a.size(cr))])
}
func (a *arena) setActivity(cr cref, f float32) {
	a.mem[cr+1+cref(a.size(cr))] = math.Float32bits(f)
}

func (a *arena) words(cr cref) uint32 {
	h := a.mem[cr]
	return 1 + h>>5 + (h>>3)&1
}

func (a *arena) alloc(ps []lit, learnt bool) cref {
	cr := cref(len(a.mem))
	h := uint32(len(ps)) << 5
	if learnt {
		h |= hdrLearnt | hdrExtra
	}
	a.mem = append(a.mem, h)
	for _, p := range ps {
		a.mem = append(a.mem, uint32(p))
	}
	if learnt {
		a.mem = append(a.mem, math.Float32bits(0))
	}
	return cr
}

// pop removes the last literal, moving the extra word (Clause::pop).
func (a *arena) pop(cr cref) {
	h := a.mem[cr]
	n := h >> 5
	if h&hdrExtra != 0 {
		a.mem[cr+n] = a.mem[cr+n+1]
	}
	a.mem[cr] = h - 32
}

type watcher struct {
	cr      cref
	blocker lit
}

type varData struct {
	reason cref
	level  int32
}

type shrinkElem struct {
	i uint32
	l lit
}

// varHeap is MiniSat's Heap<Var, VarOrderLt>: a binary heap ordered by
// decreasing activity, with MiniSat's exact percolation rules.
type varHeap struct {
	heap    []int32
	indices []int32
	act     *[]float64
}

func (h *varHeap) lt(x, y int32) bool { return (*h.act)[x] > (*h.act)[y] }
func (h *varHeap) inHeap(v int32) bool {
	return int(v) < len(h.indices) && h.indices[v] >= 0
}

func (h *varHeap) percolateUp(i int32) {
	x := h.heap[i]
	for i != 0 {
		p := (i - 1) >> 1
		if !h.lt(x, h.heap[p]) {
			break
		}
		h.place(i, h.heap[p])
		i = p
	}
	h.place(i, x)
}

func (h *varHeap) percolateDown(i int32) {
	x := h.heap[i]
	n := int32(len(h.heap))
	for 2*i+1 < n {
		child := 2*i + 1
		if r := 2*i + 2; r < n && h.lt(h.heap[r], h.heap[child]) {
			child = r
		}
		if !h.lt(h.heap[child], x) {
			break
		}
		h.place(i, h.heap[child])
		i = child
	}
	h.place(i, x)
}

// place puts variable v at position i of the heap.
func (h *varHeap) place(i, v int32) {
	h.heap[i] = v
	h.indices[v] = i
}

func (h *varHeap) reserve(v int32) {
	for int(v) >= len(h.indices) {
		h.indices = append(h.indices, -1)
	}
}

func (h *varHeap) insert(v int32) {
	h.reserve(v)
	h.indices[v] = int32(len(h.heap))
	h.heap = append(h.heap, v)
	h.percolateUp(h.indices[v])
}

func (h *varHeap) removeMin() int32 {
	x := h.heap[0]
	h.place(0, h.heap[len(h.heap)-1])
	h.indices[x] = -1
	h.heap = h.heap[:len(h.heap)-1]
	if len(h.heap) > 1 {
		h.percolateDown(0)
	}
	return x
}

func (h *varHeap) build(ns []int32) {
	for _, v := range h.heap {
		h.indices[v] = -1
	}
	h.heap = h.heap[:0]
	for i, v := range ns {
		h.indices[v] = int32(i)
		h.heap = append(h.heap, v)
	}
	for i := int32(len(h.heap))/2 - 1; i >= 0; i-- {
		h.percolateDown(i)
	}
}

// minisat is the solver state (Solver + the parts of SimpSolver that stay
// active after eliminate(true)).
type minisat struct {
	ok          bool
	clauses     []cref
	learnts     []cref
	trail       []lit
	trailLim    []int32
	qhead       int
	assigns     []lbool
	polarity    []bool // true: branch on the negative literal
	vardata     []varData
	activity    []float64
	seen        []byte
	orderHeap   varHeap
	watches     [][]watcher
	dirty       []bool
	dirties     []lit
	ca          arena
	claInc      float64
	varInc      float64
	assumptions []lit
	conflict    []lit
	inConflict  []bool
	model       []lbool

	simpDBAssigns int
	simpDBProps   int64

	maxLearnts            float64
	learntsizeAdjustConfl float64
	learntsizeAdjustCnt   int

	analyzeStack   []shrinkElem
	analyzeToclear []lit
	addTmp         []lit
	learntClause   []lit

	nextVar int32

	// Statistics (only those that influence the search, plus a few for
	// diagnostics).
	solves, starts, decisions, propagations, conflicts               uint64
	numClauses, numLearnts, clausesLiterals, learntsLits             uint64
	reduceDBs, garbageCollects, simplifies, varRescales, claRescales int
}

// newMinisat returns the solver as minisat_wrapper's createTheSolver leaves
// it: a SimpSolver after eliminate(true) (whose only lasting effects here are
// simpDB_assigns = 0 and simpDB_props = 0 from its simplify() call) plus the
// unused variable 0.
func newMinisat() *minisat {
	s := &minisat{ok: true, claInc: 1, varInc: 1, simpDBAssigns: -1}
	s.orderHeap.act = &s.activity
	// eliminate(true) on the empty solver:
	s.simplify()
	s.newVar()
	return s
}

func (s *minisat) nAssigns() int      { return len(s.trail) }
func (s *minisat) decisionLevel() int { return len(s.trailLim) }

func (s *minisat) value(p lit) lbool      { return s.assigns[p>>1] ^ p.signU() }
func (s *minisat) valueVar(v int32) lbool { return s.assigns[v] }
func (s *minisat) level(v int32) int32    { return s.vardata[v].level }
func (s *minisat) reason(v int32) cref    { return s.vardata[v].reason }

func (s *minisat) newVar() int32 {
	v := s.nextVar
	s.nextVar++
	s.watches = append(s.watches, nil, nil)
	s.dirty = append(s.dirty, false, false)
	s.inConflict = append(s.inConflict, false, false)
	s.assigns = append(s.assigns, lUndef)
	s.vardata = append(s.vardata, varData{crefUndef, 0})
	s.activity = append(s.activity, 0)
	s.seen = append(s.seen, 0)
	s.polarity = append(s.polarity, true)
	s.orderHeap.reserve(v)
	s.insertVarOrder(v)
	return v
}

func (s *minisat) insertVarOrder(v int32) {
	if !s.orderHeap.inHeap(v) { // every variable is a decision variable
		s.orderHeap.insert(v)
	}
}

// Watch lists (OccLists with lazy deletion).

func (s *minisat) smudge(p lit) {
	if !s.dirty[p] {
		s.dirty[p] = true
		s.dirties = append(s.dirties, p)
	}
}

func (s *minisat) cleanWatches(p lit) {
	ws := s.watches[p]
	j := 0
	for _, w := range ws {
		if s.ca.mark(w.cr) != 1 {
			ws[j] = w
			j++
		}
	}
	s.watches[p] = ws[:j]
	s.dirty[p] = false
}

func (s *minisat) cleanAllWatches() {
	for _, p := range s.dirties {
		if s.dirty[p] {
			s.cleanWatches(p)
		}
	}
	s.dirties = s.dirties[:0]
}

func (s *minisat) lookupWatches(p lit) []watcher {
	if s.dirty[p] {
		s.cleanWatches(p)
	}
	return s.watches[p]
}

// addClause_ (Solver::addClause_). ps is modified.
func (s *minisat) addClause(ps []lit) bool {
	if !s.ok {
		return false
	}
	sortLits(ps)
	p := litUndef
	j := 0
	for i := 0; i < len(ps); i++ {
		if isTrue(s.value(ps[i])) || ps[i] == p.neg() {
			return true
		} else if !isFalse(s.value(ps[i])) && ps[i] != p {
			p = ps[i]
			ps[j] = p
			j++
		}
	}
	ps = ps[:j]
	switch len(ps) {
	case 0:
		s.ok = false
		return false
	case 1:
		s.uncheckedEnqueue(ps[0], crefUndef)
		s.ok = s.propagate() == crefUndef
		return s.ok
	}
	cr := s.ca.alloc(ps, false)
	s.clauses = append(s.clauses, cr)
	s.attachClause(cr)
	return true
}

func sortLits(ps []lit) {
	// Literals are plain integers: any correct sort gives MiniSat's order.
	for i := 1; i < len(ps); i++ {
		x := ps[i]
		j := i - 1
		for j >= 0 && ps[j] > x {
			ps[j+1] = ps[j]
			j--
		}
		ps[j+1] = x
	}
}

func (s *minisat) attachClause(cr cref) {
	c0, c1 := s.ca.get(cr, 0), s.ca.get(cr, 1)
	s.watches[c0.neg()] = append(s.watches[c0.neg()], watcher{cr, c1})
	s.watches[c1.neg()] = append(s.watches[c1.neg()], watcher{cr, c0})
	if s.ca.learnt(cr) {
		s.numLearnts++
		s.learntsLits += uint64(s.ca.size(cr))
	} else {
		s.numClauses++
		s.clausesLiterals += uint64(s.ca.size(cr))
	}
}

func (s *minisat) detachClause(cr cref) {
	s.smudge(s.ca.get(cr, 0).neg())
	s.smudge(s.ca.get(cr, 1).neg())
	if s.ca.learnt(cr) {
		s.numLearnts--
		s.learntsLits -= uint64(s.ca.size(cr))
	} else {
		s.numClauses--
		s.clausesLiterals -= uint64(s.ca.size(cr))
	}
}

func (s *minisat) locked(cr cref) bool {
	c0 := s.ca.get(cr, 0)
	if !isTrue(s.value(c0)) {
		return false
	}
	r := s.reason(c0.v())
	return r != crefUndef && r == cr
}

func (s *minisat) removeClause(cr cref) {
	s.detachClause(cr)
	if s.locked(cr) {
		s.vardata[s.ca.get(cr, 0).v()].reason = crefUndef
	}
	s.ca.setMark(cr, 1)
	s.ca.wasted += s.ca.words(cr)
}

func (s *minisat) satisfied(cr cref) bool {
	n := s.ca.size(cr)
	for i := range n {
		if isTrue(s.value(s.ca.get(cr, i))) {
			return true
		}
	}
	return false
}

func (s *minisat) cancelUntil(level int) {
	if s.decisionLevel() > level {
		lim := int(s.trailLim[level])
		for c := len(s.trail) - 1; c >= lim; c-- {
			x := s.trail[c].v()
			s.assigns[x] = lUndef
			if optPhaseSaving > 1 || (optPhaseSaving == 1 && c > int(s.trailLim[len(s.trailLim)-1])) {
				s.polarity[x] = s.trail[c].sign()
			}
			s.insertVarOrder(x)
		}
		s.qhead = lim
		s.trail = s.trail[:lim]
		s.trailLim = s.trailLim[:level]
	}
}

func (s *minisat) newDecisionLevel() {
	s.trailLim = append(s.trailLim, int32(len(s.trail)))
}

func (s *minisat) uncheckedEnqueue(p lit, from cref) {
	v := p.v()
	s.assigns[v] = p.signU()
	s.vardata[v] = varData{from, int32(s.decisionLevel())}
	s.trail = append(s.trail, p)
}

// pickBranchLit. random_var_freq is 0 and rnd_pol false, so the random
// number generator never changes the outcome and is left out.
func (s *minisat) pickBranchLit() lit {
	next := int32(-1)
	for next == -1 || !isUndef(s.valueVar(next)) {
		if len(s.orderHeap.heap) == 0 {
			next = -1
			break
		}
		next = s.orderHeap.removeMin()
	}
	if next == -1 {
		return litUndef
	}
	return mkLit(next, s.polarity[next])
}

func (s *minisat) varBumpActivity(v int32) {
	s.activity[v] += s.varInc
	if s.activity[v] > 1e100 {
		s.varRescales++
		n := int(s.nextVar)
		for i := range n {
			s.activity[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.orderHeap.inHeap(v) {
		s.orderHeap.percolateUp(s.orderHeap.indices[v])
	}
}

// claBumpActivity. The Emscripten build compares the double sum, before it
// is rounded into the float32 activity, against 1e20.
func (s *minisat) claBumpActivity(cr cref) {
	sum := s.claInc + float64(s.ca.activity(cr))
	s.ca.setActivity(cr, float32(sum))
	if sum > 1e20 {
		s.claRescales++
		for _, l := range s.learnts {
			s.ca.setActivity(l, float32(float64(s.ca.activity(l))*1e-20))
		}
		s.claInc *= 1e-20
	}
}

func (s *minisat) analyze(confl cref) (outLearnt []lit, outBtlevel int) {
	pathC := 0
	p := litUndef
	outLearnt = append(s.learntClause[:0], 0)
	index := len(s.trail) - 1

	for {
		if s.ca.learnt(confl) {
			s.claBumpActivity(confl)
		}
		j := 0
		if p != litUndef {
			j = 1
		}
		for n := s.ca.size(confl); j < n; j++ {
			q := s.ca.get(confl, j)
			v := q.v()
			if s.seen[v] == 0 && s.level(v) > 0 {
				s.varBumpActivity(v)
				s.seen[v] = 1
				if int(s.level(v)) >= s.decisionLevel() {
					pathC++
				} else {
					outLearnt = append(outLearnt, q)
				}
			}
		}
		for s.seen[s.trail[index].v()] == 0 {
			index--
		}
		index--
		p = s.trail[index+1]
		confl = s.reason(p.v())
		s.seen[p.v()] = 0
		pathC--
		if pathC <= 0 {
			break
		}
	}
	outLearnt[0] = p.neg()

	// Conflict clause minimisation, ccmin_mode 2 (deep).
	s.analyzeToclear = append(s.analyzeToclear[:0], outLearnt...)
	i, j := 1, 1
	for ; i < len(outLearnt); i++ {
		if s.reason(outLearnt[i].v()) == crefUndef || !s.litRedundant(outLearnt[i]) {
			outLearnt[j] = outLearnt[i]
			j++
		}
	}
	outLearnt = outLearnt[:j]

	if len(outLearnt) == 1 {
		outBtlevel = 0
	} else {
		maxI := 1
		for k := 2; k < len(outLearnt); k++ {
			if s.level(outLearnt[k].v()) > s.level(outLearnt[maxI].v()) {
				maxI = k
			}
		}
		q := outLearnt[maxI]
		outLearnt[maxI] = outLearnt[1]
		outLearnt[1] = q
		outBtlevel = int(s.level(q.v()))
	}
	for _, q := range s.analyzeToclear {
		s.seen[q.v()] = 0
	}
	s.learntClause = outLearnt
	return outLearnt, outBtlevel
}

const (
	seenUndef     = 0
	seenSource    = 1
	seenRemovable = 2
	seenFailed    = 3
)

// litRedundant: the non-recursive version with failure caching.
func (s *minisat) litRedundant(p lit) bool {
	c := s.reason(p.v())
	stack := s.analyzeStack[:0]
	for i := uint32(1); ; i++ {
		if i < uint32(s.ca.size(c)) {
			l := s.ca.get(c, int(i))
			lv := l.v()
			if s.level(lv) == 0 || s.seen[lv] == seenSource || s.seen[lv] == seenRemovable {
				continue
			}
			if s.reason(lv) == crefUndef || s.seen[lv] == seenFailed {
				stack = append(stack, shrinkElem{0, p})
				for _, e := range stack {
					if s.seen[e.l.v()] == seenUndef {
						s.seen[e.l.v()] = seenFailed
						s.analyzeToclear = append(s.analyzeToclear, e.l)
					}
				}
				s.analyzeStack = stack[:0]
				return false
			}
			stack = append(stack, shrinkElem{i, p})
			i = 0
			p = l
			c = s.reason(p.v())
		} else {
			if s.seen[p.v()] == seenUndef {
				s.seen[p.v()] = seenRemovable
				s.analyzeToclear = append(s.analyzeToclear, p)
			}
			if len(stack) == 0 {
				break
			}
			top := stack[len(stack)-1]
			i = top.i
			p = top.l
			c = s.reason(p.v())
			stack = stack[:len(stack)-1]
		}
	}
	s.analyzeStack = stack[:0]
	return true
}

func (s *minisat) conflictInsert(p lit) {
	if !s.inConflict[p] {
		s.inConflict[p] = true
		s.conflict = append(s.conflict, p)
	}
}

func (s *minisat) conflictClear() {
	for _, p := range s.conflict {
		s.inConflict[p] = false
	}
	s.conflict = s.conflict[:0]
}

func (s *minisat) analyzeFinal(p lit) {
	s.conflictClear()
	s.conflictInsert(p)
	if s.decisionLevel() == 0 {
		return
	}
	s.seen[p.v()] = 1
	for i := len(s.trail) - 1; i >= int(s.trailLim[0]); i-- {
		x := s.trail[i].v()
		if s.seen[x] != 0 {
			if r := s.reason(x); r == crefUndef {
				s.conflictInsert(s.trail[i].neg())
			} else {
				n := s.ca.size(r)
				for j := 1; j < n; j++ {
					if v := s.ca.get(r, j).v(); s.level(v) > 0 {
						s.seen[v] = 1
					}
				}
			}
			s.seen[x] = 0
		}
	}
	s.seen[p.v()] = 0
}

func (s *minisat) propagate() cref {
	confl := crefUndef
	numProps := 0
	mem := s.ca.mem
	assigns := s.assigns // value(q) is assigns[q>>1] ^ q&1
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		ws := s.lookupWatches(p)
		numProps++
		i, j, end := 0, 0, len(ws)
		falseLit := p.neg()
	next:
		for i != end {
			blocker := ws[i].blocker
			if assigns[blocker>>1]^byte(blocker&1) == lTrue {
				ws[j] = ws[i]
				j++
				i++
				continue
			}
			cr := ws[i].cr
			c := mem[cr+1 : cr+1+mem[cr]>>5]
			if lit(c[0]) == falseLit {
				c[0] = c[1]
				c[1] = uint32(falseLit)
			}
			i++
			first := lit(c[0])
			w := watcher{cr, first}
			vFirst := assigns[first>>1] ^ byte(first&1)
			if first != blocker && vFirst == lTrue {
				ws[j] = w
				j++
				continue
			}
			for k := 2; k < len(c); k++ {
				q := c[k]
				if assigns[q>>1]^byte(q&1) != lFalse {
					c[1] = q
					c[k] = uint32(falseLit)
					nw := lit(q).neg()
					s.watches[nw] = append(s.watches[nw], w)
					continue next
				}
			}
			ws[j] = w
			j++
			if vFirst == lFalse {
				confl = cr
				s.qhead = len(s.trail)
				j += copy(ws[j:], ws[i:end])
				i = end
			} else {
				s.uncheckedEnqueue(first, cr)
			}
		}
		s.watches[p] = ws[:j]
	}
	s.propagations += uint64(numProps)
	s.simpDBProps -= int64(numProps)
	return confl
}

// reduceDB_lt
func (s *minisat) reduceLess(x, y cref) bool {
	return s.ca.size(x) > 2 && (s.ca.size(y) == 2 || s.ca.activity(x) < s.ca.activity(y))
}

// sortLearnts is MiniSat's sort (Sort.h): selection sort up to 15
// elements, otherwise quicksort around the middle element. The comparator
// is not a total order, so the algorithm itself matters.
func (s *minisat) sortLearnts(a []cref) {
	if len(a) <= 15 {
		for i := 0; i < len(a)-1; i++ {
			best := i
			for j := i + 1; j < len(a); j++ {
				if s.reduceLess(a[j], a[best]) {
					best = j
				}
			}
			a[i], a[best] = a[best], a[i]
		}
		return
	}
	pivot := a[len(a)/2]
	i, j := -1, len(a)
	for {
		i++
		for s.reduceLess(a[i], pivot) {
			i++
		}
		j--
		for s.reduceLess(pivot, a[j]) {
			j--
		}
		if i >= j {
			break
		}
		a[i], a[j] = a[j], a[i]
	}
	s.sortLearnts(a[:i])
	s.sortLearnts(a[i:])
}

func (s *minisat) reduceDB() {
	s.reduceDBs++
	extraLim := s.claInc / float64(len(s.learnts))
	s.sortLearnts(s.learnts)
	j := 0
	n := len(s.learnts)
	for i := range n {
		cr := s.learnts[i]
		if s.ca.size(cr) > 2 && !s.locked(cr) && (i < n/2 || float64(s.ca.activity(cr)) < extraLim) {
			s.removeClause(cr)
		} else {
			s.learnts[j] = cr
			j++
		}
	}
	s.learnts = s.learnts[:j]
	s.checkGarbage()
}

func (s *minisat) removeSatisfied(cs []cref) []cref {
	j := 0
	for i := range cs {
		cr := cs[i]
		if s.satisfied(cr) {
			s.removeClause(cr)
		} else {
			for k := 2; k < s.ca.size(cr); k++ {
				if isFalse(s.value(s.ca.get(cr, k))) {
					s.ca.set(cr, k, s.ca.get(cr, s.ca.size(cr)-1))
					k--
					s.ca.pop(cr)
				}
			}
			cs[j] = cr
			j++
		}
	}
	return cs[:j]
}

func (s *minisat) rebuildOrderHeap() {
	vs := make([]int32, 0, s.nextVar)
	for v := int32(0); v < s.nextVar; v++ {
		if isUndef(s.valueVar(v)) {
			vs = append(vs, v)
		}
	}
	s.orderHeap.build(vs)
}

func (s *minisat) simplify() bool {
	if !s.ok || s.propagate() != crefUndef {
		s.ok = false
		return false
	}
	if s.nAssigns() == s.simpDBAssigns || s.simpDBProps > 0 {
		return true
	}
	s.simplifies++
	s.learnts = s.removeSatisfied(s.learnts)
	// remove_satisfied is true (no released variables to drop from the
	// trail).
	s.clauses = s.removeSatisfied(s.clauses)
	s.qhead = len(s.trail)
	s.checkGarbage()
	s.rebuildOrderHeap()
	s.simpDBAssigns = s.nAssigns()
	s.simpDBProps = int64(s.clausesLiterals + s.learntsLits)
	return true
}

func (s *minisat) search(nofConflicts int) lbool {
	conflictC := 0
	s.starts++
	for {
		confl := s.propagate()
		if confl != crefUndef {
			s.conflicts++
			conflictC++
			if s.decisionLevel() == 0 {
				return lFalse
			}
			learnt, btlevel := s.analyze(confl)
			s.cancelUntil(btlevel)
			if len(learnt) == 1 {
				s.uncheckedEnqueue(learnt[0], crefUndef)
			} else {
				cr := s.ca.alloc(learnt, true)
				s.learnts = append(s.learnts, cr)
				s.attachClause(cr)
				s.claBumpActivity(cr)
				s.uncheckedEnqueue(learnt[0], cr)
			}
			// Computed at run time, like C does: a Go constant expression
			// 1/0.95 would be rounded differently.
			s.varInc = (1 / varDecay) * s.varInc
			s.claInc = (1 / clauseDecay) * s.claInc
			s.learntsizeAdjustCnt--
			if s.learntsizeAdjustCnt == 0 {
				s.learntsizeAdjustConfl *= optLearntsizeAdjInc
				s.learntsizeAdjustCnt = int(s.learntsizeAdjustConfl)
				s.maxLearnts *= optLearntsizeInc
			}
		} else {
			if nofConflicts >= 0 && conflictC >= nofConflicts {
				s.cancelUntil(0)
				return lUndef
			}
			if s.decisionLevel() == 0 && !s.simplify() {
				return lFalse
			}
			if float64(len(s.learnts)-s.nAssigns()) >= s.maxLearnts {
				s.reduceDB()
			}
			next := litUndef
			for s.decisionLevel() < len(s.assumptions) {
				p := s.assumptions[s.decisionLevel()]
				if v := s.value(p); isTrue(v) {
					s.newDecisionLevel()
				} else if isFalse(v) {
					s.analyzeFinal(p.neg())
					return lFalse
				} else {
					next = p
					break
				}
			}
			if next == litUndef {
				s.decisions++
				next = s.pickBranchLit()
				if next == litUndef {
					return lTrue
				}
			}
			s.newDecisionLevel()
			s.uncheckedEnqueue(next, crefUndef)
		}
	}
}

func luby(y float64, x int) float64 {
	size, seq := 1, 0
	for size < x+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != x {
		size = (size - 1) >> 1
		seq--
		x = x % size
	}
	return math.Pow(y, float64(seq))
}

func (s *minisat) solve() lbool {
	s.model = s.model[:0]
	s.conflictClear()
	if !s.ok {
		return lFalse
	}
	s.solves++
	s.maxLearnts = optLearntsizeFactor * float64(int32(s.numClauses))
	if s.maxLearnts < optMinLearntsLim {
		s.maxLearnts = optMinLearntsLim
	}
	s.learntsizeAdjustConfl = optLearntsizeAdjStart
	s.learntsizeAdjustCnt = optLearntsizeAdjStart
	status := lUndef
	for curr := 0; isUndef(status); curr++ {
		var restBase float64
		if optLubyRestart {
			restBase = luby(optRestartInc, curr)
		} else {
			restBase = math.Pow(optRestartInc, float64(curr))
		}
		status = s.search(int(restBase * optRestartFirst))
	}
	if isTrue(status) {
		s.model = append(s.model, s.assigns[:s.nextVar]...)
	} else if isFalse(status) && len(s.conflict) == 0 {
		s.ok = false
	}
	s.cancelUntil(0)
	return status
}

// Garbage collection. Relocation keeps every list in its order, so its
// timing has no influence on the search; it only bounds memory.

func (s *minisat) checkGarbage() {
	if float64(s.ca.wasted) > float64(len(s.ca.mem))*optGarbageFrac {
		s.garbageCollect()
	}
}

func (s *minisat) reloc(to *arena, cr cref) cref {
	if s.ca.mem[cr]&hdrReloced != 0 {
		return cref(s.ca.mem[cr+1])
	}
	n := s.ca.words(cr)
	nc := cref(len(to.mem))
	to.mem = append(to.mem, s.ca.mem[cr:cr+n]...)
	s.ca.mem[cr] |= hdrReloced
	s.ca.mem[cr+1] = nc
	return nc
}

func (s *minisat) garbageCollect() {
	s.garbageCollects++
	to := arena{mem: make([]uint32, 0, len(s.ca.mem)-int(s.ca.wasted))}
	s.cleanAllWatches()
	for p := range s.watches {
		ws := s.watches[p]
		for k := range ws {
			ws[k].cr = s.reloc(&to, ws[k].cr)
		}
	}
	for _, p := range s.trail {
		v := p.v()
		r := s.vardata[v].reason
		if r != crefUndef && (s.ca.mem[r]&hdrReloced != 0 || s.locked(r)) {
			s.vardata[v].reason = s.reloc(&to, r)
		}
	}
	j := 0
	for _, cr := range s.learnts {
		if s.ca.mark(cr) != 1 {
			s.learnts[j] = s.reloc(&to, cr)
			j++
		}
	}
	s.learnts = s.learnts[:j]
	j = 0
	for _, cr := range s.clauses {
		if s.ca.mark(cr) != 1 {
			s.clauses[j] = s.reloc(&to, cr)
			j++
		}
	}
	s.clauses = s.clauses[:j]
	s.ca = to
}
