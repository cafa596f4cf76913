package gen

import (
	"io"
	"math/rand/v2"
	"strconv"
)

// The configuration-space families (spaces.md): templates whose variants
// are counted, analysed and sampled rather than resolved. Each choice i is
// an exclusive choice between the nodes a_i (present when the free
// variable pick_i is true) and b_i (present otherwise), so a choice alone
// has two variants; constraints couple the choices.

// spaceHeader writes the start of a space template: no type default
// conditions and no pruning, so that the variants are exactly the models
// of the choices and their constraints.
func spaceHeader(s func(...string)) {
	s(variabilityHeader)
	optionsSection(s, "mode: manual")
}

func spaceChoices(s func(...string), k int) {
	s("    node_templates:\n")
	for i := range k {
		is := strconv.Itoa(i)
		s("        a_", is, ":\n",
			"            type: tosca.nodes.Root\n",
			"            conditions: pick_", is, "\n",
			"        b_", is, ":\n",
			"            type: tosca.nodes.Root\n",
			"            conditions: {not: pick_", is, "}\n")
	}
}

func spaceConflict(s func(...string), i, j int) {
	s("            - {not: {and: [{node_presence: b_", strconv.Itoa(i), "}, {node_presence: b_", strconv.Itoa(j), "}]}}\n")
}

// Chain writes the chain family at seed k: k exclusive choices, and b_i
// and b_{i+1} never both. The count is the Fibonacci number F(k+2), about
// 10^(0.209 k): one connected component that only a counter with a
// component cache counts in linear time.
func Chain(w io.Writer, k int) error {
	b, s := textWriter(w)
	spaceHeader(s)
	if k > 1 {
		s("        constraints:\n")
		for i := 0; i+1 < k; i++ {
			spaceConflict(s, i, i+1)
		}
	}
	spaceChoices(s, k)
	return b.Flush()
}

// ConflictEdges returns the random sparse conflict graph of the conflict
// family at seed k: 1.5 k pairs (i, j), i < j (all pairs for k < 4),
// drawn with a fixed generator, so the same seed gives the same graph
// everywhere.
func ConflictEdges(k int) [][2]int {
	rng := rand.New(rand.NewPCG(uint64(k), 15))
	seen := map[[2]int]bool{}
	var edges [][2]int
	want := min(3*k/2, k*(k-1)/2)
	for len(edges) < want {
		i, j := rng.IntN(k), rng.IntN(k)
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		if e := [2]int{i, j}; !seen[e] {
			seen[e] = true
			edges = append(edges, e)
		}
	}
	return edges
}

// Conflict writes the conflict family at seed k: k exclusive choices and
// the random sparse conflict graph of ConflictEdges between their b nodes
// (average degree 3): a connected space with many cycles, where the
// variable order of the counter matters.
func Conflict(w io.Writer, k int) error {
	b, s := textWriter(w)
	spaceHeader(s)
	if edges := ConflictEdges(k); len(edges) > 0 {
		s("        constraints:\n")
		for _, e := range edges {
			spaceConflict(s, e[0], e[1])
		}
	}
	spaceChoices(s, k)
	return b.Flush()
}

// Hub writes the hub family at seed k: k optional nodes opt_i (free
// variable use_i) that each connect to the node hub, and the hub is present
// exactly when one of them is (has_incoming_relation): 2^k variants in one
// component.
func Hub(w io.Writer, k int) error {
	b, s := textWriter(w)
	spaceHeader(s)
	s("    node_templates:\n",
		"        hub:\n",
		"            type: tosca.nodes.Root\n",
		"            conditions: {has_incoming_relation: SELF}\n")
	for i := range k {
		is := strconv.Itoa(i)
		s("        opt_", is, ":\n",
			"            type: tosca.nodes.Root\n",
			"            conditions: use_", is, "\n",
			"            requirements:\n",
			"                - dependency: hub\n")
	}
	return b.Flush()
}

// Free writes the free family at seed k: k exclusive choices and no
// constraint between them (the chain family without its constraints), so
// 2^k variants in k independent components: the space that t-wise
// covering samples are measured on.
func Free(w io.Writer, k int) error {
	b, s := textWriter(w)
	spaceHeader(s)
	spaceChoices(s, k)
	return b.Flush()
}
