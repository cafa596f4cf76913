package validate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogicOperators keeps varLogicOps equal to the dispatch list of
// encode (encode.logicKeys), which this package may not import: the
// list is read from the source.
func TestLogicOperators(t *testing.T) {
	file := filepath.Join("..", "..", "encode", "translate.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	require.NoError(t, err)
	var keys []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "logicKeys" || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.CompositeLit)
		require.True(t, ok, "logicKeys of %s is not a literal", file)
		for _, e := range lit.Elts {
			b, ok := e.(*ast.BasicLit)
			require.True(t, ok, "an element of logicKeys of %s is not a string", file)
			s, err := strconv.Unquote(b.Value)
			require.NoError(t, err)
			keys = append(keys, s)
		}
		return false
	})
	require.NotEmpty(t, keys, "no logicKeys in %s", file)
	assert.Equal(t, keys, varLogicOps, "the logic operators of %s", file)
}
