package solver

import (
	"context"
	"errors"
	"fmt"
)

// Knowledge compilation for configuration spaces (spaces.md §2): a DPLL
// search with unit propagation, component decomposition and a component
// cache, recorded as a Decision-DNNF circuit over the projection variables
// (the approach of sharpSAT, d4 and c2d). Every query of spaces.md §3 is then
// a linear pass over the circuit (circuit.go).
//
// The search is projected (spaces.md §1): it decides only projection
// variables while a component holds one. A component without projection
// variables counts as 1 when it is satisfiable and 0 otherwise, so auxiliary
// variables are never counted, whether or not the encoding defines them
// fully. Propagation runs over all variables, which is what makes this fast
// on Tseitin encodings: deciding the projection variables fixes the rest.
//
// The engine is our own (no gophersat): it needs undo, which gophersat does
// not offer soundly (solver.md §4), and its satisfiability verdicts are
// cross-checked against gophersat in the tests.

// CompileOptions tune Compile.
type CompileOptions struct {
	// MaxNodes bounds the number of decision nodes of the circuit (0: the
	// default, DefaultMaxNodes). Compile fails with ErrTooLarge beyond it.
	MaxNodes int
}

// DefaultMaxNodes is the default bound on the circuit's decision nodes: a
// few gigabytes at most.
const DefaultMaxNodes = 20_000_000

// ErrTooLarge is returned (wrapped) when a circuit would exceed its bound.
var ErrTooLarge = errors.New("the configuration space is too large to compile")

// Node ids below zero are constants.
const (
	nodeFalse int32 = -1
	nodeTrue  int32 = -2
)

// comp is a connected component of the residual formula: its unassigned
// variables and alive clauses, stored in the engine's stacks.
type comp struct {
	vOff, vN, cOff, cN int32
	proj               int32 // projection variables among the variables
	bestProj, bestAny  int32 // variables to decide next
	h1, h2             uint64
}

type compKey struct {
	h1, h2 uint64
	vN, cN int32
}

type cengine struct {
	ctx   context.Context
	nv    int
	lits  [][]int32 // clauses; the first two literals are watched
	occ   [][]int32 // variable → clauses of three or more literals that contain it
	bin   [][]int32 // variable → the variables it shares a binary clause with
	watch [][]int32 // literal index → clauses watching the literal
	val   []int8
	trail []int32
	qhead int
	pidx  []int32 // variable → projection index + 1, or 0

	vstamp, cstamp, cdead []uint32
	stamp                 uint32
	score                 []int32
	vhash, chash          []uint64 // two hashes per variable and clause
	rank                  []int32  // elimination ranks, or nil
	vbuf, cbuf            []int32

	cache    map[compKey]int32
	c        *Circuit
	maxNodes int
	calls    int
}

