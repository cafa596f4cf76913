package testkit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// ConformanceEnv names the environment variable that says where the
// third-party conformance corpora are: a directory holding vintner/,
// toskeriser/ and sd/. Unset, it is ../shared/conformance relative to the
// repository root; a relative value is also taken relative to the root.
const ConformanceEnv = "V4T_CONFORMANCE"

// DefaultConformance is the corpora's place when ConformanceEnv is unset,
// relative to the repository root.
var DefaultConformance = filepath.Join("..", "shared", "conformance")

// Corpora are the three conformance corpora, by directory name.
var Corpora = []string{"vintner", "toskeriser", "sd"}

// skipped and partial count, per test binary, the tests that Corpus skipped
// and those that LookupCorpus let run without their corpus; CorporaMain
// reports them.
var skipped, partial atomic.Int64

// RepoRoot returns the root of the v4t module: the nearest directory at or
// above the working directory (a package directory under go test) whose
// go.mod declares module v4t. It panics when there is none, which means the
// tests run outside the repository.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(fmt.Sprintf("testkit: working directory: %v", err))
	}
	for {
		if isV4TModule(filepath.Join(dir, "go.mod")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			panic("testkit: no go.mod of module v4t at or above the working directory")
		}
		dir = parent
	}
}

func isV4TModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == "v4t"
		}
	}
	return false
}

// ConformanceRoot returns the directory of the conformance corpora:
// $V4T_CONFORMANCE, or ../shared/conformance, relative paths taken from the
// repository root. The directory need not exist.
func ConformanceRoot() string {
	dir := os.Getenv(ConformanceEnv)
	if dir == "" {
		dir = DefaultConformance
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(RepoRoot(), dir)
	}
	return filepath.Clean(dir)
}

// LookupCorpus returns the directory of the corpus name (one of Corpora)
// and whether it exists. A test that runs in part without the corpus calls
// it with t, and is then counted and logged as having run without it; t
// may be nil for callers that only want the path.
func LookupCorpus(t testing.TB, name string) (string, bool) {
	dir := filepath.Join(ConformanceRoot(), name)
	st, err := os.Stat(dir)
	ok := err == nil && st.IsDir()
	if !ok && t != nil {
		t.Helper()
		partial.Add(1)
		t.Logf("conformance corpus %s not found at %s: set %s to include it", name, dir, ConformanceEnv)
	}
	return dir, ok
}

// Corpus returns the directory of the corpus name (one of Corpora), or
// skips t with a message naming ConformanceEnv when it is absent. Every
// test that reads a third-party corpus finds it through Corpus or
// LookupCorpus.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	dir, ok := LookupCorpus(nil, name)
	if !ok {
		skipped.Add(1)
		t.Skip(skipMessage(dir, name))
	}
	return dir
}

func skipMessage(dir, name string) string {
	return fmt.Sprintf("conformance corpora not found at %s: set %s to run this test on the %s corpus", filepath.Dir(dir), ConformanceEnv, name)
}

// CorporaMain runs the tests of a package that reads the corpora, as its
// TestMain does, and says afterwards what did not run for want of them:
//
//	resolve/suite: conformance corpora not found at DIR (V4T_CONFORMANCE): skipped N corpus tests
//
// go test ./... shows no output of a passing package without -v, so that
// line goes to the terminal (/dev/tty) when there is one and standard error
// is not it; otherwise, and under -v, to standard error.
func CorporaMain(m *testing.M) int {
	code := m.Run()
	if n, p := skipped.Load(), partial.Load(); n > 0 || p > 0 {
		var what []string
		if n > 0 {
			what = append(what, "skipped "+count(n, "corpus test"))
		}
		if p > 0 {
			what = append(what, "ran "+count(p, "test")+" without them")
		}
		Notice(fmt.Sprintf("%s: conformance corpora not found at %s (%s): %s", packagePath(), ConformanceRoot(), ConformanceEnv, strings.Join(what, ", ")))
	}
	return code
}

func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Notice prints one line where a go test ./... run shows it, whether the
// package passes or not (see CorporaMain).
func Notice(line string) {
	var w io.Writer = os.Stderr
	if !testing.Verbose() && !isTerminal(os.Stderr) {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
	}
	fmt.Fprintln(w, line)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// packagePath is the working directory relative to the repository root:
// under go test, the package's directory, e.g. resolve/suite.
func packagePath() string {
	wd, err := os.Getwd()
	if err != nil {
		return "v4t"
	}
	rel, err := filepath.Rel(RepoRoot(), wd)
	if err != nil || rel == "." {
		return "v4t"
	}
	return filepath.ToSlash(rel)
}
