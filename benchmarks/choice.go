package benchmarks

import (
	"bufio"
	"io"
	"strconv"
)

// Choice writes the choice-heavy family at seed k: k independent
// alternatives, each between a one-node option (single_i, present when the
// free variable pick_i is true) and a two-node option (pair_i_a and
// pair_i_b with a relation between them, present when pick_i is false).
// Topology optimisation (minimise the weighted node count) is on, and so is
// the uniqueness check, so a resolver must prove the optimum and that no
// other set of nodes reaches it. The single node is cheaper (weight 1
// against 1 + 1), except for every third alternative, whose pair nodes
// weigh 0.25 each; the optimum is therefore unique and not uniform.
// Seed k gives 3k node templates and no relationship templates.
func Choice(w io.Writer, k int) error {
	b := bufio.NewWriterSize(w, 1<<16)
	s := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	s("tosca_definitions_version: tosca_variability_1_0\n",
		"topology_template:\n",
		"    variability:\n",
		"        options:\n",
		"            type_default_condition: true\n",
		"            optimization_topology: true\n",
		"            optimization_topology_unique: true\n",
		"    node_templates:\n")
	for i := 0; i < k; i++ {
		is := strconv.Itoa(i)
		weight := ""
		if i%3 == 2 {
			weight = "            weight: 0.25\n"
		}
		s("        single_", is, ":\n",
			"            type: single_type_", is, "\n",
			"            conditions: pick_", is, "\n",
			"        pair_", is, "_a:\n",
			"            type: pair_type_", is, "_a\n",
			weight,
			"            conditions:\n",
			"                not: pick_", is, "\n",
			"            requirements:\n",
			"                - peer:\n",
			"                      node: pair_", is, "_b\n",
			"                      conditions:\n",
			"                          not: pick_", is, "\n",
			"        pair_", is, "_b:\n",
			"            type: pair_type_", is, "_b\n",
			weight,
			"            conditions:\n",
			"                not: pick_", is, "\n")
	}
	return b.Flush()
}

// ChoiceInputs writes the (empty) inputs of the choice family: every
// alternative is left to the solver.
func ChoiceInputs(w io.Writer) error {
	_, err := io.WriteString(w, "{}\n")
	return err
}
