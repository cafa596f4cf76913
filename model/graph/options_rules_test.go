package graph

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Spec variability.md §4: option resolution per version class.

var versionNames = map[Version]string{
	V1:  "tosca_variability_1_0",
	RC2: "tosca_variability_1_0_rc_2",
	RC3: "tosca_variability_1_0_rc_3",
}

// resolveWith resolves the options given as flow-map entries (e.g.
// "checks: false, mode: default") for a version class.
func resolveWith(t *testing.T, v Version, options string) (*Options, error) {
	t.Helper()
	src := "tosca_definitions_version: " + versionNames[v] + "\n"
	if options != "" {
		src += "topology_template:\n  variability:\n    options: {" + options + "}\n"
	}
	return ResolveOptions(doc(t, src), "t.yaml", v)
}

func TestParseVersionRules(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Version
		ok   bool
	}{
		{"tosca_simple_yaml_1_3", V1, true},
		{"tosca_variability_1_0", V1, true},
		{"tosca_variability_1_0_rc_1", V1, true},
		{"tosca_variability_1_0_rc_2", RC2, true},
		{"tosca_variability_1_0_rc_3", RC3, true},
		{"tosca_2_0", 0, false},
		{"1.3", 0, false},
		{"", 0, false},
	} {
		t.Run(tc.src, func(t *testing.T) {
			v, ok := ParseVersion(yv(t, tc.src))
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, v)
		})
	}
}

// TestOptionDefaultsTable is the table of §4.3 without user options.
func TestOptionDefaultsTable(t *testing.T) {
	type row struct {
		mode                                string
		nodeMode, relMode, artMode          string
		propMode, techDefMode               string
		relationImplied                     bool
		kindPruning, ioPruning              bool
		checks, unconsumed, unproduced      bool
		topo, topoMin, topoUnique           bool
		topoMode                            string
		techs, techMin, techMax, techUnique bool
		techMode                            string
		uniques, requiredIncoming           bool
		enrichTechs                         bool
	}
	want := map[Version]row{
		V1: {mode: "manual", nodeMode: "incoming-artifact", relMode: "source-target", artMode: "container",
			propMode: "container-consuming", techDefMode: "container-other",
			checks: true, topoUnique: true, topoMode: "weight", techMode: "count"},
		RC2: {mode: "semantic-loose", nodeMode: "incomingnaive-artifact-host", relMode: "source-target", artMode: "container",
			propMode: "container-consuming", techDefMode: "container-other", relationImplied: true, kindPruning: true,
			checks: true, topo: true, topoMin: true, topoUnique: true, topoMode: "weight",
			techs: true, techMax: true, techMode: "weight-count", uniques: true, enrichTechs: true},
		// RC3: checks off, and the unconsumed/unproduced checks follow the
		// (off) semantic and consistency checks; inputs and outputs prune.
		RC3: {mode: "semantic-loose", nodeMode: "incomingnaive-artifact-host", relMode: "source-target", artMode: "container-managed",
			propMode: "container-consuming", techDefMode: "container-other", relationImplied: true, kindPruning: true, ioPruning: true,
			topo: true, topoMin: true, topoUnique: true, topoMode: "weight",
			techs: true, techMax: true, techMode: "weight-count", uniques: true, enrichTechs: true},
	}
	for v, w := range want {
		t.Run(versionNames[v], func(t *testing.T) {
			o, err := resolveWith(t, v, "")
			require.NoError(t, err)
			got := row{
				mode: o.Mode, nodeMode: o.Kinds[KindNode].Mode, relMode: o.Kinds[KindRelation].Mode,
				artMode: o.Kinds[KindArtifact].Mode, propMode: o.Kinds[KindProperty].Mode, techDefMode: o.Kinds[KindTechnology].Mode,
				relationImplied: o.RelationDefaultImplied,
				kindPruning:     o.Kinds[KindNode].Pruning, ioPruning: o.Kinds[KindInput].Pruning,
				checks: o.Checks.Checks, unconsumed: o.Checks.UnconsumedInput, unproduced: o.Checks.UnproducedOutput,
				topo: o.Solver.Topology.Optimize, topoMin: o.Solver.Topology.Min, topoUnique: o.Solver.Topology.Unique,
				topoMode: o.Solver.Topology.Mode,
				techs:    o.Solver.Technologies.Optimize, techMin: o.Solver.Technologies.Min, techMax: o.Solver.Technologies.Max,
				techUnique: o.Solver.Technologies.Unique, techMode: o.Solver.Technologies.Mode,
				uniques:          o.Constraints.UniqueProperty && o.Constraints.UniqueArtifact && o.Constraints.UniqueInput && o.Constraints.UniqueOutput && o.Constraints.UniqueRelation && o.Constraints.HostingStack && o.Constraints.Technology,
				requiredIncoming: o.Constraints.RequiredIncomingRelation,
				enrichTechs:      o.Enricher.Technologies,
			}
			require.Equal(t, w, got)
			// The same in every version.
			require.False(t, o.Kinds[KindNode].Default || o.Kinds[KindInput].Default, "default conditions")
			require.True(t, o.Enricher.InputCondition && o.Enricher.Implementations, "enricher")
			require.False(t, o.Constraints.Constraints || o.Constraints.RelationSource || o.Constraints.RelationTarget ||
				o.Constraints.ArtifactContainer || o.Constraints.PropertyContainer || o.Constraints.TypeContainer ||
				o.Constraints.RequiredArtifact, "container constraints")
			require.Equal(t, w.checks, o.Checks.Persistent && o.Checks.RequiredTechnology && o.Checks.RelationSource && o.Checks.ExpectedHosting, "checks")
		})
	}
}

