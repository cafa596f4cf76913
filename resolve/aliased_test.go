package resolve

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAliasedExpressions: two expression names that share one value through
// an alias are one term, named after the first use, as the reference marks
// the shared object (encode.Options.Unshared is false for such a template).
func TestAliasedExpressions(t *testing.T) {
	path := writeTemplate(t, `tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    inputs: {big: {type: boolean, default: true}}
    expressions:
      a: &big {variability_input: big}
      b: *big
  node_templates:
    x: {type: t, conditions: {logic_expression: a}}
    y: {type: t, conditions: {logic_expression: b}}
`)
	var dump bytes.Buffer
	_, err := Resolve(context.Background(), Input{TemplatePath: path}, Options{Dump: func(f *Formula) error { return f.WriteDIMACS(&dump) }})
	require.NoError(t, err)
	require.Contains(t, dump.String(), " expression.a\n")
	require.NotContains(t, dump.String(), "expression.b")
}
