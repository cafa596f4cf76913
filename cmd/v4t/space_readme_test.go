package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpacesReadme runs the examples of the README's sections on
// enumerate, analyze, sample and configuration spaces: the "$ " sessions
// with their output, and every other block of v4t command lines (not the
// usage blocks) with exit status 0.
func TestSpacesReadme(t *testing.T) {
	sections := []string{"### `v4t enumerate`", "### `v4t analyze`", "### `v4t sample`", "## Configuration spaces"}
	var all [][]block
	for _, h := range sections {
		all = append(all, readmeBlocks(t, h))
	}
	withTestdata(t)
	sessions, lines := 0, 0
	for i, blocks := range all {
		for _, b := range blocks {
			if len(b.lines) == 0 {
				continue
			}
			if strings.HasPrefix(b.lines[0], "$ ") {
				sessions++
				runSession(t, b.lines)
				continue
			}
			if b.info != "" || !strings.HasPrefix(b.lines[0], "v4t ") || strings.Contains(b.lines[0], " FILE") {
				continue // usage lines, YAML
			}
			for _, line := range b.lines {
				lines++
				_, args, err := parseCommand(line)
				require.NoError(t, err, "%s: %s", sections[i], line)
				var stdout, stderr bytes.Buffer
				require.Equal(t, exitOK, run(args, strings.NewReader(""), &stdout, &stderr), "%s: %s: %s", sections[i], line, stderr.String())
			}
		}
	}
	require.Equal(t, 2, sessions, "the README's sessions")
	require.Equal(t, 9, lines, "the README's command lines")
}
