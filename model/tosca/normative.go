package tosca

import _ "embed"

// NormativeFile is the file name used in positions for the embedded profile.
const NormativeFile = "<normative types>"

// EntityRoot is the implicit parent of every root type. It is never defined;
// a derived_from walk stops at the type whose derived_from names it.
const EntityRoot = "tosca.entity.Root"

//go:embed normative.yaml
var normative string

// Normative returns the raw bytes of the embedded profile. The caller owns the
// returned slice.
func Normative() []byte { return []byte(normative) }

// TypeMaps returns the eight type map keys in the order in which the reference
// merges loaded types into a document: artifact_types, data_types,
// capability_types, interface_types, relationship_types, node_types,
// group_types, policy_types. The caller owns the returned slice.
func TypeMaps() []string {
	return []string{
		"artifact_types",
		"data_types",
		"capability_types",
		"interface_types",
		"relationship_types",
		"node_types",
		"group_types",
		"policy_types",
	}
}
