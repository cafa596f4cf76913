package solver

import "math/rand/v2"

// The benchmark shapes of solver.md §6.2, built directly as clauses. Element
// variables (nodes, then relations) come first, as the encoder numbers them;
// the steps minimise the number (or weight) of present nodes and check their
// uniqueness, and the tie-break walks the elements.
type shape struct {
	cnf      *CNF
	steps    []Step
	tieBreak []int
	nodes    []int
}

// builder emits clauses for Tseitin definitions.
type builder struct {
	cnf CNF
}

func (b *builder) add(c ...int) { b.cnf.Clauses = append(b.cnf.Clauses, c) }

// eq adds x ↔ y.
func (b *builder) eq(x, y int) {
	b.add(-x, y)
	b.add(x, -y)
}

// and adds r ↔ ∧ys.
func (b *builder) and(r int, ys ...int) {
	long := []int{r}
	for _, y := range ys {
		b.add(-r, y)
		long = append(long, -y)
	}
	b.add(long...)
}

func seq(from, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = from + i
	}
	return s
}

func minimiseNodes(nodes []int, weights []int64) []Step {
	obj := &Objective{Lits: nodes, Weights: weights}
	if weights == nil {
		obj.Weights = make([]int64, len(nodes))
		for i := range obj.Weights {
			obj.Weights[i] = 1
		}
	}
	return []Step{{Objective: obj, Unique: true, Projection: nodes}}
}

// ringShape is the reference's benchmark template at seed n reduced to its
// formula: everything is decided by propagation. Optimum n, unique.
func ringShape(n int) shape {
	P := func(i int) int { return 1 + i%n }
	A := func(i int) int { return n + 1 + i%n }
	R := func(i int) int { return 2*n + 1 + i }
	S := func(i int) int { return 3*n + 1 + i }
	p := func(i int) int { return 4*n + 1 + i }
	a := func(i int) int { return 5*n + 1 + i }
	b := builder{cnf: CNF{NumVars: 6 * n}}
	for i := range n {
		b.add(p(i))
		b.add(-a(i))
		b.eq(P(i), p(i))
		b.eq(A(i), a(i))
		b.and(R(i), p(i), P(i), P(i+1))
		b.and(S(i), a(i), P(i), A(i+1))
	}
	nodes := seq(1, 2*n)
	return shape{cnf: &b.cnf, steps: minimiseNodes(nodes, nil), tieBreak: seq(1, 4*n), nodes: nodes}
}

// chainShape: nodes x_i, relations r_i ↔ x_i ∧ x_{i+1}, and an input.
// free: x_i ↔ in with in unconstrained (optimum 0); fixed: the same with in
// true (optimum n); dep: a hosting stack x_1 ↔ in, x_{i+1} ↔ x_i with in
// true, emitted in reverse so that propagation runs against clause order.
func chainShape(n int, mode string) shape {
	x := func(i int) int { return 1 + i }
	r := func(i int) int { return n + 1 + i }
	in := 2 * n
	b := builder{cnf: CNF{NumVars: 2 * n}}
	for i := range n {
		switch {
		case mode != "dep" || i == 0:
			b.eq(x(i), in)
		default:
			b.eq(x(i), x(i-1))
		}
		if i+1 < n {
			b.and(r(i), x(i), x(i+1))
		}
	}
	if mode != "free" {
		b.add(in)
	}
	if mode == "dep" {
		cls := b.cnf.Clauses
		for i, j := 0, len(cls)-1; i < j; i, j = i+1, j-1 {
			cls[i], cls[j] = cls[j], cls[i]
		}
	}
	nodes := seq(1, n)
	return shape{cnf: &b.cnf, steps: minimiseNodes(nodes, nil), tieBreak: seq(1, 2*n-1), nodes: nodes}
}

// pairsShape: k disjoint clauses a_i ∨ b_i. Optimum k, ambiguous.
func pairsShape(k int) shape {
	b := builder{cnf: CNF{NumVars: 2 * k}}
	for i := range k {
		b.add(2*i+1, 2*i+2)
	}
	nodes := seq(1, 2*k)
	return shape{cnf: &b.cnf, steps: minimiseNodes(nodes, nil), tieBreak: nodes, nodes: nodes}
}

// coverShape: free inputs e_i, nodes x_i ↔ e_i, relations r_i ↔ x_i ∧ x_{i+1},
// and x_i ∨ x_{i+1}: a minimum vertex cover of a path, ⌊n/2⌋ and unique iff
// n is odd with unit weights. weighted draws weights 1…10 from a fixed seed.
func coverShape(n int, weighted bool) shape {
	x := func(i int) int { return 1 + i }
	r := func(i int) int { return n + 1 + i }
	e := func(i int) int { return 2*n + i }
	b := builder{cnf: CNF{NumVars: 3*n - 1}}
	for i := range n {
		b.eq(x(i), e(i))
		if i+1 < n {
			b.and(r(i), x(i), x(i+1))
			b.add(x(i), x(i+1))
		}
	}
	var weights []int64
	if weighted {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		weights = make([]int64, n)
		for i := range weights {
			weights[i] = 1 + rng.Int64N(10)
		}
	}
	nodes := seq(1, n)
	return shape{cnf: &b.cnf, steps: minimiseNodes(nodes, weights), tieBreak: seq(1, 2*n-1), nodes: nodes}
}

// enumShape: free inputs e_i, nodes x_i ↔ e_i, relations r_i ↔ x_i ∧ x_{i+1};
// 2^k variants projected on the nodes.
func enumShape(k int) shape {
	s := coverShape(k, false)
	// Drop the cover clauses: every node is free.
	var cls [][]int
	for _, c := range s.cnf.Clauses {
		if len(c) == 2 && c[0] > 0 && c[1] > 0 {
			continue
		}
		cls = append(cls, c)
	}
	s.cnf.Clauses = cls
	s.steps = nil
	return s
}
