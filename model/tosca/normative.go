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

// normativeSnapshot is normative.yaml parsed (yamlsrc.Parse, positions in
// NormativeFile) and written as a yamlsrc snapshot, which every resolve
// decodes instead of parsing the YAML; TestNormativeSnapshot holds it to
// normative.yaml and rewrites it with -update.
//
//go:embed normative.snap
var normativeSnapshot string

// NormativeSnapshot returns the embedded profile as a yamlsrc snapshot
// (yamlsrc.DecodeSnapshot).
func NormativeSnapshot() string { return normativeSnapshot }

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
