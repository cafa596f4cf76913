package encode

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
	prop := &graph.Element{Kind: graph.KindProperty, Name: "p", Index: 0, Container: node}
	expr := yamlsrc.MapOf("logic_expression", yamlsrc.NewString("e"))

	for _, tc := range []struct{ name, got, want string }{
		{"msgVariabilityGroups", msgVariabilityGroups, `Variability groups are not allowed`},
		{"msgLogicExpressionMissing", msgLogicExpressionMissing("e"), `Did not find logic expression "e"`},
		{"msgLogicExpressionString", msgLogicExpressionString(expr),
			"Logic expression \"{\n    \"logic_expression\": \"e\"\n}\" must not be a string"},
		{"msgUnknownValueExpression", msgUnknownValueExpression(yamlsrc.NewNumber(5)), `Unknown value expression "5"`},
		{"msgImpliesTooLong", msgImpliesTooLong(prop), `Property "p@0" of node "n" has an implies with more than 2 elements`},
		{"msgImpliesNoTarget", msgImpliesNoTarget(node), `Node "n" has an implies without an target`},
		{"MsgNotTerm", MsgNotTerm("a,b"), `a,b is not a Formula or Term`},
		{"MsgNotTerms", MsgNotTerms("a,[object Object]"), `a,[object Object] is not an array of a Formula or Term`},
		{"msgStringNotTerm", msgStringNotTerm(`1"`), `"1\"" is not a Formula or Term`},
		{"msgStringNotTerm empty", msgStringNotTerm(""), `"" is not a Formula or Term`},
		{"msgGeneratedName", msgGeneratedName, `Only generated variable names can start with $`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.got)
		})
	}
}