// Compile compiles cnf into a circuit over projection (distinct variables).
// The circuit represents the distinct assignments of the projection
// variables that extend to a model of cnf.
func Compile(ctx context.Context, cnf *CNF, projection []int, opts CompileOptions) (*Circuit, error) {
	if err := validateCNF(cnf); err != nil {
		return nil, err
	}
	if err := validateVars("projection", cnf.NumVars, projection); err != nil {
		return nil, err
	}
	nv := cnf.NumVars
	pidx := make([]int32, nv+1)
	for i, v := range projection {
		if pidx[v] != 0 {
			return nil, fmt.Errorf("solver: projection: variable %d repeated", v)
		}
		pidx[v] = int32(i + 1)
	}
	c := &Circuit{proj: append([]int(nil), projection...), root: -1, alias: make([]int32, len(projection))}
	clauses, rep, ok := substitute(nv, cnf.all(), pidx)
	if !ok {
		return c, nil
	}
	// A projection variable merged into another one is an alias of it: the
	// circuit decides the representative only.
	for i, v := range projection {
		r := rep[v]
		if abs32(r) == int32(v) {
			continue
		}
		j := pidx[abs32(r)]
		if j == 0 {
			panic("solver: the representative of a projection variable is not projected")
		}
		if r < 0 {
			j = -j
		}
		c.alias[i] = j
		pidx[v] = 0
	}
	e := newEngine(ctx, nv, pidx, opts)
	e.c = c
	if !e.load(clauses) || !e.propagate() {
		return c, nil
	}
	size := 0
	for _, cl := range e.lits {
		size += len(cl)
	}
	e.rank = eliminationRanks(nv, e.lits, e.val, 16*size+1<<21)
	e.cstamp = make([]uint32, len(e.lits))
	e.cdead = make([]uint32, len(e.lits))
	e.vhash = make([]uint64, 2*nv+2)
	for v := range nv + 1 {
		e.vhash[2*v] = mix(uint64(v))
		e.vhash[2*v+1] = mix(uint64(v) ^ 0x5bd1e9955bd1e995)
	}
	e.chash = make([]uint64, 2*len(e.lits))
	for ci := range e.lits {
		e.chash[2*ci] = mix(uint64(ci) | 1<<40)
		e.chash[2*ci+1] = mix(uint64(ci) ^ 0x2545f4914f6cdd1d)
	}
	for v := 1; v <= nv; v++ {
		e.vbuf = append(e.vbuf, int32(v))
	}
	root := comp{vOff: 0, vN: int32(nv)}
	br, err := e.branch(root, 0, -1)
	if err != nil {
		return nil, err
	}
	c.root = br
	return c, nil
}

func newEngine(ctx context.Context, nv int, pidx []int32, opts CompileOptions) *cengine {
	e := &cengine{
		ctx:      ctx,
		nv:       nv,
		occ:      make([][]int32, nv+1),
		bin:      make([][]int32, nv+1),
		watch:    make([][]int32, 2*nv+2),
		val:      make([]int8, nv+1),
		pidx:     pidx,
		vstamp:   make([]uint32, nv+1),
		score:    make([]int32, nv+1),
		cache:    map[compKey]int32{},
		maxNodes: opts.MaxNodes,
	}
	if e.maxNodes <= 0 {
		e.maxNodes = DefaultMaxNodes
	}
	return e
}

// substitute merges equivalent variables (spaces.md §2: fewer variables
// make every component smaller). Two literals are equivalent when they
// imply each other through binary clauses: a strongly connected component
// of the implication graph. Each class keeps one representative, a
// projection variable when the class has one (the first in projection
// order), and every other variable is replaced by it. Encodings are full of
// such classes: an element, its manual variable, its type and the free
// variable of its condition are often all the same choice. It returns the
// rewritten clauses (fixed literals as units) and each variable's
// representative literal; ok is false when the formula is unsatisfiable.
func substitute(nv int, clauses [][]int, pidx []int32) (out [][]int, rep []int32, ok bool) {
	rep = make([]int32, nv+1)
	for v := range rep {
		rep[v] = int32(v)
	}
	out = clauses
	for range 4 {
		e := newEngine(context.Background(), nv, pidx, CompileOptions{})
		if !e.load(out) || !e.propagate() {
			return nil, nil, false
		}
		eq, unsat := e.equivalences()
		if unsat {
			return nil, nil, false
		}
		mapLit := func(l int32) int32 {
			if eq == nil {
				return l
			}
			r := eq[abs32(l)]
			if l < 0 {
				return -r
			}
			return r
		}
		if eq != nil {
			for v := 1; v <= nv; v++ {
				rep[v] = mapLit(rep[v])
			}
		}
		// The residual: fixed literals as units, the other clauses without
		// their false literals.
		next := make([][]int, 0, len(e.lits)+len(e.trail))
		for _, l := range e.trail {
			next = append(next, []int{int(mapLit(l))})
		}
		for _, cl := range e.lits {
			if e.satisfied(cl) {
				continue
			}
			nc := make([]int, 0, len(cl))
			for _, l := range cl {
				if e.litVal(l) == 0 {
					nc = append(nc, int(mapLit(l)))
				}
			}
			next = append(next, nc)
		}
		out = next
		if eq == nil {
			break
		}
	}
	return out, rep, true
}

