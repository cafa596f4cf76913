package gen

import (
	"io"
	"strconv"
)

// Choice writes the choice-heavy family at seed k: k independent
// alternatives, each between a one-node option (single_i) and a two-node
// option (pair_i_a and pair_i_b with a relation between them), chosen by
// the free variable pick_i: the single node is present when pick_i is true,
// except in every third alternative, where the polarity is the other way
// round. Topology optimisation (minimise the node count) is on, and so is
// the uniqueness check, so a resolver must prove the optimum (every single
// node, with pick_i true in two alternatives out of three) and that no
// other set of nodes reaches it. Weights stay at their default: with
// fractional weights the reference's MiniSat runs out of its 64 MB at
// k = 300 and the verdicts could not be compared.
// Seed k gives 3k node templates and no relationship templates.
func Choice(w io.Writer, k int) error {
	b, s := textWriter(w)
	s(variabilityHeader)
	optionsSection(s, "type_default_condition: true", "optimization_topology: true", "optimization_topology_unique: true")
	s("    node_templates:\n")
	for i := range k {
		is := strconv.Itoa(i)
		single, pair := "            conditions: pick_"+is+"\n", "            conditions:\n                not: pick_"+is+"\n"
		relation := "                      conditions:\n                          not: pick_" + is + "\n"
		if i%3 == 2 {
			single, pair = pair, single
			relation = "                      conditions: pick_" + is + "\n"
		}
		s("        single_", is, ":\n",
			"            type: single_type_", is, "\n",
			single,
			"        pair_", is, "_a:\n",
			"            type: pair_type_", is, "_a\n",
			pair,
			"            requirements:\n",
			"                - peer:\n",
			"                      node: pair_", is, "_b\n",
			relation,
			"        pair_", is, "_b:\n",
			"            type: pair_type_", is, "_b\n",
			pair)
	}
	return b.Flush()
}

// ChoiceInputs writes the (empty) inputs of the choice family: every
// alternative is left to the solver.
func ChoiceInputs(w io.Writer) error {
	_, err := io.WriteString(w, "{}\n")
	return err
}
