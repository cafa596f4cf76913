package tosca

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// The embedded snapshot is normative.yaml as yamlsrc parses it; after a
// change to normative.yaml, go test -update (or V4T_UPDATE=1) rewrites it.
func TestNormativeSnapshot(t *testing.T) {
	v, err := yamlsrc.Parse(Normative(), NormativeFile)
	require.NoError(t, err)
	want, err := yamlsrc.EncodeSnapshot(v)
	require.NoError(t, err)
	if testkit.Update() {
		require.NoError(t, os.WriteFile("normative.snap", want, 0o644))
		return
	}
	got, err := os.ReadFile("normative.snap")
	require.NoError(t, err)
	require.True(t, string(want) == string(got), "normative.snap is not normative.yaml's snapshot: run go test ./model/tosca -update")
	require.Equal(t, string(want), NormativeSnapshot(), "the embedded snapshot is the file's")
	decoded, err := yamlsrc.DecodeSnapshot(NormativeSnapshot())
	require.NoError(t, err)
	require.Equal(t, yamlsrc.JSON(v), yamlsrc.JSON(decoded))
}
