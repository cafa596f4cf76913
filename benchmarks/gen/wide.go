package gen

import (
	"io"
	"strconv"
)

// Wide writes the wide family at seed n: n node templates, each with many
// properties and artifacts. Per node there are three plain properties, four
// properties with two alternatives selected by conditions, three with a
// conditional alternative and a default alternative, and a number with a
// default alternative (21 property assignments, 11 names); and five
// artifacts: two alternatives of a binary, a config with a default
// alternative, and conditional docs. The conditions are named expressions
// over the input profile; even and odd nodes use them the other way round,
// so that half of the nodes take either side. Seed n gives n node
// templates and no relationship templates.
func Wide(w io.Writer, n int) error {
	b, s := textWriter(w)
	s(variabilityHeader)
	stringInputs(s, "profile")
	s("        expressions:\n")
	equalExpression(s, "is_small", "profile", "small")
	equalExpression(s, "is_large", "profile", "large")
	optionsSection(s, "type_default_condition: true")
	s("    node_templates:\n")
	for i := range n {
		is := strconv.Itoa(i)
		// first and second are the two sides of every alternative.
		first, second := "is_small", "is_large"
		if i%2 == 1 {
			first, second = second, first
		}
		s("        node_", is, ":\n",
			"            type: node_type_", strconv.Itoa(i%7), "\n",
			"            properties:\n",
			"                - name: node-", is, "\n",
			"                - port: ", strconv.Itoa(8000+i%1000), "\n",
			"                - enabled: ", strconv.FormatBool(i%3 != 0), "\n")
		for p := range 4 {
			ps := strconv.Itoa(p)
			s("                - size_", ps, ":\n",
				"                      value: first-", is, "-", ps, "\n",
				"                      conditions:\n",
				"                          logic_expression: ", first, "\n",
				"                - size_", ps, ":\n",
				"                      value: second-", is, "-", ps, "\n",
				"                      conditions:\n",
				"                          logic_expression: ", second, "\n")
		}
		for p := range 3 {
			ps := strconv.Itoa(p)
			s("                - tier_", ps, ":\n",
				"                      value: premium\n",
				"                      conditions:\n",
				"                          logic_expression: ", second, "\n",
				"                - tier_", ps, ":\n",
				"                      value: basic\n",
				"                      default_alternative: true\n")
		}
		s("                - replicas:\n",
			"                      value: ", strconv.Itoa(1+i%5), "\n",
			"                      conditions:\n",
			"                          logic_expression: ", first, "\n",
			"                - replicas:\n",
			"                      value: ", strconv.Itoa(3*(1+i%5)), "\n",
			"                      default_alternative: true\n",
			"            artifacts:\n",
			"                - binary:\n",
			"                      type: binary_type\n",
			"                      file: bin/first-", is, ".tar.gz\n",
			"                      conditions:\n",
			"                          logic_expression: ", first, "\n",
			"                - binary:\n",
			"                      type: binary_type\n",
			"                      file: bin/second-", is, ".tar.gz\n",
			"                      conditions:\n",
			"                          logic_expression: ", second, "\n",
			"                - config:\n",
			"                      type: config_type\n",
			"                      file: conf/second-", is, ".yaml\n",
			"                      conditions:\n",
			"                          logic_expression: ", second, "\n",
			"                - config:\n",
			"                      type: config_type\n",
			"                      file: conf/default-", is, ".yaml\n",
			"                      default_alternative: true\n",
			"                - docs:\n",
			"                      type: docs_type\n",
			"                      file: docs/", is, ".md\n",
			"                      conditions:\n",
			"                          logic_expression: ", second, "\n")
	}
	return b.Flush()
}

// WideInputs writes the inputs the wide family resolves with.
func WideInputs(w io.Writer) error {
	_, err := io.WriteString(w, "profile: small\n")
	return err
}
