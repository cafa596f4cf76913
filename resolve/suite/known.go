package suite

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// KnownFailuresHeader is the comment block at the top of a known-failures
// file written by WriteKnownFailures.
const KnownFailuresHeader = `# Conformance cases that v4t is known to fail.
#
# One case path per line, exactly as ` + "`v4t test`" + ` prints it: the base name of the
# directory given to it, then the path of the case below that directory.
# Blank lines and lines starting with # are ignored.
#
# This list only shrinks. CI fails on a failing case that is not listed here
# and on a listed case that passes. Regenerate it after fixing cases with
#   go run ./cmd/v4t test ../shared/conformance/vintner --write-known-failures testdata/conformance-known-failures.txt
# and review the diff: it must only remove lines.
`

// ReadKnownFailures reads a known-failures list.
func ReadKnownFailures(r io.Reader) (map[string]bool, error) {
	known := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		known[line] = true
	}
	return known, sc.Err()
}

// LoadKnownFailures reads a known-failures file.
func LoadKnownFailures(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	defer f.Close()
	known, err := ReadKnownFailures(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return known, nil
}

// WriteKnownFailures writes the failing cases of results as a known-failures
// list: the header, then the case paths, sorted.
func WriteKnownFailures(w io.Writer, results []Result) error {
	var failing []string
	for _, r := range results {
		if !r.Pass {
			failing = append(failing, r.Case.Path)
		}
	}
	sort.Strings(failing)
	var b strings.Builder
	b.WriteString(KnownFailuresHeader)
	b.WriteString("\n")
	for _, p := range failing {
		b.WriteString(p)
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Ratchet compares results with a known-failures list. UnexpectedFail holds
// failing cases that are not listed, UnexpectedPass listed cases that pass;
// both sorted.
func Ratchet(results []Result, known map[string]bool) (unexpectedFail, unexpectedPass []string) {
	for _, r := range results {
		switch {
		case !r.Pass && !known[r.Case.Path]:
			unexpectedFail = append(unexpectedFail, r.Case.Path)
		case r.Pass && known[r.Case.Path]:
			unexpectedPass = append(unexpectedPass, r.Case.Path)
		}
	}
	sort.Strings(unexpectedFail)
	sort.Strings(unexpectedPass)
	return unexpectedFail, unexpectedPass
}
