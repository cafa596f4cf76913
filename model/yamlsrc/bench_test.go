package yamlsrc

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"gopkg.in/yaml.v3"
)

// benchDoc builds a template shaped like the reference's "ring" benchmark
// family (benchmarks.md) with n node templates: 2n/2 components, each with
// two requirements, plus relationship templates and condition expressions.
// n = 20 000 gives about 6.5 MB of YAML.
func benchDoc(n int) *Value {
	exprs := NewMap()
	nodes := NewMap()
	rels := NewMap()
	half := n / 2
	for i := range half {
		for _, kind := range []string{"present", "removed"} {
			cond := fmt.Sprintf("condition_%d_%s", i, kind)
			exprs.Map().Set(cond, MapOf("equal", NewList(
				MapOf("variability_input", NewString("mode")),
				NewString(map[string]string{"present": "present", "removed": "absent"}[kind]),
			)))
			rels.Map().Set(fmt.Sprintf("relationship_%d_%s", i, kind), MapOf(
				"type", NewString(fmt.Sprintf("relationship_type_%d_%s", i, kind)),
				"properties", MapOf("weight", NewNumber(float64(i)*0.5), "enabled", NewBool(i%2 == 0)),
			))
		}
		j := (i + 1) % half
		nodes.Map().Set(fmt.Sprintf("component_%d_present", i), MapOf(
			"type", NewString(fmt.Sprintf("component_type_%d_present", i)),
			"conditions", MapOf("logic_expression", NewString(fmt.Sprintf("condition_%d_present", i))),
			"properties", NewList(MapOf("name", NewString(fmt.Sprintf("component %d", i))), MapOf("port", NewNumber(8000+float64(i)))),
			"requirements", NewList(
				MapOf("relation_present", MapOf(
					"node", NewString(fmt.Sprintf("component_%d_present", j)),
					"relationship", NewString(fmt.Sprintf("relationship_%d_present", i)),
					"conditions", MapOf("logic_expression", NewString(fmt.Sprintf("condition_%d_present", i))),
				)),
				MapOf("relation_removed", MapOf(
					"node", NewString(fmt.Sprintf("component_%d_removed", j)),
					"relationship", NewString(fmt.Sprintf("relationship_%d_removed", i)),
					"conditions", MapOf("logic_expression", NewString(fmt.Sprintf("condition_%d_removed", i))),
				)),
			),
		))
		nodes.Map().Set(fmt.Sprintf("component_%d_removed", i), MapOf(
			"type", NewString(fmt.Sprintf("component_type_%d_removed", i)),
			"conditions", MapOf("logic_expression", NewString(fmt.Sprintf("condition_%d_removed", i))),
			"description", NewString("A component that is removed.\nIt has a second line."),
		))
	}
	return MapOf(
		"tosca_definitions_version", NewString("tosca_variability_1_0"),
		"topology_template", MapOf(
			"variability", MapOf(
				"inputs", MapOf("mode", MapOf("type", NewString("string"))),
				"options", MapOf("type_default_condition", NewBool(true)),
				"expressions", exprs,
			),
			"node_templates", nodes,
			"relationship_templates", rels,
		),
	)
}

var benchSizes = []int{10, 1000, 20000}

// benchParsed is benchDoc as the resolver sees it: loaded from text, so
// that the values lie in memory as Parse leaves them.
func benchParsed(b *testing.B, n int) *Value {
	v, err := Parse(Marshal(benchDoc(n)), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// benchEachSize runs a sub-benchmark per size of benchSizes (the large
// ones not under -short): setup prepares the input and returns the bytes an
// operation handles and the operation.
func benchEachSize(b *testing.B, setup func(b *testing.B, n int) (int, func() error)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			if n > 1000 && testing.Short() {
				b.Skip("large size skipped under -short")
			}
			size, op := setup(b, n)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMarshal(b *testing.B) {
	benchEachSize(b, func(b *testing.B, n int) (int, func() error) {
		doc := benchParsed(b, n)
		return len(Marshal(doc)), func() error {
			Marshal(doc)
			return nil
		}
	})
}

func BenchmarkWrite(b *testing.B) {
	benchEachSize(b, func(b *testing.B, n int) (int, func() error) {
		doc := benchParsed(b, n)
		return len(Marshal(doc)), func() error { return Write(io.Discard, doc) }
	})
}

func BenchmarkParse(b *testing.B) {
	benchEachSize(b, func(b *testing.B, n int) (int, func() error) {
		data := Marshal(benchDoc(n))
		return len(data), func() error {
			_, err := Parse(data, "bench.yaml")
			return err
		}
	})
}

// BenchmarkYAMLNode is the floor for Parse: yaml.v3 decoding the same text
// into a yaml.Node tree.
func BenchmarkYAMLNode(b *testing.B) {
	benchEachSize(b, func(b *testing.B, n int) (int, func() error) {
		data := Marshal(benchDoc(n))
		return len(data), func() error {
			var doc yaml.Node
			return yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
		}
	})
}

// BenchmarkYAMLEncode is yaml.v3's Node encoder on the same document, for
// comparison with Write.
func BenchmarkYAMLEncode(b *testing.B) {
	benchEachSize(b, func(b *testing.B, n int) (int, func() error) {
		data := Marshal(benchDoc(n))
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			b.Fatal(err)
		}
		return len(data), func() error {
			enc := yaml.NewEncoder(io.Discard)
			enc.SetIndent(4)
			return enc.Encode(&doc)
		}
	})
}
