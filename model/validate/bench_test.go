package validate

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"v4t/model/yamlsrc"
)

// ringLike writes a template shaped like the ring benchmark of
// spec/benchmarks.md at seed n (package model may not import the
// generators in v4t/benchmarks): 2n expressions, 2n node templates with
// conditions and requirements, 2n relationship templates, and none of the
// 4n types they use defined, so that every template is a problem.
func ringLike(n int) []byte {
	var b bytes.Buffer
	s := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	s("tosca_definitions_version: tosca_variability_1_0\n",
		"topology_template:\n",
		"    variability:\n",
		"        inputs:\n",
		"            mode:\n",
		"                type: string\n",
		"        expressions:\n")
	for i := 0; i < n; i++ {
		is := strconv.Itoa(i)
		for _, m := range []string{"present", "removed"} {
			s("            condition_", is, "_", m, ":\n",
				"                equal:\n",
				"                    - variability_input: mode\n",
				"                    - ", m, "\n")
		}
	}
	s("    node_templates:\n")
	for i := 0; i < n; i++ {
		is, js := strconv.Itoa(i), strconv.Itoa((i+1)%n)
		s("        component_", is, "_present:\n",
			"            type: component_type_", is, "_present\n",
			"            conditions:\n",
			"                logic_expression: condition_", is, "_present\n",
			"            requirements:\n")
		for _, m := range []string{"present", "removed"} {
			s("                - relation_", m, ":\n",
				"                      node: component_", js, "_", m, "\n",
				"                      conditions:\n",
				"                          logic_expression: condition_", is, "_", m, "\n",
				"                      relationship: relationship_", is, "_", m, "\n")
		}
		s("        component_", is, "_removed:\n",
			"            type: component_type_", is, "_removed\n",
			"            conditions:\n",
			"                logic_expression: condition_", is, "_removed\n")
	}
	s("    relationship_templates:\n")
	for i := 0; i < n; i++ {
		is := strconv.Itoa(i)
		for _, m := range []string{"present", "removed"} {
			s("        relationship_", is, "_", m, ":\n",
				"            type: relationship_type_", is, "_", m, "\n")
		}
	}
	return b.Bytes()
}

// BenchmarkValidateRing times validation after parsing (the phases of
// doc.go on a parsed document, sorting included) on a ring-like template
// whose 4n types are all missing, beside the parsing it comes after.
//
//	go test -run '^$' -bench ValidateRing -benchtime 5x ./model/validate
func BenchmarkValidateRing(b *testing.B) {
	n := 10000
	if testing.Short() {
		n = 100
	}
	data := ringLike(n)
	const file = "ring.yaml"
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if _, err := yamlsrc.Parse(data, file); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		doc, err := yamlsrc.Parse(data, file)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			v := newValidator(context.Background(), file, Options{NoLib: true})
			got := v.run(func() *unit { return v.rootFromDoc(file, data, doc) })
			if len(got) != 4*n {
				b.Fatalf("got %d problems, want %d", len(got), 4*n)
			}
		}
	})
}
