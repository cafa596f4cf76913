package solver

import (
	"container/heap"
	"slices"
)

// The decision order of the compiler (spaces.md §2: variable order matters
// more than anything else). A greedy elimination order of the primal graph
// (variables adjacent when they share a clause) is a tree decomposition;
// deciding the variables eliminated last first follows it from its root, so
// the separators come first and the formula falls apart into components
// (the idea of sharpSAT-TD). Min-fill (eliminate the vertex whose
// neighbours need the fewest new edges) gives narrower decompositions than
// min-degree, and costs more: it runs within a work budget, then min-degree
// within a fill budget, and without either the compiler falls back to the
// number of occurrences alone.

// eliminationRanks returns each variable's position in an elimination order
// of the primal graph of the residual clauses (counted from 1; fixed
// variables get 0), or nil when both budgets are exceeded.
func eliminationRanks(nv int, clauses [][]int32, val []int8, budget int) []int32 {
	if r := eliminate(nv, clauses, val, budget, true); r != nil {
		return r
	}
	return eliminate(nv, clauses, val, budget, false)
}

// maxPrimalClause is the longest clause the primal graph takes in: a
// clause of k literals is a clique of k²/2 edges, and one long disjunction
// (a hub's "some incoming relation") would make every elimination order
// cost quadratic time while saying little about the order.
const maxPrimalClause = 32

// primal builds the primal graph of the unsatisfied clauses over the
// unassigned variables (without clauses longer than maxPrimalClause); ok is
// false when it has more than budget edges.
func primal(nv int, clauses [][]int32, val []int8, budget int) (adj []map[int32]struct{}, edges int, ok bool) {
	adj = make([]map[int32]struct{}, nv+1)
	for _, c := range clauses {
		if len(c) > maxPrimalClause {
			continue
		}
		sat := false
		for _, l := range c {
			if val[abs32(l)] != 0 && (l > 0) == (val[abs32(l)] > 0) {
				sat = true
				break
			}
		}
		if sat {
			continue
		}
		for i, a := range c {
			va := abs32(a)
			if val[va] != 0 {
				continue
			}
			for _, b := range c[i+1:] {
				if vb := abs32(b); val[vb] == 0 && vb != va && link(adj, va, vb) {
					edges++
				}
			}
		}
		if edges > budget {
			return nil, 0, false
		}
	}
	return adj, edges, true
}

// link adds the edge a–b and reports whether it is new.
func link(adj []map[int32]struct{}, a, b int32) bool {
	if adj[a] == nil {
		adj[a] = map[int32]struct{}{}
	}
	if _, ok := adj[a][b]; ok {
		return false
	}
	adj[a][b] = struct{}{}
	if adj[b] == nil {
		adj[b] = map[int32]struct{}{}
	}
	adj[b][a] = struct{}{}
	return true
}

// sortedNeighbours lists v's neighbours in ascending order (map iteration
// order must not reach the result).
func sortedNeighbours(adj []map[int32]struct{}, v int32) []int32 {
	nb := make([]int32, 0, len(adj[v]))
	for u := range adj[v] {
		nb = append(nb, u)
	}
	slices.Sort(nb)
	return nb
}

// eliminate runs min-fill (minFill) or min-degree elimination. The work
// (neighbour pairs examined) is bounded by budget.
func eliminate(nv int, clauses [][]int32, val []int8, budget int, minFill bool) []int32 {
	adj, _, ok := primal(nv, clauses, val, budget)
	if !ok {
		return nil
	}
	work := 0
	fill := func(v int32) int {
		nb := sortedNeighbours(adj, v)
		f := 0
		for i, a := range nb {
			for _, b := range nb[i+1:] {
				if _, ok := adj[a][b]; !ok {
					f++
				}
			}
		}
		work += len(nb) * len(nb) / 2
		return f
	}
	pq := &elimHeap{pos: make([]int, nv+1)}
	for v := 1; v <= nv; v++ {
		it := elimItem{v: int32(v), deg: len(adj[v])}
		if minFill {
			it.fill = fill(int32(v))
		}
		pq.items = append(pq.items, it)
		pq.pos[v] = len(pq.items) - 1
		if work > budget {
			return nil
		}
	}
	heap.Init(pq)
	rank := make([]int32, nv+1)
	next := int32(1)
	touched := map[int32]struct{}{}
	for pq.Len() > 0 {
		v := heap.Pop(pq).(elimItem).v
		if val[v] == 0 {
			rank[v] = next
			next++
		}
		nb := sortedNeighbours(adj, v)
		for _, u := range nb {
			delete(adj[u], v)
		}
		adj[v] = nil
		clear(touched)
		for _, u := range nb {
			touched[u] = struct{}{}
		}
		for i, a := range nb {
			for _, b := range nb[i+1:] {
				work++
				if !link(adj, a, b) {
					continue
				}
				if !minFill {
					continue
				}
				// The new edge removes a missing pair from every common
				// neighbour's neighbourhood.
				small, other := a, b
				if len(adj[b]) < len(adj[a]) {
					small, other = b, a
				}
				for w := range adj[small] {
					work++
					if _, ok := adj[other][w]; ok {
						touched[w] = struct{}{}
					}
				}
			}
		}
		if work > budget {
			return nil
		}
		for _, u := range sortedTouched(touched) {
			f := 0
			if minFill {
				f = fill(u)
			}
			pq.update(u, len(adj[u]), f)
		}
		if work > budget {
			return nil
		}
	}
	return rank
}

func sortedTouched(m map[int32]struct{}) []int32 {
	out := make([]int32, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

type elimItem struct {
	v         int32
	fill, deg int
}

// elimHeap orders by fill, then degree, then variable.
type elimHeap struct {
	items []elimItem
	pos   []int
}

func (h *elimHeap) Len() int { return len(h.items) }
func (h *elimHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.fill != b.fill {
		return a.fill < b.fill
	}
	if a.deg != b.deg {
		return a.deg < b.deg
	}
	return a.v < b.v
}
func (h *elimHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i].v] = i
	h.pos[h.items[j].v] = j
}
func (h *elimHeap) Push(x any) {
	it := x.(elimItem)
	h.pos[it.v] = len(h.items)
	h.items = append(h.items, it)
}
func (h *elimHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	h.pos[it.v] = -1
	return it
}

func (h *elimHeap) update(v int32, deg, fill int) {
	i := h.pos[v]
	if i < 0 {
		return
	}
	h.items[i].deg, h.items[i].fill = deg, fill
	heap.Fix(h, i)
}
