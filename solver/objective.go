package solver

import "slices"

// linear is Σ weights[i]·[lits[i]] over literals on distinct, unfixed
// variables, every weight > 0, sorted by variable.
type linear struct {
	lits    []int
	weights []int64
}

func (f linear) eval(m []bool) int64 {
	var sum int64
	for i, l := range f.lits {
		if litTrue(m, l) {
			sum += f.weights[i]
		}
	}
	return sum
}

func (f linear) total() int64 {
	var sum int64
	for _, w := range f.weights {
		sum += w
	}
	return sum
}

// bound is the constraint f ≤ k. Bounds carry the optimum of a step into
// later steps (solver.md §5.8).
type bound struct {
	f linear
	k int64
}

// normalise turns an objective into the linear function minimised internally
// (solver.md §5.5): zero weights dropped, maximisation turned into
// minimisation over the negated literals, terms merged per variable (x and ¬x
// cancel down to a constant plus one term), fixed terms folded away, and
// the weights divided by their greatest common divisor. The internal function
// has the same optimal face as the objective; its scale and offset are not
// needed, because Result.Optima is evaluated on the models themselves.
func normalise(o *Objective, fixed []int8) linear {
	if o == nil {
		return linear{}
	}
	pos := map[int]int64{}
	neg := map[int]int64{}
	var vars []int
	for i, l := range o.Lits {
		w := o.Weights[i]
		if w == 0 {
			continue
		}
		if o.Maximize {
			l = -l
		}
		v := abs(l)
		if fixed[v] != 0 {
			continue
		}
		if _, seen := pos[v]; !seen {
			vars = append(vars, v)
			pos[v], neg[v] = 0, 0
		}
		if l > 0 {
			pos[v] += w
		} else {
			neg[v] += w
		}
	}
	slices.Sort(vars)
	var f linear
	for _, v := range vars {
		p, n := pos[v], neg[v]
		switch {
		case p > n:
			f.lits = append(f.lits, v)
			f.weights = append(f.weights, p-n)
		case n > p:
			f.lits = append(f.lits, -v)
			f.weights = append(f.weights, n-p)
		}
	}
	return f.divideGCD()
}

// divideGCD divides the weights by their greatest common divisor. The
// reference multiplies weights by 100, and small weights keep counters small.
func (f linear) divideGCD() linear {
	var g int64
	for _, w := range f.weights {
		g = gcd(g, w)
	}
	if g > 1 {
		ws := make([]int64, len(f.weights))
		for i, w := range f.weights {
			ws[i] = w / g
		}
		f.weights = ws
	}
	return f
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// settle re-normalises b against the values in fixed: fixed terms are folded
// into k, terms heavier than k are forced false, and the weights and k are
// divided by their common divisor. It returns the literals that must be
// false, whether the bound still constrains anything, and ok = false when
// it cannot be met.
func (b bound) settle(fixed []int8) (nb bound, falseLits []int, keep, ok bool) {
	k := b.k
	var f linear
	for i, l := range b.f.lits {
		w := b.f.weights[i]
		switch fx := fixed[abs(l)]; {
		case fx == 0:
			f.lits = append(f.lits, l)
			f.weights = append(f.weights, w)
		case (fx > 0) == (l > 0):
			k -= w
		}
	}
	if k < 0 {
		return bound{}, nil, false, false
	}
	// A term heavier than the remaining budget can never be true.
	n := 0
	for i, l := range f.lits {
		if f.weights[i] > k {
			falseLits = append(falseLits, -l)
			continue
		}
		f.lits[n], f.weights[n] = l, f.weights[i]
		n++
	}
	f.lits, f.weights = f.lits[:n], f.weights[:n]
	if f.total() <= k {
		return bound{}, falseLits, false, true
	}
	var g int64
	for _, w := range f.weights {
		g = gcd(g, w)
	}
	if g > 1 {
		for i := range f.weights {
			f.weights[i] /= g
		}
		k /= g
	}
	return bound{f: f, k: k}, falseLits, true, true
}