func TestOptionResolutionRules(t *testing.T) {
	tests := []struct {
		name    string
		version Version
		options string
		check   func(t *testing.T, o *Options)
	}{
		{"kind default inherits default_condition", V1, "default_condition: true", func(t *testing.T, o *Options) {
			for k := KindNode; k <= KindImport; k++ {
				if k == KindImport {
					continue
				}
				// Mode manual forces inputs and outputs off (table V1).
				want := "111/000"
				if k == KindInput || k == KindOutput {
					want = "000/000"
				}
				require.Equal(t, want, switches(o.Kinds[k]), "kind %s", k)
			}
		}},
		{"specific beats general", V1, "pruning: true, node_pruning: false, relation_semantic_pruning: false", func(t *testing.T, o *Options) {
			require.Equal(t, "000/000", switches(o.Kinds[KindNode]))
			require.Equal(t, "000/110", switches(o.Kinds[KindRelation]))
			require.Equal(t, "000/111", switches(o.Kinds[KindType]))
		}},
		{"consistency and semantic parents", V1, "node_default_condition: true, node_default_semantic_condition: false", func(t *testing.T, o *Options) {
			require.Equal(t, "110/000", switches(o.Kinds[KindNode]))
		}},
		{"RC3 treats inputs like other kinds", RC3, "mode: consistent-strict", func(t *testing.T, o *Options) {
			require.Equal(t, "110/000", switches(o.Kinds[KindInput]))
		}},
		{"user value beats the mode table", V1, "mode: consistent-loose, node_semantic_pruning: true, input_pruning: true", func(t *testing.T, o *Options) {
			require.Equal(t, "000/111", switches(o.Kinds[KindNode]))
			// The V1 table sets input_consistency_pruning and
			// input_semantic_pruning to false: they do not inherit the user's
			// input_pruning (§4.1).
			require.Equal(t, "000/100", switches(o.Kinds[KindInput]))
		}},
		{"mode options", V1, "node_default_condition_mode: host, relation_default_condition_mode: target, artifact_default_condition_mode: managed, property_default_condition_mode: container, technology_default_condition_mode: other", func(t *testing.T, o *Options) {
			require.Equal(t, []string{"host", "target", "managed", "container", "other"}, []string{
				o.Kinds[KindNode].Mode, o.Kinds[KindRelation].Mode, o.Kinds[KindArtifact].Mode,
				o.Kinds[KindProperty].Mode, o.Kinds[KindTechnology].Mode})
		}},
		{"relation_default_implied", RC3, "relation_default_implied: false", func(t *testing.T, o *Options) {
			require.False(t, o.RelationDefaultImplied)
		}},
		{"checks off", V1, "checks: false", func(t *testing.T, o *Options) {
			c := o.Checks
			require.False(t, c.Consistency || c.Semantic || c.Persistent || c.RelationSource || c.AmbiguousType ||
				c.ExpectedArtifact || c.RequiredTechnology || c.AmbiguousInput)
		}},
		{"consistency checks off", V1, "consistency_checks: false, ambiguous_type_check: true", func(t *testing.T, o *Options) {
			c := o.Checks
			require.True(t, c.Semantic && c.ExpectedHosting && c.Persistent && c.AmbiguousType)
			require.False(t, c.RelationSource || c.AmbiguousHosting || c.MissingTechnologyContainer || c.AmbiguousRelation)
		}},
		{"semantic checks off", RC2, "semantic_checks: false", func(t *testing.T, o *Options) {
			c := o.Checks
			require.True(t, c.Consistency && c.Persistent && c.AmbiguousOutput)
			require.False(t, c.ExpectedHosting || c.ExpectedIncomingRelation || c.ExpectedTechnology || c.RequiredTechnology)
		}},
		{"RC3 unconsumed and unproduced follow the checks", RC3, "semantic_checks: true", func(t *testing.T, o *Options) {
			require.True(t, o.Checks.UnconsumedInput)
			require.False(t, o.Checks.UnproducedOutput)
		}},
		{"RC2 unconsumed and unproduced stay off", RC2, "", func(t *testing.T, o *Options) {
			require.False(t, o.Checks.UnconsumedInput || o.Checks.UnproducedOutput)
		}},
		{"V1 constraints switch every constraint", V1, "constraints: true", func(t *testing.T, o *Options) {
			k := o.Constraints
			require.True(t, k.RelationSource && k.RelationTarget && k.ArtifactContainer && k.PropertyContainer &&
				k.TypeContainer && k.HostingStack && k.Technology && k.UniqueProperty && k.UniqueArtifact &&
				k.UniqueInput && k.UniqueOutput && k.UniqueRelation && k.RequiredArtifact && k.RequiredIncomingRelation)
		}},
		// Quirk: RC2/RC3 read the user's constraints for their defaults.
		{"RC2 constraints false", RC2, "constraints: false", func(t *testing.T, o *Options) {
			k := o.Constraints
			require.False(t, k.HostingStack || k.Technology || k.UniqueProperty || k.UniqueRelation || k.RequiredIncomingRelation)
		}},
		{"RC3 constraints true", RC3, "constraints: true, unique_input_constraint: false", func(t *testing.T, o *Options) {
			k := o.Constraints
			require.True(t, k.RequiredIncomingRelation && k.RelationSource && k.RequiredArtifact && k.HostingStack)
			require.False(t, k.UniqueInput)
		}},
		{"RC3 required incoming relation", RC3, "required_incoming_relation_constraint: true", func(t *testing.T, o *Options) {
			require.True(t, o.Constraints.RequiredIncomingRelation)
			require.False(t, o.Constraints.RelationSource)
		}},
		{"enricher", V1, "enrich_input_condition: false, enrich_technologies: true, enrich_implementations: false", func(t *testing.T, o *Options) {
			require.Equal(t, Enricher{Technologies: true}, o.Enricher)
		}},
		// Optimisation (§4.3): true minimises, except for technologies in
		// RC2/RC3, where it maximises.
		{"V1 technologies true minimises", V1, "optimization_technologies: true", func(t *testing.T, o *Options) {
			require.Equal(t, Optimization{Optimize: true, Min: true, Mode: "count"}, o.Solver.Technologies)
		}},
		{"RC3 technologies min", RC3, "optimization_technologies: min, optimization_technologies_unique: true, optimization_technologies_mode: count", func(t *testing.T, o *Options) {
			require.Equal(t, Optimization{Optimize: true, Min: true, Unique: true, Mode: "count"}, o.Solver.Technologies)
		}},
		{"RC2 technologies off", RC2, "optimization_technologies: false", func(t *testing.T, o *Options) {
			require.Equal(t, Optimization{Mode: "weight-count"}, o.Solver.Technologies)
		}},
		{"topology max", V1, "optimization_topology: max, optimization_topology_unique: false, optimization_topology_mode: count", func(t *testing.T, o *Options) {
			require.Equal(t, Optimization{Optimize: true, Max: true, Mode: "count"}, o.Solver.Topology)
		}},
		{"topology off", RC3, "optimization_topology: false", func(t *testing.T, o *Options) {
			require.Equal(t, Optimization{Unique: true, Mode: "weight"}, o.Solver.Topology)
		}},
		{"unknown options are ignored", V1, "anchor_check: 5, required_hosting_constraint: maybe", func(t *testing.T, o *Options) {
			require.Equal(t, "manual", o.Mode)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := resolveWith(t, tc.version, tc.options)
			require.NoError(t, err, "options %s", tc.options)
			tc.check(t, o)
		})
	}
}

