package tosca

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// profile is the embedded profile decoded as plain maps. yaml.v3 rejects
// duplicate keys, so a type defined twice in one map fails here.
func profile(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	require.NoError(t, yaml.Unmarshal(Normative(), &doc), "parse %s", NormativeFile)
	require.NotNil(t, doc, "%s is empty", NormativeFile)
	return doc
}

// typeMap returns the types of one map as name → definition.
func typeMap(t *testing.T, doc map[string]any, key string) map[string]map[string]any {
	t.Helper()
	raw, ok := doc[key].(map[string]any)
	require.True(t, ok, "%s: %s is not a map", NormativeFile, key)
	out := make(map[string]map[string]any, len(raw))
	for name, def := range raw {
		m, ok := def.(map[string]any)
		require.True(t, ok, "%s %q is not a map", key, name)
		out[name] = m
	}
	return out
}

// derivedFrom returns the derived_from of a type; every normative type has one.
func derivedFrom(t *testing.T, key, name string, def map[string]any) string {
	t.Helper()
	parent, ok := def["derived_from"].(string)
	require.True(t, ok, "%s %q has no string derived_from", key, name)
	return parent
}

func TestNormativeFileAndAPI(t *testing.T) {
	require.Equal(t, "<normative types>", NormativeFile)
	require.Equal(t, "tosca.entity.Root", EntityRoot)
	require.Equal(t, []string{
		"artifact_types", "data_types", "capability_types", "interface_types",
		"relationship_types", "node_types", "group_types", "policy_types",
	}, TypeMaps())

	maps := TypeMaps()
	maps[0] = "changed"
	require.Equal(t, "artifact_types", TypeMaps()[0], "TypeMaps must return a fresh slice")

	raw := Normative()
	require.NotEmpty(t, raw)
	raw[0] = '#'
	require.True(t, bytes.HasPrefix(Normative(), []byte("tosca_definitions_version:")),
		"Normative must return a fresh copy")
}

func TestNormativeTopLevel(t *testing.T) {
	doc := profile(t)
	require.Equal(t, "tosca_simple_yaml_1_3", doc["tosca_definitions_version"])

	allowed := map[string]bool{"tosca_definitions_version": true, "description": true, "metadata": true}
	for _, key := range TypeMaps() {
		allowed[key] = true
	}
	for key := range doc {
		require.True(t, allowed[key], "unexpected top-level key %q", key)
	}
	for _, key := range TypeMaps() {
		require.Contains(t, doc, key, "type map %s missing", key)
	}
}

// dataPrimitives are the TOSCA built-in types a data type may derive from.
var dataPrimitives = map[string]bool{
	"string": true, "integer": true, "float": true, "boolean": true, "timestamp": true, "null": true,
	"version": true, "range": true, "list": true, "map": true,
	"scalar-unit.size": true, "scalar-unit.time": true, "scalar-unit.frequency": true, "scalar-unit.bitrate": true,
}

func TestNormativeDerivedFrom(t *testing.T) {
	doc := profile(t)
	for _, key := range TypeMaps() {
		types := typeMap(t, doc, key)
		_, defined := types[EntityRoot]
		require.False(t, defined, "%s defines %s", key, EntityRoot)

		var roots []string
		for name, def := range types {
			parent := derivedFrom(t, key, name, def)
			switch {
			case parent == EntityRoot:
				roots = append(roots, name)
			case key == "data_types" && dataPrimitives[parent]:
			default:
				_, ok := types[parent]
				require.True(t, ok, "%s %q derives from %q, which is not in %s", key, name, parent, key)
			}
		}
		require.Len(t, roots, 1, "%s: types deriving from %s: %v", key, EntityRoot, roots)
	}
}

func TestNormativeNoCycles(t *testing.T) {
	doc := profile(t)
	for _, key := range TypeMaps() {
		types := typeMap(t, doc, key)
		for start := range types {
			seen := map[string]bool{}
			name := start
			for {
				require.False(t, seen[name], "%s %q: derived_from cycle through %q", key, start, name)
				seen[name] = true
				def, ok := types[name]
				if !ok {
					break // tosca.entity.Root or a primitive
				}
				name = derivedFrom(t, key, name, def)
			}
		}
	}
}

// TestNormativeNoRuleEffects guards the resolver-visible parts of the profile:
// a normative type never declares artifacts (technology rules match "by type"
// on those, variability.md §5.3) nor metadata (vintner_abstract, §5.2).
func TestNormativeNoRuleEffects(t *testing.T) {
	doc := profile(t)
	for _, key := range TypeMaps() {
		for name, def := range typeMap(t, doc, key) {
			require.NotContains(t, def, "artifacts", "%s %q", key, name)
			require.NotContains(t, def, "metadata", "%s %q", key, name)
		}
	}
}

