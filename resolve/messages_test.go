package resolve

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// TestMessages pins the text of every message built in messages.go: each is
// the reference's, byte for byte (variability.md §16).
func TestMessages(t *testing.T) {
	node := &graph.Element{Kind: graph.KindNode, Name: "n", Index: -1}
	db := &graph.Element{Kind: graph.KindNode, Name: "db", Index: -1}
	rel := &graph.Element{Kind: graph.KindRelation, Name: "conn", Index: 0, Container: node, TemplateParts: &graph.TemplateParts{Target: db}}
	prop := &graph.Element{Kind: graph.KindProperty, Name: "p", Index: 1, Container: node}
	in := &graph.Element{Kind: graph.KindInput, Name: "size", Index: 0}
	out := &graph.Element{Kind: graph.KindOutput, Name: "url", Index: 0}
	pol := &graph.Element{Kind: graph.KindPolicy, Name: "pol", Index: 2}

	for _, tc := range []struct{ name, got, want string }{
		// graph/loader.js.
		{"msgVersionNotSupported", msgVersionNotSupported(yamlsrc.NewString("tosca_simple_yaml_1_2")),
			`TOSCA definitions version "tosca_simple_yaml_1_2" not supported`},
		{"msgVersionNotSupported number", msgVersionNotSupported(yamlsrc.NewNumber(1.3)),
			`TOSCA definitions version "1.3" not supported`},
		{"msgTypeDuplicated", msgTypeDuplicated("node_types", "app", "lib/types.yaml"),
			`node_types "app" duplicated in service template "lib/types.yaml"`},
		{"msgDerivedFromItself", msgDerivedFromItself("node_types", "app"), `node_types "app" is derived from itself...`},

		// resolver/index.js, resolver/validator.js.
		{"msgPresetNotFound", msgPresetNotFound("large"), `Did not find variability preset "large"`},
		{"msgConstraintsViolated", msgConstraintsViolated, `Variability inputs constraints are violated`},

		// resolver/solver.js, resolver/optimizer.js, logic-solver.
		{"msgCouldNotSolve", msgCouldNotSolve, `Could not solve`},
		{"msgAmbiguousResult nodes", msgAmbiguousResult("nodes", "without"), `The result is ambiguous considering nodes (without optimization)`},
		{"msgAmbiguousResult technologies", msgAmbiguousResult("technologies", "besides"),
			`The result is ambiguous considering technologies (besides optimization)`},
		{"msgNotWholeNumbers", msgNotWholeNumbers("100,7.000000000000001"), `100,7.000000000000001 is not an array of a whole number (integer >= 0)`},
		{"msgHasNoValue", msgHasNoValue(prop), `Property "p@1" of node "n" has no value`},

		// resolver/checker.js.
		{"msgRelationSourceMissing", msgRelationSourceMissing(rel), `Relation source "n" of relation "conn@0" of node "n" does not exist`},
		{"msgRelationTargetMissing", msgRelationTargetMissing(rel), `Relation target "db" of relation "conn@0" of node "n" does not exist`},
		{"msgContainerMissing", msgContainerMissing(prop), `Container of property "p@1" of node "n" does not exist`},
		{"msgAmbiguous", msgAmbiguous(rel), `Relation "conn@0" of node "n" is ambiguous`},
		{"msgMoreThanOneHosting", msgMoreThanOneHosting(node), `Node "n" has more than one hosting relations`},
		{"msgExpectedHosting", msgExpectedHosting(node), `Node "n" expected to have a hosting relation`},
		{"msgExpectedIncoming", msgExpectedIncoming(node), `Node "n" expected to have an incoming relation`},
		{"msgExpectedArtifact", msgExpectedArtifact(node), `Node "n" expected to have an deployment artifact`},
		{"msgExpectedTechnology", msgExpectedTechnology(node), `Node "n" expected to have a technology`},
		{"msgMoreThanOneTechnology", msgMoreThanOneTechnology(node), `Node "n" has more than one technology`},
		{"msgNotConsumed", msgNotConsumed(in), `Input "size@0" is not consumed`},
		{"msgNotProduced", msgNotProduced(out), `Output "url@0" is not produced`},

		// resolver/transformer.js.
		{"msgNoPresentType", msgNoPresentType(pol), `Policy "pol@2" has no present type`},
		{"msgNoPresentTechnology", msgNoPresentTechnology(node), `Node "n" has no present technology`},
		{"msgPolicyTargetNotNodeOrGroup", msgPolicyTargetNotNodeOrGroup("x", pol),
			`Policy target "x" of "policy "pol@2"" is neither a node template nor a group template`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.got)
		})
	}
}