func TestOptionErrorRules(t *testing.T) {
	for _, tc := range []struct {
		version       Version
		options, want string
	}{
		{V1, "mode: 5", `Pruning mode "5" unknown`},
		{RC3, "mode: Manual", `Pruning mode "Manual" unknown`},
		{V1, "default_condition: 1", `Element "1" is not a boolean`},
		{V1, "relation_default_implied: 'true'", `Element ""true"" is not a boolean`},
		{V1, "node_default_condition_mode: 5", `Element "5" is not a string`},
		{RC2, "artifact_default_condition_mode: [container]", `Element "["container"]" is not a string`},
		{V1, "checks: 'no'", `Element ""no"" is not a boolean`},
		{V1, "persistent_check: 0", `Element "0" is not a boolean`},
		{V1, "constraints: 1", `Element "1" is not a boolean`},
		{RC2, "hosting_stack_constraint: 'on'", `Element ""on"" is not a boolean`},
		{V1, "enrich_technologies: 1", `Element "1" is not a boolean`},
		{V1, "optimization_topology: 1", `Option optimization_topology must be a boolean, "min", or "max"`},
		{RC3, "optimization_technologies: maximum", `Option optimization_technologies must be a boolean, "min", or "max"`},
		{V1, "optimization_topology_unique: 'yes'", `Element ""yes"" is not a boolean`},
		{V1, "optimization_topology_mode: 1", `Option optimization_topology_mode must be "weight" or "count"`},
		// The message names the singular option (§4.3).
		{RC2, "optimization_technologies_mode: both", `Option optimization_technology_mode must be "weight", "count", or "weight-count"`},
		{RC3, "optimization_technologies_mode: 2", `Option optimization_technology_mode must be "weight", "count", or "weight-count"`},
		{V1, "optimization_technologies_mode: weight-count", `Option optimization_technology_mode must be "weight" or "count"`},
	} {
		t.Run(versionNames[tc.version]+"/"+tc.options, func(t *testing.T) {
			_, err := resolveWith(t, tc.version, tc.options)
			require.EqualError(t, err, tc.want)
		})
	}
}

func TestOptionNamesRules(t *testing.T) {
	names := OptionNames()
	require.True(t, sort.StringsAreSorted(names))
	// 60 global names and six for each of the ten kinds of §4.1.
	require.Len(t, names, 120)
	for _, n := range []string{"mode", "node_pruning", "technology_semantic_pruning", "input_default_condition",
		"optimization_technologies_mode", "optimization_topology_unique", "required_technology_check", "unique_relation_constraint",
		"relation_default_implied", "unproduced_output_check", "artifact_default_condition_mode",
		// Declared by the schema, never read (§4.1).
		"consistency_pruning", "semantic_pruning",
		"bratans_unknown", "technology_required"} {
		require.True(t, IsOption(n), n)
	}
	// Names of later Vintner versions are unknown to 0.1.8 (Appendix B).
	for _, n := range []string{"input_default_condition_mode", "anchor_check", "required_hosting_constraint", "single_hosting_constraint", "optimization_scenarios", "import_pruning"} {
		require.False(t, IsOption(n), n)
	}
	for _, n := range names {
		require.False(t, strings.Contains(n, "import_"), n)
	}
}