// wantTypes is the exact set of names per map with their derived_from, as in
// the profile shipped with Vintner 0.1.8.
var wantTypes = map[string]map[string]string{
	"data_types": {
		"tosca.datatypes.Root":                "tosca.entity.Root",
		"tosca.datatypes.json":                "string",
		"tosca.datatypes.xml":                 "string",
		"tosca.datatypes.Credential":          "tosca.datatypes.Root",
		"tosca.datatypes.TimeInterval":        "tosca.datatypes.Root",
		"tosca.datatypes.network.NetworkInfo": "tosca.datatypes.Root",
		"tosca.datatypes.network.PortInfo":    "tosca.datatypes.Root",
		"tosca.datatypes.network.PortDef":     "integer",
		"tosca.datatypes.network.PortSpec":    "tosca.datatypes.Root",
	},
	"artifact_types": {
		"tosca.artifacts.Root":                  "tosca.entity.Root",
		"tosca.artifacts.File":                  "tosca.artifacts.Root",
		"tosca.artifacts.Deployment":            "tosca.artifacts.Root",
		"tosca.artifacts.Deployment.Image":      "tosca.artifacts.Deployment",
		"tosca.artifacts.Deployment.Image.VM":   "tosca.artifacts.Deployment.Image",
		"tosca.artifacts.Implementation":        "tosca.artifacts.Root",
		"tosca.artifacts.Implementation.Bash":   "tosca.artifacts.Implementation",
		"tosca.artifacts.Implementation.Python": "tosca.artifacts.Implementation",
		"tosca.artifacts.template":              "tosca.artifacts.Root",
	},
	"capability_types": {
		"tosca.capabilities.Root":              "tosca.entity.Root",
		"tosca.capabilities.Node":              "tosca.capabilities.Root",
		"tosca.capabilities.Compute":           "tosca.capabilities.Container",
		"tosca.capabilities.Network":           "tosca.capabilities.Root",
		"tosca.capabilities.Storage":           "tosca.capabilities.Root",
		"tosca.capabilities.Container":         "tosca.capabilities.Root",
		"tosca.capabilities.Endpoint":          "tosca.capabilities.Root",
		"tosca.capabilities.Endpoint.Public":   "tosca.capabilities.Endpoint",
		"tosca.capabilities.Endpoint.Admin":    "tosca.capabilities.Endpoint",
		"tosca.capabilities.Endpoint.Database": "tosca.capabilities.Endpoint",
		"tosca.capabilities.Attachment":        "tosca.capabilities.Root",
		"tosca.capabilities.OperatingSystem":   "tosca.capabilities.Root",
		"tosca.capabilities.Scalable":          "tosca.capabilities.Root",
		"tosca.capabilities.network.Bindable":  "tosca.capabilities.Node",
		"tosca.capabilities.network.Linkable":  "tosca.capabilities.Node",
	},
	"relationship_types": {
		"tosca.relationships.Root":            "tosca.entity.Root",
		"tosca.relationships.DependsOn":       "tosca.relationships.Root",
		"tosca.relationships.HostedOn":        "tosca.relationships.Root",
		"tosca.relationships.ConnectsTo":      "tosca.relationships.Root",
		"tosca.relationships.AttachesTo":      "tosca.relationships.Root",
		"tosca.relationships.RoutesTo":        "tosca.relationships.ConnectsTo",
		"tosca.relationships.network.LinksTo": "tosca.relationships.DependsOn",
		"tosca.relationships.network.BindsTo": "tosca.relationships.DependsOn",
	},
	"interface_types": {
		"tosca.interfaces.Root":                    "tosca.entity.Root",
		"tosca.interfaces.node.lifecycle.Standard": "tosca.interfaces.Root",
		"tosca.interfaces.relationship.Configure":  "tosca.interfaces.Root",
	},
	"node_types": {
		"tosca.nodes.Root":                  "tosca.entity.Root",
		"tosca.nodes.Abstract.Compute":      "tosca.nodes.Root",
		"tosca.nodes.Compute":               "tosca.nodes.Abstract.Compute",
		"tosca.nodes.SoftwareComponent":     "tosca.nodes.Root",
		"tosca.nodes.WebServer":             "tosca.nodes.SoftwareComponent",
		"tosca.nodes.WebApplication":        "tosca.nodes.Root",
		"tosca.nodes.DBMS":                  "tosca.nodes.SoftwareComponent",
		"tosca.nodes.Database":              "tosca.nodes.Root",
		"tosca.nodes.Abstract.Storage":      "tosca.nodes.Root",
		"tosca.nodes.Storage.ObjectStorage": "tosca.nodes.Abstract.Storage",
		"tosca.nodes.Storage.BlockStorage":  "tosca.nodes.Abstract.Storage",
		"tosca.nodes.Container.Runtime":     "tosca.nodes.SoftwareComponent",
		"tosca.nodes.Container.Application": "tosca.nodes.Root",
		"tosca.nodes.LoadBalancer":          "tosca.nodes.Root",
		"tosca.nodes.network.Network":       "tosca.nodes.Root",
		"tosca.nodes.network.Port":          "tosca.nodes.Root",
	},
	"group_types": {
		"tosca.groups.Root": "tosca.entity.Root",
	},
	"policy_types": {
		"tosca.policies.Root":        "tosca.entity.Root",
		"tosca.policies.Placement":   "tosca.policies.Root",
		"tosca.policies.Scaling":     "tosca.policies.Root",
		"tosca.policies.Update":      "tosca.policies.Root",
		"tosca.policies.Performance": "tosca.policies.Root",
	},
}

