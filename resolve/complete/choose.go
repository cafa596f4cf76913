package complete

import (
	"context"
	"fmt"
	"sort"

	"v4t/solver"
)

// Spec completion.md §10.1 (choice), §8.1 (policy order), §9.1 (order of the
// matches: policy keys, then catalog order).
//
// The choice is posed to the solver as a pseudo-Boolean problem. Variable
// x_i (i = 1..n) says "the unit runs image i of the pool" (the whole catalog,
// or the page a DockerFinder service returned, in its order):
//   - exactly one x_i is true: a clause x_1 ∨ … ∨ x_n and a sequential
//     at-most-one (auxiliary s_i = "one of x_1..x_i is true"), linear in n;
//   - every image that violates a query condition is excluded by a unit
//     clause ¬x_i, so any model satisfies every constraint;
//   - the policy is a lexicographic objective, one solver step per sort key
//     in priority order. For a key, image i has the dense rank r_i of its
//     field among the matching images (null ranks 0, below every number;
//     equal values share a rank). Ranks are in unary form: y_1..y_R with
//     y_r ⇔ "the chosen image's rank is at least r", so the step's objective
//     Σ y_r, with unit weights, is the chosen image's rank. A descending key
//     maximises it, an ascending key minimises it. Ranks keep the order of
//     the values exactly, so the lexicographic optimum is the first image of
//     the policy sort. (Weights r_i on the x_i would say the same, but the
//     solver's weighted counters grow with the number of distinct sums.)
//   - ties left after the three keys go to the earliest image of the pool
//     (DockerFinder's stable sort over catalog order): the solver's
//     greedy-false tie-break walks x_n down to x_1, so every x_j that can be
//     false on the optimal face is fixed false, and the earliest optimal
//     image is the one left true.

// choiceProblem is the pseudo-Boolean form of one unit's choice.
type choiceProblem struct {
	cnf      *solver.CNF
	steps    []solver.Step
	tieBreak []int
}

// encodeChoice builds the problem over the pool; match[i] says whether
// pool[i] satisfies the query.
func encodeChoice(pool []*Image, match []bool, keys []SortKey) *choiceProblem {
	n := len(pool)
	nv := 0
	fresh := func() int { nv++; return nv }
	x := make([]int, n)
	for i := range x {
		x[i] = fresh()
	}
	var clauses [][]int
	clauses = append(clauses, append([]int(nil), x...))
	// Sequential at-most-one (Sinz 2005): s_i means "one of x_0..x_i".
	prev := 0
	for i := range n {
		if prev != 0 {
			clauses = append(clauses, []int{-x[i], -prev})
		}
		if i == n-1 {
			break
		}
		s := fresh()
		clauses = append(clauses, []int{-x[i], s})
		if prev != 0 {
			clauses = append(clauses, []int{-prev, s})
		}
		prev = s
	}
	for i, ok := range match {
		if !ok {
			clauses = append(clauses, []int{-x[i]})
		}
	}
	p := &choiceProblem{}
	for _, k := range keys {
		ranks, top := denseRanks(pool, match, k.Field)
		// y[r-1] is y_r, r = 1..top.
		y := make([]int, top)
		for r := range y {
			y[r] = fresh()
		}
		byRank := make([][]int, top+1)
		for i, r := range ranks {
			if match[i] {
				byRank[r] = append(byRank[r], x[i])
			}
		}
		for r := 1; r <= top; r++ {
			if r > 1 {
				clauses = append(clauses, []int{-y[r-1], y[r-2]}) // y_r → y_{r-1}
			}
			// y_r → y_{r+1} ∨ (an image of rank r is chosen)
			c := []int{-y[r-1]}
			if r < top {
				c = append(c, y[r])
			}
			clauses = append(clauses, append(c, byRank[r]...))
			for _, xi := range byRank[r] {
				clauses = append(clauses, []int{-xi, y[r-1]}) // x_i → y_{r_i}
			}
		}
		obj := &solver.Objective{Lits: y, Weights: make([]int64, top), Maximize: k.Desc}
		for r := range obj.Weights {
			obj.Weights[r] = 1
		}
		p.steps = append(p.steps, solver.Step{Objective: obj})
	}
	for i := n - 1; i >= 0; i-- {
		p.tieBreak = append(p.tieBreak, x[i])
	}
	p.cnf = &solver.CNF{NumVars: nv, Clauses: clauses}
	return p
}

// denseRanks ranks the field of the matching images: null is 0, the
// smallest number 1, and equal values share a rank; top is the highest
// rank. Images that do not match get 0; they cannot be chosen.
func denseRanks(pool []*Image, match []bool, f Field) (ranks []int, top int) {
	var vals []float64
	for i, img := range pool {
		if n := f.of(img); match[i] && n != nil {
			vals = append(vals, n.Float)
		}
	}
	sort.Float64s(vals)
	rank := map[float64]int{}
	for i, v := range vals {
		if i == 0 || v != vals[i-1] {
			top++
			rank[v] = top
		}
	}
	ranks = make([]int, len(pool))
	for i, img := range pool {
		if n := f.of(img); match[i] && n != nil {
			ranks[i] = rank[n.Float]
		}
	}
	return ranks, top
}

// chooseImage returns the index in pool of the image the policy picks, or
// -1 when no image matches.
func chooseImage(ctx context.Context, pool []*Image, match []bool, keys []SortKey) (int, error) {
	found := false
	for _, ok := range match {
		found = found || ok
	}
	if !found {
		return -1, nil
	}
	p := encodeChoice(pool, match, keys)
	res, err := solver.Solve(ctx, p.cnf, p.steps, p.tieBreak)
	if err != nil {
		return -1, err
	}
	if !res.Sat {
		return -1, fmt.Errorf("the image choice is unsatisfiable although %d images match", len(pool))
	}
	pick := -1
	for i := range pool {
		if res.Model[i+1] {
			if pick >= 0 {
				return -1, fmt.Errorf("the image choice selected two images")
			}
			pick = i
		}
	}
	if pick < 0 || !match[pick] {
		return -1, fmt.Errorf("the image choice selected no matching image")
	}
	return pick, nil
}
