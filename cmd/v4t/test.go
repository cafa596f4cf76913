package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"v4t/resolve/suite"
)

func testCommand() *command {
	return &command{
		name:    "test",
		summary: "run conformance cases found under directories",
		usage:   "v4t test DIR... [--verbose] [--known-failures FILE] [--write-known-failures FILE] [--jobs N]",
		help: `Test discovers the conformance cases under each DIR and runs them. A case
is named by the base name of its DIR and the path below it, for example
vintner/pruning/alpha-default. Directories starting with "." are ignored,
names ending in ---disabled are skipped, and ---only siblings restrict.

It prints "FAIL <case>: <reason>" for each failing case, in sorted order,
and ends with "N passed, N failed". The exit status is 1 if any case failed.

With --known-failures FILE, failing cases listed in FILE are expected: the
command prints "UNEXPECTED FAIL <case>" for failures not listed and
"UNEXPECTED PASS <case>" for listed cases that pass, and exits 1 only if
there is such a line. FILE holds one case per line; blank lines and lines
starting with # are ignored.`,
		example: "v4t test ../shared/conformance/vintner --known-failures testdata/conformance-known-failures.txt",
		setup:   setupTest,
	}
}

func setupTest(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	var verbose bool
	var knownFile, writeFile string
	var jobs int
	fs.BoolVarP(&verbose, "verbose", "v", false, "show the diff of each failing case")
	fs.StringVar(&knownFile, "known-failures", "", "expect the failing cases listed in `FILE`")
	fs.StringVar(&writeFile, "write-known-failures", "", "write the failing cases to `FILE` as a known-failures list")
	fs.IntVarP(&jobs, "jobs", "j", 0, "run `N` cases at once (default: GOMAXPROCS)")
	return func(ctx context.Context, e *env, dirs []string) int {
		if len(dirs) == 0 {
			return e.usage("test", "expected at least one DIR")
		}
		if jobs < 0 {
			return e.usage("test", "--jobs must not be negative")
		}
		var known map[string]bool
		if knownFile != "" {
			var err error
			if known, err = suite.LoadKnownFailures(knownFile); err != nil {
				return e.fail("test", err)
			}
		}
		cases, err := suite.Discover(dirs, suite.DefaultRunners())
		if err != nil {
			return e.fail("test", err)
		}
		opts := suite.Options{Jobs: jobs}
		if isTerminal(e.stderr) {
			opts.Progress = func(done, total int) {
				fmt.Fprintf(e.stderr, "\r%d/%d cases", done, total)
				if done == total {
					fmt.Fprint(e.stderr, "\r\033[K")
				}
			}
		}
		results := suite.Run(ctx, cases, opts)

		out := bufio.NewWriter(e.stdout)
		for _, r := range results {
			if r.Pass {
				continue
			}
			fmt.Fprintf(out, "FAIL %s: %s\n", r.Case.Path, r.Reason)
			if verbose && r.Diff != "" {
				for _, line := range strings.SplitAfter(strings.TrimRight(r.Diff, "\n"), "\n") {
					fmt.Fprintf(out, "    %s", line)
				}
				fmt.Fprintln(out)
			}
		}
		code := exitOK
		passed, failed := suite.Counts(results)
		if known != nil {
			unexpectedFail, unexpectedPass := suite.Ratchet(results, known)
			for _, p := range unexpectedFail {
				fmt.Fprintf(out, "UNEXPECTED FAIL %s\n", p)
			}
			for _, p := range unexpectedPass {
				fmt.Fprintf(out, "UNEXPECTED PASS %s\n", p)
			}
			if len(unexpectedFail)+len(unexpectedPass) > 0 {
				code = exitRejected
			}
		} else if failed > 0 {
			code = exitRejected
		}
		fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
		if err := out.Flush(); err != nil {
			return e.fail("test", fmt.Errorf("cannot write the report: %w", err))
		}
		if writeFile != "" {
			var b bytes.Buffer
			if err := suite.WriteKnownFailures(&b, results); err != nil {
				return e.fail("test", err)
			}
			if err := writeFileAtomic(writeFile, b.Bytes()); err != nil {
				return e.fail("test", err)
			}
		}
		return code
	}
}

// isTerminal reports whether w is a terminal (progress goes only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && terminal(f)
}
