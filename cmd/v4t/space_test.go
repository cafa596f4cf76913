package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpaceHelpExamples runs every example line of the help of enumerate,
// analyze and sample from a directory where testdata is the repository's.
func TestSpaceHelpExamples(t *testing.T) {
	withTestdata(t)
	for _, c := range []*command{enumerateCommand(), analyzeCommand(), sampleCommand()} {
		for _, line := range strings.Split(c.example, "\n") {
			_, args, err := parseCommand(line)
			require.NoError(t, err, line)
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "%s: %s", line, stderr.String())
			require.NotEmpty(t, stdout.String(), line)
		}
	}
}
