package gen

import (
	"bufio"
	"io"
	"strconv"
)

// pruningLevels are the levels of a hosting stack below the application,
// each with the alternatives of pruningAlternatives; the input named after a
// level selects one of them (PruningInputs: runtime a, machine b,
// provider c).
func pruningLevels() []string       { return []string{"runtime", "machine", "provider"} }
func pruningAlternatives() []string { return []string{"a", "b", "c"} }

// Pruning writes the deep-pruning family at seed n: n hosting stacks
// app_i → runtime → machine → provider, with three alternatives on each of
// the three lower levels. Only the hosting relations carry conditions (a
// variability input per level, rotated per stack so that stacks differ);
// the nodes below the application have none. Resolved under mode
// semantic-loose, pruning removes every node without a present incoming
// relation and every relation whose source or target is gone, so each
// stack keeps one chain of four nodes out of ten. Seed n gives 10n node
// templates and no relationship templates.
func Pruning(w io.Writer, n int) error {
	b, s := textWriter(w)
	levels, alts := pruningLevels(), pruningAlternatives()
	s(variabilityHeader)
	stringInputs(s, levels...)
	s("        expressions:\n")
	for _, l := range levels {
		for _, a := range alts {
			equalExpression(s, l+"_is_"+a, l, a)
		}
	}
	optionsSection(s, "mode: semantic-loose", "type_default_condition: true")
	s("    node_templates:\n")
	// hosts writes the requirements of a node on level l-1 (the app for
	// l = 0): one hosting relation to every alternative on level l.
	hosts := func(is string, l, i int) {
		s("            requirements:\n")
		for j, a := range alts {
			sel := alts[(j+i)%len(alts)]
			s("                - host:\n",
				"                      node: ", levels[l], "_", is, "_", a, "\n",
				"                      conditions:\n",
				"                          logic_expression: ", levels[l], "_is_", sel, "\n")
		}
	}
	for i := range n {
		is := strconv.Itoa(i)
		s("        app_", is, ":\n",
			"            type: app_type\n")
		hosts(is, 0, i)
		for l, level := range levels {
			for _, a := range alts {
				s("        ", level, "_", is, "_", a, ":\n",
					"            type: ", level, "_type_", a, "\n")
				if l+1 < len(levels) {
					hosts(is, l+1, i)
				}
			}
		}
	}
	return b.Flush()
}

// PruningInputs writes the inputs the pruning family resolves with: one
// alternative per level.
func PruningInputs(w io.Writer) error {
	b := bufio.NewWriter(w)
	alts := pruningAlternatives()
	for i, l := range pruningLevels() {
		b.WriteString(l + ": " + alts[i%len(alts)] + "\n")
	}
	return b.Flush()
}
