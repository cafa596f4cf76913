package solver

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Circuit is a Decision-DNNF over the projection variables of a formula,
// built by Compile. Every model of the circuit is one distinct projected
// assignment (a variant). Its queries are linear passes (spaces.md §3):
// the number of models, the models with each variable true (core, dead,
// commonality), exactly uniform samples, and satisfiability under
// assumptions.
//
// Structure: a branch stands for "the rest of a component after one
// assignment": the projection literals it implied, the projection variables
// it left free, and its sub-components (AND). A node decides one projection
// variable and has a branch per value (OR). A node is created after its
// children, so children have smaller ids.
type Circuit struct {
	proj     []int
	nodes    []cnode
	branches []cbranch
	arena    []int32
	// root is the root branch, or -1 when the formula has no model.
	root int32
	// alias[i] is ±(j+1) when projection variable i is equivalent to
	// (the negation of) projection variable j, which the circuit decides
	// instead; 0 for the variables the circuit decides.
	alias []int32

	counts  []*big.Int // per node
	bcounts []*big.Int // per branch
}

type cnode struct {
	v  int32    // projection index decided here
	br [2]int32 // branch for false and for true, -1 when it has no model
}

type cbranch struct {
	off        int32
	nl, nf, nk int32
}

func (c *Circuit) lits(b int32) []int32 {
	br := c.branches[b]
	return c.arena[br.off : br.off+br.nl]
}

func (c *Circuit) free(b int32) []int32 {
	br := c.branches[b]
	return c.arena[br.off+br.nl : br.off+br.nl+br.nf]
}

func (c *Circuit) kids(b int32) []int32 {
	br := c.branches[b]
	s := br.off + br.nl + br.nf
	return c.arena[s : s+br.nk]
}

// Projection returns the projection the circuit was compiled over.
func (c *Circuit) Projection() []int { return c.proj }

// Satisfiable reports whether the formula has a model.
func (c *Circuit) Satisfiable() bool { return c.root >= 0 }

func (c *Circuit) ensureCounts() {
	if c.bcounts != nil {
		return
	}
	c.counts = make([]*big.Int, len(c.nodes))
	c.bcounts = make([]*big.Int, len(c.branches))
	for i, n := range c.nodes {
		sum := new(big.Int)
		for _, b := range n.br {
			if b >= 0 {
				sum.Add(sum, c.branchCount(b))
			}
		}
		c.counts[i] = sum
	}
	if c.root >= 0 {
		c.branchCount(c.root)
	}
}

func (c *Circuit) branchCount(b int32) *big.Int {
	if n := c.bcounts[b]; n != nil {
		return n
	}
	n := big.NewInt(1)
	for _, k := range c.kids(b) {
		n.Mul(n, c.counts[k])
	}
	n.Lsh(n, uint(c.branches[b].nf))
	c.bcounts[b] = n
	return n
}

// Count returns the number of models (distinct projected assignments).
func (c *Circuit) Count() *big.Int {
	if c.root < 0 {
		return new(big.Int)
	}
	c.ensureCounts()
	return new(big.Int).Set(c.bcounts[c.root])
}