// equivalences finds the classes of equivalent literals among the
// unassigned variables with Tarjan's algorithm on the implication graph of
// the binary residual clauses. It returns each variable's representative
// literal, or nil when no two variables are equivalent; unsat reports a
// variable equivalent to its own negation.
func (e *cengine) equivalences() (eq []int32, unsat bool) {
	ig := e.implications()
	if len(ig.to) == 0 {
		return nil, false
	}
	comp, ncomp := e.components(&ig)
	return e.representatives(comp, ncomp)
}

// implGraph is an implication graph over literal indexes (litIdx), as
// linked lists of edges: the edges out of index i are to[j] for j =
// head[i], next[j], next[next[j]], … while j ≥ 0.
type implGraph struct {
	head, next, to []int32
}

func (ig *implGraph) addEdge(from, t int32) {
	ig.next = append(ig.next, ig.head[litIdx(from)])
	ig.to = append(ig.to, t)
	ig.head[litIdx(from)] = int32(len(ig.to) - 1)
}

// implications is the implication graph of the binary residual clauses:
// edges ¬a → b and ¬b → a per clause (a ∨ b) that is not satisfied and has
// exactly two unassigned literals.
func (e *cengine) implications() implGraph {
	ig := implGraph{head: make([]int32, 2*e.nv+2)}
	for i := range ig.head {
		ig.head[i] = -1
	}
	for _, cl := range e.lits {
		var un [2]int32
		k := 0
		sat := false
		for _, l := range cl {
			switch e.litVal(l) {
			case 1:
				sat = true
			case 0:
				if k < 2 {
					un[k] = l
				}
				k++
			}
		}
		if sat || k != 2 {
			continue
		}
		ig.addEdge(-un[0], un[1])
		ig.addEdge(-un[1], un[0])
	}
	return ig
}

