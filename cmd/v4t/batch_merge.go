package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"v4t/model/yamlsrc"
	"v4t/resolve/batch"
)

// lookupEnv reads an environment variable through the env's getenv, or
// from the process when none is set (tests set one).
func (e *env) lookupEnv(name string) (string, bool) {
	if e.getenv != nil {
		return e.getenv(name)
	}
	return os.LookupEnv(name)
}

// mergeSummaries runs v4t batch merge SUMMARY...: it merges the summaries
// of the shards of a space into the summary of the whole space
// (batch.Merge).
func mergeSummaries(e *env, fs *pflag.FlagSet, files []string, format, output string, noTimings bool) int {
	for _, name := range []string{"jobs", "shard", "out", "commands", "force"} {
		if fs.Changed(name) {
			return e.usage("batch", fmt.Sprintf("--%s does not apply to batch merge", name))
		}
	}
	if len(files) == 0 {
		return e.usage("batch", "batch merge: expected one or more SUMMARY files")
	}
	stdin := 0
	for _, f := range files {
		if f == "-" {
			if stdin++; stdin > 1 {
				return e.usage("batch", "batch merge: standard input (-) can be read once")
			}
		} else if err := readable(f); err != nil {
			return e.fail("batch", err)
		}
	}
	var sums []*batch.Summary
	for _, f := range files {
		var data []byte
		var err error
		if f == "-" {
			data, err = e.readStdin()
			f = stdinName
		} else if data, err = yamlsrc.ReadFile(f); err != nil {
			err = fmt.Errorf("%s: cannot read: %w", f, unwrapPath(err))
		}
		if err != nil {
			return e.fail("batch", err)
		}
		s, err := batch.ReadSummary(data, f)
		if err != nil {
			return e.fail("batch", err)
		}
		sums = append(sums, s)
	}
	m, err := batch.Merge(sums)
	if err != nil {
		return e.fail("batch", err)
	}
	if !fs.Changed("format") {
		format = m.Format
	}
	if format == "json" && m.Format == "csv" {
		return e.usage("batch", "--format json: CSV summaries merge to CSV or a table (their inputs and options are text): run the shards with --format json")
	}
	write := summaryWriters[format]
	var buf bytes.Buffer
	if err := write(m.Result, &buf, batch.SummaryOptions{Timings: m.Timings && !noTimings, Stages: m.Stages}); err != nil {
		return e.fail("batch", err)
	}
	if err := writeOutput(e, output, buf.Bytes()); err != nil {
		return e.fail("batch", err)
	}
	ok, failed, notRun := m.Counts()
	withWarnings := ""
	if n := m.WarnedRuns(); n > 0 {
		withWarnings = fmt.Sprintf(", %d with warnings", n)
	}
	if notRun > 0 {
		fmt.Fprintf(e.stderr, "merged %d summaries: %d runs: %d ok, %d failed%s, %d not run\n", len(sums), len(m.Rows), ok, failed, withWarnings, notRun)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "merged %d summaries: %d runs: %d ok, %d failed%s\n", len(sums), len(m.Rows), ok, failed, withWarnings)
	return exitOK
}