func TestNormativeTypeNames(t *testing.T) {
	doc := profile(t)
	require.Len(t, wantTypes, len(TypeMaps()))
	for _, key := range TypeMaps() {
		t.Run(key, func(t *testing.T) {
			want, ok := wantTypes[key]
			require.True(t, ok, "no expectations for %s", key)
			got := map[string]string{}
			for name, def := range typeMap(t, doc, key) {
				got[name] = derivedFrom(t, key, name, def)
			}
			require.Equal(t, want, got, "names and derived_from in %s", key)
		})
	}
}

// TestNormativeIsA checks a few inheritance chains end to end, walking the way
// the reference does: up derived_from, stopping after the type whose parent is
// tosca.entity.Root.
func TestNormativeIsA(t *testing.T) {
	doc := profile(t)
	cases := []struct {
		name  string
		key   string
		start string
		chain []string
	}{
		{"compute", "node_types", "tosca.nodes.Compute",
			[]string{"tosca.nodes.Compute", "tosca.nodes.Abstract.Compute", "tosca.nodes.Root"}},
		{"dbms", "node_types", "tosca.nodes.DBMS",
			[]string{"tosca.nodes.DBMS", "tosca.nodes.SoftwareComponent", "tosca.nodes.Root"}},
		{"block storage", "node_types", "tosca.nodes.Storage.BlockStorage",
			[]string{"tosca.nodes.Storage.BlockStorage", "tosca.nodes.Abstract.Storage", "tosca.nodes.Root"}},
		{"vm image", "artifact_types", "tosca.artifacts.Deployment.Image.VM",
			[]string{"tosca.artifacts.Deployment.Image.VM", "tosca.artifacts.Deployment.Image",
				"tosca.artifacts.Deployment", "tosca.artifacts.Root"}},
		{"bash", "artifact_types", "tosca.artifacts.Implementation.Bash",
			[]string{"tosca.artifacts.Implementation.Bash", "tosca.artifacts.Implementation", "tosca.artifacts.Root"}},
		{"file", "artifact_types", "tosca.artifacts.File",
			[]string{"tosca.artifacts.File", "tosca.artifacts.Root"}},
		{"compute capability", "capability_types", "tosca.capabilities.Compute",
			[]string{"tosca.capabilities.Compute", "tosca.capabilities.Container", "tosca.capabilities.Root"}},
		{"routes to", "relationship_types", "tosca.relationships.RoutesTo",
			[]string{"tosca.relationships.RoutesTo", "tosca.relationships.ConnectsTo", "tosca.relationships.Root"}},
		{"binds to", "relationship_types", "tosca.relationships.network.BindsTo",
			[]string{"tosca.relationships.network.BindsTo", "tosca.relationships.DependsOn", "tosca.relationships.Root"}},
		{"group root", "group_types", "tosca.groups.Root", []string{"tosca.groups.Root"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			types := typeMap(t, doc, tc.key)
			var chain []string
			for name := tc.start; ; {
				def, ok := types[name]
				require.True(t, ok, "%s %q has no definition (walk from %q)", tc.key, name, tc.start)
				chain = append(chain, name)
				require.Less(t, len(chain), 20, "walk from %q does not end", tc.start)
				parent := derivedFrom(t, tc.key, name, def)
				if parent == EntityRoot {
					break
				}
				name = parent
			}
			require.Equal(t, tc.chain, chain, "is-a chain of %s", tc.start)
		})
	}
}

// TestNormativeIndentation checks the house style of the file: four spaces per
// level, where the content of a block sequence entry ("- key:") counts from the
// entry's key.
func TestNormativeIndentation(t *testing.T) {
	for i, line := range strings.Split(string(Normative()), "\n") {
		require.NotContains(t, line, "\t", "tab in line %d", i+1)
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if trimmed == "" || indent%4 == 0 {
			continue
		}
		// Inside a "- key:" entry the indent is 2 more than a multiple of four.
		require.Equal(t, 2, indent%4, "indentation of line %d: %q", i+1, line)
	}
}