// Marginals returns, for every projection variable (in projection order),
// the number of models in which it is true. A variable is core when its
// number equals Count, and dead when it is zero. One upward and one
// downward pass (the derivative of the count by each node).
func (c *Circuit) Marginals() []*big.Int {
	pos := make([]*big.Int, len(c.proj))
	for i := range pos {
		pos[i] = new(big.Int)
	}
	if c.root < 0 {
		return pos
	}
	c.ensureCounts()
	d := make([]*big.Int, len(c.nodes))
	tmp := new(big.Int)
	// visit adds the models through branch b, weighted by the number of
	// ways outside it (outer), to the literals it sets, and passes the
	// weight down to its components.
	visit := func(b int32, outer *big.Int) {
		w := new(big.Int).Mul(outer, c.bcounts[b])
		for _, l := range c.lits(b) {
			if l > 0 {
				pos[l-1].Add(pos[l-1], w)
			}
		}
		if fr := c.free(b); len(fr) > 0 {
			half := new(big.Int).Rsh(w, 1)
			for _, v := range fr {
				pos[v].Add(pos[v], half)
			}
		}
		for _, k := range c.kids(b) {
			tmp.Quo(w, c.counts[k])
			if d[k] == nil {
				d[k] = new(big.Int)
			}
			d[k].Add(d[k], tmp)
		}
	}
	visit(c.root, big.NewInt(1))
	for i, n := range slices.Backward(c.nodes) {
		if d[i] == nil || d[i].Sign() == 0 {
			continue
		}

		if b := n.br[1]; b >= 0 {
			pos[n.v].Add(pos[n.v], tmp.Mul(d[i], c.bcounts[b]))
		}
		for _, b := range n.br {
			if b >= 0 {
				visit(b, d[i])
			}
		}
	}
	total := c.bcounts[c.root]
	for i, a := range c.alias {
		switch {
		case a > 0:
			pos[i].Set(pos[a-1])
		case a < 0:
			pos[i].Sub(total, pos[-a-1])
		}
	}
	return pos
}

// fillAliases sets the values of the aliased projection variables from
// their representatives.
func (c *Circuit) fillAliases(values []bool) {
	for i, a := range c.alias {
		switch {
		case a > 0:
			values[i] = values[a-1]
		case a < 0:
			values[i] = !values[-a-1]
		}
	}
}

// Sampler draws exactly uniform models of a circuit.
type Sampler struct {
	c   *Circuit
	rng *rand.Rand
	r   *big.Int
}

// NewSampler returns a sampler with a PCG generator seeded by seed: the
// same seed gives the same samples on every machine.
func (c *Circuit) NewSampler(seed uint64) *Sampler {
	c.ensureCounts()
	return &Sampler{c: c, rng: rand.New(rand.NewPCG(seed, 0x76347420)), r: new(big.Int)}
}

// Next draws a uniform integer r below the number of models and writes the
// r-th model into values (projection order). It reports false when there
// is no model. The draw is exact: every model has the same probability.
func (s *Sampler) Next(values []bool) bool {
	c := s.c
	if c.root < 0 {
		return false
	}
	randBelow(s.rng, c.bcounts[c.root], s.r)
	c.Unrank(s.r, values)
	return true
}

// Unrank writes the model with index r (0 ≤ r < Count) into values. The
// indexing is a bijection, so a uniform r gives a uniform model.
func (c *Circuit) Unrank(r *big.Int, values []bool) {
	c.ensureCounts()
	r = new(big.Int).Set(r)
	var mod big.Int
	var unrankBranch func(b int32, r *big.Int)
	unrankNode := func(n int32, r *big.Int) {
		nd := c.nodes[n]
		if b := nd.br[0]; b >= 0 {
			if r.Cmp(c.bcounts[b]) < 0 {
				values[nd.v] = false
				unrankBranch(b, r)
				return
			}
			r.Sub(r, c.bcounts[b])
		}
		values[nd.v] = true
		unrankBranch(nd.br[1], r)
	}
	unrankBranch = func(b int32, r *big.Int) {
		for _, l := range c.lits(b) {
			if l > 0 {
				values[l-1] = true
			} else {
				values[-l-1] = false
			}
		}
		for _, v := range c.free(b) {
			values[v] = r.Bit(0) == 1
			r.Rsh(r, 1)
		}
		kids := c.kids(b)
		for i, k := range kids {
			if i == len(kids)-1 {
				unrankNode(k, r)
				break
			}
			sub := new(big.Int)
			r.QuoRem(r, c.counts[k], &mod)
			sub.Set(&mod)
			unrankNode(k, sub)
		}
	}
	unrankBranch(c.root, r)
	c.fillAliases(values)
}

// randBelow sets z to a uniform integer in [0, n), n > 0, by rejection on
// the bit length of n.
func randBelow(rng *rand.Rand, n *big.Int, z *big.Int) {
	nb := n.BitLen()
	words := make([]big.Word, (nb+bits.UintSize-1)/bits.UintSize)
	top := nb % bits.UintSize
	for {
		for i := range words {
			words[i] = big.Word(rng.Uint64())
		}
		if top != 0 {
			words[len(words)-1] &= big.Word(1)<<uint(top) - 1
		}
		z.SetBits(words)
		if z.Cmp(n) < 0 {
			return
		}
		words = make([]big.Word, len(words))
	}
}

