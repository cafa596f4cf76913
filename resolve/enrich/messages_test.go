package enrich

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
)

// TestMessages pins the text of every message built in messages.go: each is
// the reference's, byte for byte (variability.md §16).
func TestMessages(t *testing.T) {
	node := &graph.Element{Kind: graph.KindNode, Name: "broker", Index: -1}
	tech := &graph.Element{Kind: graph.KindTechnology, Name: "helm", Index: 1, Container: node}
	art := &graph.Element{Kind: graph.KindArtifact, Name: "a", Index: 0, Container: node}

	for _, tc := range []struct{ name, got, want string }{
		{"msgNoImplementation", msgNoImplementation(node, tech),
			`Node "broker" has no implementation for technology "helm@1" of node "broker"`},
		{"msgNoTechnologyCandidates", msgNoTechnologyCandidates(node), `Node "broker" has no technology candidates`},
		{"msgTypeSpecificWithoutConditions", msgTypeSpecificWithoutConditions(node),
			`Node "broker" holds type-specific condition without any condition`},
		{"msgUnknownMode", msgUnknownMode(art, "bogus"), `Artifact "a@0" of node "broker" has unknown mode "bogus" as default condition`},
		{"msgUnknownMode technology", msgUnknownMode(tech, "container-bogus"),
			`Technology "helm@1" of node "broker" has unknown mode "container-bogus" as default condition`},
		{"msgNoDefaultAlternativeCondition", msgNoDefaultAlternativeCondition(art),
			`Artifact "a@0" of node "broker" has no default alternative condition`},
		{"msgLeftNotDefined", msgLeftNotDefined, `Left not defined`},
		{"msgNoTopologyTemplate", msgNoTopologyTemplate, `Service template has no topology template`},
		{"msgCannotSetNull", msgCannotSetNull("_generated"), `Cannot set properties of null (setting '_generated')`},
		{"msgCallStackExceeded", msgCallStackExceeded, `Maximum call stack size exceeded`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.got)
		})
	}
}