// components numbers the strongly connected components of the implication
// graph among the unassigned literals (Tarjan's algorithm, with an
// explicit call stack): comp maps a literal index to its component, -1
// for none; ncomp is the number of components.
func (e *cengine) components(ig *implGraph) (comp []int32, ncomp int32) {
	n := len(ig.head)
	head, next, to := ig.head, ig.next, ig.to
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	comp = make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	var stack []int32
	counter := int32(0)
	type frame struct {
		v    int32
		edge int32
	}
	var call []frame
	for start := 2; start < n; start++ {
		if index[start] != 0 || e.val[start>>1] != 0 || head[start] < 0 {
			continue
		}
		call = append(call, frame{v: int32(start), edge: head[start]})
		counter++
		index[start], low[start] = counter, counter
		stack = append(stack, int32(start))
		onStack[start] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.edge >= 0 {
				w := int32(litIdx(to[f.edge]))
				f.edge = next[f.edge]
				if index[w] == 0 {
					counter++
					index[w], low[w] = counter, counter
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w, edge: head[w]})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp, ncomp
}

// representatives picks the representative of each class of equivalent
// literals: its first projection variable, else its smallest variable;
// chosen per class, then mirrored onto the complementary class. It returns
// nil where no variable has another representative than itself, and unsat
// where a literal and its negation share a class.
func (e *cengine) representatives(comp []int32, ncomp int32) (eq []int32, unsat bool) {
	best := make([]int32, ncomp)
	for idx := 2; idx < len(comp); idx++ {
		c := comp[idx]
		if c < 0 {
			continue
		}
		if comp[idx^1] == c {
			return nil, true
		}
		l := idxLit(idx)
		if b := best[c]; b == 0 || e.betterRep(abs32(l), abs32(b)) {
			best[c] = l
		}
	}
	eq = make([]int32, e.nv+1)
	merged := false
	for v := 1; v <= e.nv; v++ {
		eq[v] = int32(v)
		c := comp[2*v]
		if c < 0 {
			continue
		}
		// The better of the representatives of v's class and of ¬v's.
		r, nr := best[c], best[comp[2*v+1]]
		if e.betterRep(abs32(nr), abs32(r)) {
			r = -nr
		}
		if r != int32(v) {
			eq[v] = r
			merged = true
		}
	}
	if !merged {
		return nil, false
	}
	return eq, false
}

// betterRep reports whether variable a makes a better representative than
// b: projection variables first, in projection order, then the smaller.
func (e *cengine) betterRep(a, b int32) bool {
	pa, pb := e.pidx[a], e.pidx[b]
	switch {
	case pa != 0 && pb != 0:
		return pa < pb
	case pa != 0:
		return true
	case pb != 0:
		return false
	}
	return a < b
}

// idxLit is the literal of a literal index (the inverse of litIdx).
func idxLit(idx int) int32 {
	if idx&1 == 1 {
		return -int32(idx >> 1)
	}
	return int32(idx >> 1)
}

// load copies the clauses without repeated literals and tautologies, fixes
// unit clauses and sets up the watches. It reports false for an empty
// clause or contradicting units.
func (e *cengine) load(clauses [][]int) bool {
	ok := true
	seen := make([]int8, e.nv+1)
	for _, c := range clauses {
		cl := make([]int32, 0, len(c))
		taut := false
		for _, l := range c {
			v := abs(l)
			s := int8(1)
			if l < 0 {
				s = -1
			}
			switch seen[v] {
			case 0:
				seen[v] = s
				cl = append(cl, int32(l))
			case -s:
				taut = true
			}
		}
		for _, l := range cl {
			seen[abs32(l)] = 0
		}
		if taut {
			continue
		}
		switch len(cl) {
		case 0:
			ok = false
			continue
		case 1:
			if !e.assign(cl[0]) {
				ok = false
			}
			continue
		}
		ci := int32(len(e.lits))
		e.lits = append(e.lits, cl)
		if len(cl) == 2 {
			a, b := abs32(cl[0]), abs32(cl[1])
			e.bin[a] = append(e.bin[a], b)
			e.bin[b] = append(e.bin[b], a)
		} else {
			for _, l := range cl {
				e.occ[abs32(l)] = append(e.occ[abs32(l)], ci)
			}
		}
		e.watch[litIdx(cl[0])] = append(e.watch[litIdx(cl[0])], ci)
		e.watch[litIdx(cl[1])] = append(e.watch[litIdx(cl[1])], ci)
	}
	return ok
}

func abs32(l int32) int32 {
	if l < 0 {
		return -l
	}
	return l
}

func litIdx(l int32) int {
	if l < 0 {
		return int(-l)*2 + 1
	}
	return int(l) * 2
}

// litVal is 1 for a true literal, -1 for a false one, 0 when unassigned.
func (e *cengine) litVal(l int32) int8 {
	if l < 0 {
		return -e.val[-l]
	}
	return e.val[l]
}

// satisfied reports whether a literal of clause cl is true.
func (e *cengine) satisfied(cl []int32) bool {
	for _, l := range cl {
		if e.litVal(l) > 0 {
			return true
		}
	}
	return false
}

func (e *cengine) assign(l int32) bool {
	v := abs32(l)
	s := int8(1)
	if l < 0 {
		s = -1
	}
	if e.val[v] != 0 {
		return e.val[v] == s
	}
	e.val[v] = s
	e.trail = append(e.trail, l)
	return true
}

// propagate runs unit propagation over the two watched literals; false
// means a conflict.
func (e *cengine) propagate() bool {
	for e.qhead < len(e.trail) {
		fl := -e.trail[e.qhead]
		e.qhead++
		wi := litIdx(fl)
		ws := e.watch[wi]
		i, j := 0, 0
		for i < len(ws) {
			ci := ws[i]
			i++
			c := e.lits[ci]
			if c[0] == fl {
				c[0], c[1] = c[1], c[0]
			}
			if e.litVal(c[0]) > 0 {
				ws[j] = ci
				j++
				continue
			}
			moved := false
			for k := 2; k < len(c); k++ {
				if e.litVal(c[k]) >= 0 {
					c[1], c[k] = c[k], c[1]
					e.watch[litIdx(c[1])] = append(e.watch[litIdx(c[1])], ci)
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = ci
			j++
			if e.litVal(c[0]) < 0 {
				for i < len(ws) {
					ws[j] = ws[i]
					i++
					j++
				}
				e.watch[wi] = ws[:j]
				return false
			}
			e.assign(c[0])
		}
		e.watch[wi] = ws[:j]
	}
	return true
}

func (e *cengine) undo(mark int) {
	for len(e.trail) > mark {
		l := e.trail[len(e.trail)-1]
		e.trail = e.trail[:len(e.trail)-1]
		e.val[abs32(l)] = 0
	}
	e.qhead = mark
}

// mix is splitmix64's finaliser: the component hashes are sums of mixed
// ids, which do not depend on the order the search finds them in.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// split finds the components of the residual among the unassigned
// variables of parent, pushing their variables and clauses on the stacks.
// Unassigned projection variables that occur in no alive clause are
// returned as free; other variables without clauses are dropped.
func (e *cengine) split(parent comp) (comps []comp, free []int32) {
	e.stamp++
	if e.stamp == 0 {
		clear(e.vstamp)
		clear(e.cstamp)
		clear(e.cdead)
		e.stamp = 1
	}
	st := e.stamp
	end := parent.vOff + parent.vN
	for pi := parent.vOff; pi < end; pi++ {
		v := e.vbuf[pi]
		if e.val[v] != 0 || e.vstamp[v] == st {
			continue
		}
		e.vstamp[v] = st
		c := comp{vOff: int32(len(e.vbuf)), cOff: int32(len(e.cbuf)), bestProj: 0, bestAny: 0}
		e.vbuf = append(e.vbuf, v)
		bestP, bestA := int32(-1), int32(-1)
		for q := int(c.vOff); q < len(e.vbuf); q++ {
			u := e.vbuf[q]
			sc := int32(0)
			// A binary clause with a false literal has its other literal
			// true (propagation), so it is alive exactly when both its
			// variables are unassigned, and the component's variables
			// determine its binary clauses: they stay out of the key.
			for _, w := range e.bin[u] {
				if e.val[w] == 0 {
					sc++
					if e.vstamp[w] != st {
						e.vstamp[w] = st
						e.vbuf = append(e.vbuf, w)
					}
				}
			}
			for _, ci := range e.occ[u] {
				if e.cstamp[ci] == st {
					sc++
					continue
				}
				if e.cdead[ci] == st {
					continue
				}
				cl := e.lits[ci]
				if e.satisfied(cl) {
					e.cdead[ci] = st
					continue
				}
				e.cstamp[ci] = st
				sc++
				e.cbuf = append(e.cbuf, ci)
				for _, l := range cl {
					w := abs32(l)
					if e.val[w] == 0 && e.vstamp[w] != st {
						e.vstamp[w] = st
						e.vbuf = append(e.vbuf, w)
					}
				}
			}
			e.score[u] = sc
			// The most occurrences first (VSADS without activity), the
			// smallest variable among equals, for determinism.
			if e.pidx[u] != 0 {
				c.proj++
				key := sc
				if e.rank != nil {
					key = e.rank[u]
				}
				if key > bestP || key == bestP && u < c.bestProj {
					bestP, c.bestProj = key, u
				}
			}
			if sc > bestA || sc == bestA && u < c.bestAny {
				bestA, c.bestAny = sc, u
			}
			c.h1 += e.vhash[2*u]
			c.h2 += e.vhash[2*u+1]
		}
		c.vN = int32(len(e.vbuf)) - c.vOff
		c.cN = int32(len(e.cbuf)) - c.cOff
		if c.vN == 1 && c.cN == 0 {
			// A variable in no alive clause.
			if e.pidx[v] != 0 {
				free = append(free, e.pidx[v]-1)
			}
			e.vbuf = e.vbuf[:c.vOff]
			continue
		}
		for _, ci := range e.cbuf[c.cOff:] {
			c.h1 += e.chash[2*ci]
			c.h2 += e.chash[2*ci+1]
		}
		comps = append(comps, c)
	}
	return comps, free
}

func (c comp) key() compKey { return compKey{h1: c.h1, h2: c.h2, vN: c.vN, cN: c.cN} }

// tick checks the context now and then.
func (e *cengine) tick() error {
	e.calls++
	if e.calls&1023 == 0 {
		if err := e.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// compile returns the node of a component with projection variables, or
// a constant for one without (its satisfiability).
func (e *cengine) compile(c comp) (int32, error) {
	if err := e.tick(); err != nil {
		return 0, err
	}
	k := c.key()
	if id, ok := e.cache[k]; ok {
		return id, nil
	}
	var id int32
	if c.proj == 0 {
		sat, err := e.satisfiable(c)
		if err != nil {
			return 0, err
		}
		id = nodeFalse
		if sat {
			id = nodeTrue
		}
	} else {
		x := c.bestProj
		var br [2]int32
		for b := range 2 {
			mark := len(e.trail)
			lit := -x
			if b == 1 {
				lit = x
			}
			br[b] = -1
			e.assign(lit)
			if e.propagate() {
				var err error
				if br[b], err = e.branch(c, mark, x); err != nil {
					return 0, err
				}
			}
			e.undo(mark)
		}
		if br[0] < 0 && br[1] < 0 {
			id = nodeFalse
		} else {
			if len(e.c.nodes) >= e.maxNodes {
				return 0, fmt.Errorf("%w (more than %d decision nodes)", ErrTooLarge, e.maxNodes)
			}
			id = int32(len(e.c.nodes))
			e.c.nodes = append(e.c.nodes, cnode{v: e.pidx[x] - 1, br: br})
		}
	}
	e.cache[k] = id
	return id, nil
}

// branch records what follows an assignment made at trail position mark
// (decision variable x, or -1 at the root): the projection literals it
// implied, the free projection variables and the sub-components. It
// returns the branch's index, or -1 when the branch has no model.
func (e *cengine) branch(parent comp, mark int, x int32) (int32, error) {
	vtop, ctop := len(e.vbuf), len(e.cbuf)
	defer func() {
		e.vbuf = e.vbuf[:vtop]
		e.cbuf = e.cbuf[:ctop]
	}()
	comps, free := e.split(parent)
	// Components without projection variables first: they are cheap
	// satisfiability checks and may rule the branch out early.
	var kids []int32
	for pass := range 2 {
		for _, c := range comps {
			if (c.proj == 0) != (pass == 0) {
				continue
			}
			id, err := e.compile(c)
			if err != nil {
				return 0, err
			}
			switch id {
			case nodeFalse:
				return -1, nil
			case nodeTrue:
			default:
				kids = append(kids, id)
			}
		}
	}
	a := &e.c.arena
	off := int32(len(*a))
	nl := int32(0)
	for _, l := range e.trail[mark:] {
		v := abs32(l)
		if v == x || e.pidx[v] == 0 {
			continue
		}
		p := e.pidx[v]
		if l < 0 {
			p = -p
		}
		*a = append(*a, p)
		nl++
	}
	*a = append(*a, free...)
	*a = append(*a, kids...)
	e.c.branches = append(e.c.branches, cbranch{off: off, nl: nl, nf: int32(len(free)), nk: int32(len(kids))})
	return int32(len(e.c.branches) - 1), nil
}

// satisfiable decides a component without projection variables, with the
// same decomposition and cache.
func (e *cengine) satisfiable(c comp) (bool, error) {
	x := c.bestAny
	for b := range 2 {
		mark := len(e.trail)
		lit := -x
		if b == 1 {
			lit = x
		}
		e.assign(lit)
		ok := e.propagate()
		if ok {
			vtop, ctop := len(e.vbuf), len(e.cbuf)
			comps, _ := e.split(c)
			for _, sc := range comps {
				id, err := e.compile(sc)
				if err != nil {
					e.vbuf, e.cbuf = e.vbuf[:vtop], e.cbuf[:ctop]
					e.undo(mark)
					return false, err
				}
				if id == nodeFalse {
					ok = false
					break
				}
			}
			e.vbuf, e.cbuf = e.vbuf[:vtop], e.cbuf[:ctop]
		}
		e.undo(mark)
		if ok {
			return true, nil
		}
	}
	return false, nil
}
