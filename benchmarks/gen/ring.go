// Package gen writes the templates of the benchmark families
// (spec/benchmarks.md): the reference's ring, the resolve families and the
// configuration-space families. It imports nothing of v4t, so that tests
// anywhere may take their inputs from it rather than copy a generator;
// package benchmarks names the families and times v4t on them. A seed
// gives the same bytes on every machine.
package gen

import (
	"bufio"
	"io"
	"strconv"
)

// variabilityHeader starts every generated template: a variable service
// template with its variability section open.
const variabilityHeader = "tosca_definitions_version: tosca_variability_1_0\n" +
	"topology_template:\n" +
	"    variability:\n"

// textWriter buffers w and returns a function that writes its arguments
// one after the other: the generators write templates as text, fast.
func textWriter(w io.Writer) (*bufio.Writer, func(parts ...string)) {
	b := bufio.NewWriterSize(w, 1<<16)
	return b, func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
}

// stringInputs writes the inputs section: one string variability input per
// name.
func stringInputs(s func(...string), names ...string) {
	s("        inputs:\n")
	for _, n := range names {
		s("            ", n, ":\n",
			"                type: string\n")
	}
}

// equalExpression writes the named expression name: variability input
// input equals value.
func equalExpression(s func(...string), name, input, value string) {
	s("            ", name, ":\n",
		"                equal:\n",
		"                    - variability_input: ", input, "\n",
		"                    - ", value, "\n")
}

// optionsSection writes the options section, one "key: value" line per
// option.
func optionsSection(s func(...string), options ...string) {
	s("        options:\n")
	for _, o := range options {
		s("            ", o, "\n")
	}
}

// Ring writes the reference's benchmark template at seed n (the "ring"
// family of spec/benchmarks.md): 2n node templates and 2n relationship
// templates; resolved with mode: present, half of them are removed. The
// layout follows the reference's generator: 4-space indentation, block
// style.
func Ring(w io.Writer, n int) error {
	b, s := textWriter(w)
	s(variabilityHeader)
	stringInputs(s, "mode")
	s("        expressions:\n")
	for i := range n {
		is := strconv.Itoa(i)
		equalExpression(s, "condition_"+is+"_present", "mode", "present")
		equalExpression(s, "condition_"+is+"_removed", "mode", "absent")
	}
	optionsSection(s, "type_default_condition: true")
	s("    node_templates:\n")
	for i := range n {
		is, js := strconv.Itoa(i), strconv.Itoa((i+1)%n)
		s("        component_", is, "_present:\n",
			"            type: component_type_", is, "_present\n",
			"            conditions:\n",
			"                logic_expression: condition_", is, "_present\n",
			"            requirements:\n",
			"                - relation_present:\n",
			"                      node: component_", js, "_present\n",
			"                      conditions:\n",
			"                          logic_expression: condition_", is, "_present\n",
			"                      relationship: relationship_", is, "_present\n",
			"                - relation_removed:\n",
			"                      node: component_", js, "_removed\n",
			"                      conditions:\n",
			"                          logic_expression: condition_", is, "_removed\n",
			"                      relationship: relationship_", is, "_removed\n",
			"        component_", is, "_removed:\n",
			"            type: component_type_", is, "_removed\n",
			"            conditions:\n",
			"                logic_expression: condition_", is, "_removed\n")
	}
	s("    relationship_templates:\n")
	for i := range n {
		is := strconv.Itoa(i)
		s("        relationship_", is, "_present:\n",
			"            type: relationship_type_", is, "_present\n",
			"        relationship_", is, "_removed:\n",
			"            type: relationship_type_", is, "_removed\n")
	}
	return b.Flush()
}

// RingInputs writes the inputs file the benchmark resolves with.
func RingInputs(w io.Writer) error {
	_, err := io.WriteString(w, "mode: present\n")
	return err
}