// Enumerate calls fn with every model (projection order; the slice is
// reused) until fn returns false. It reports whether it went through all.
func (c *Circuit) Enumerate(fn func(values []bool) bool) bool {
	if c.root < 0 {
		return true
	}
	values := make([]bool, len(c.proj))
	var enumBranch func(b int32, cont func() bool) bool
	enumNode := func(n int32, cont func() bool) bool {
		nd := c.nodes[n]
		for val, b := range nd.br {
			if b < 0 {
				continue
			}
			values[nd.v] = val == 1
			if !enumBranch(b, cont) {
				return false
			}
		}
		return true
	}
	enumBranch = func(b int32, cont func() bool) bool {
		for _, l := range c.lits(b) {
			if l > 0 {
				values[l-1] = true
			} else {
				values[-l-1] = false
			}
		}
		free := c.free(b)
		kids := c.kids(b)
		var kidsFrom func(i int) bool
		kidsFrom = func(i int) bool {
			if i == len(kids) {
				return cont()
			}
			return enumNode(kids[i], func() bool { return kidsFrom(i + 1) })
		}
		var freeFrom func(i int) bool
		freeFrom = func(i int) bool {
			if i == len(free) {
				return kidsFrom(0)
			}
			for _, val := range [2]bool{false, true} {
				values[free[i]] = val
				if !freeFrom(i + 1) {
					return false
				}
			}
			return true
		}
		return freeFrom(0)
	}
	return enumBranch(c.root, func() bool {
		c.fillAliases(values)
		return fn(values)
	})
}

// SatisfiableUnder reports whether some model agrees with the assumptions
// (per projection index: 1 true, -1 false, 0 free).
func (c *Circuit) SatisfiableUnder(assume []int8) bool {
	u := c.under(assume)
	return u != nil && u.branchOK(c.root)
}

// conditioned is the circuit under assumptions: which nodes still have a
// model (one upward pass).
type conditioned struct {
	c      *Circuit
	assume []int8 // folded onto the decided variables
	ok     []bool
}

// under conditions the circuit, or returns nil when the assumptions
// contradict each other (through aliases) or the formula has no model.
func (c *Circuit) under(assume []int8) *conditioned {
	if c.root < 0 {
		return nil
	}
	folded, consistent := c.foldAssumptions(assume)
	if !consistent {
		return nil
	}
	u := &conditioned{c: c, assume: folded, ok: make([]bool, len(c.nodes))}
	for i, n := range c.nodes {
		a := folded[n.v]
		u.ok[i] = a <= 0 && u.branchOK(n.br[0]) || a >= 0 && u.branchOK(n.br[1])
	}
	return u
}

// branchOK reports whether branch b has a model under the assumptions.
func (u *conditioned) branchOK(b int32) bool {
	if b < 0 {
		return false
	}
	for _, l := range u.c.lits(b) {
		if l > 0 && u.assume[l-1] < 0 || l < 0 && u.assume[-l-1] > 0 {
			return false
		}
	}
	for _, k := range u.c.kids(b) {
		if !u.ok[k] {
			return false
		}
	}
	return true
}

// foldAssumptions moves assumptions on aliased variables onto their
// representatives; consistent is false when two of them contradict.
func (c *Circuit) foldAssumptions(assume []int8) (folded []int8, consistent bool) {
	any := false
	for i, a := range c.alias {
		if a != 0 && assume[i] != 0 {
			any = true
			break
		}
	}
	if !any {
		return assume, true
	}
	folded = append([]int8(nil), assume...)
	for i, a := range c.alias {
		if a == 0 || assume[i] == 0 {
			continue
		}
		j, want := a-1, assume[i]
		if a < 0 {
			j, want = -a-1, -want
		}
		if folded[j] == -want {
			return nil, false
		}
		folded[j] = want
	}
	return folded, true
}
