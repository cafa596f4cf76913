package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/diag"
	"v4t/resolve/sd"
)

func sdCommand() *command {
	return &command{
		name:    "sd",
		summary: "merge Solution Descriptors into an environment, as EnvGene's pipeline does",
		usage: "v4t sd [--env-dir DIR] [--source-type T] [--sd-version V] [--sd-version-multiple V] [--sd-data J] [--sd-data-multiple J] [--sd-delta B] [--merge-mode M] [--repo-merge-mode M] [--artifact-dir D]\n" +
			"       v4t sd merge FULL DELTA... [--mode M] [--output FILE] [--delta-output FILE] [--namespaces DIR]",
		help: `Sd processes Solution Descriptors (SDs) as the pipeline step of EnvGene does
(sd-merge.md): it obtains the incoming SDs, given as JSON (--sd-data) or as
artifacts name:version read from a local directory (--sd-version,
--artifact-dir), merges them in the merge mode (basic-merge,
basic-exclusion-merge, extended-merge or replace), and merges the result
into the environment's Full SD, Inventory/solution-descriptor/sd.yml (or an
existing sd.yaml), writing the incoming SD as the Delta SD beside it. With
--sd-delta false, or mode replace, the incoming SD overwrites the Full SD.

Every flag has an environment variable of the pipeline (SD_SOURCE_TYPE,
SD_VERSION, SD_VERSION_MULTIPLE, SD_DATA, SD_DATA_MULTIPLE, SD_DELTA,
SD_MERGE_MODE, SD_REPO_MERGE_MODE, SD_ARTIFACT_DIR); a flag on the command
line replaces its variable, even when empty. Without --env-dir the
environment is $CI_PROJECT_DIR/environments/$FULL_ENV_NAME, or
$CI_PROJECT_DIR/environments/$CLUSTER_NAME/$ENVIRONMENT_NAME
(CI_PROJECT_DIR defaults to the current directory).

Warnings go to stderr as "warning: MESSAGE", an error as "error: MESSAGE"
(possibly several lines); the files written are listed on stdout. A remark
that is not one of the spec's warnings goes to stderr as "note: MESSAGE":
SD_DELTA=true without a merge mode notes that it merges with basic-merge
(SD_DELTA does not choose the mode, as it did in EnvGene). A failing
run changes no file; files are written atomically.

"v4t sd merge FULL DELTA..." merges files without the environment layout:
the SDs in the DELTA files (YAML, or JSON for .json files; one SD or a list
of SDs each) are combined and merged into the Full SD in FULL (a missing or
empty FULL is a first write; --mode replace overwrites it). The new Full SD
goes to stdout or --output; --delta-output also writes the Delta SD when the
run produces one. FULL itself is not changed unless it is the --output.

Exit status: 0 success, 1 rejected input (the message says why), 2 usage
error, 3 internal error.`,
		example: `SD_SOURCE_TYPE=json SD_DATA='{"applications":[{"version":"postgres:1.33.0","deployPostfix":"postgresql"}]}' \
  v4t sd --env-dir environments/cluster-01/env-01 --merge-mode basic-merge
v4t sd merge sd.yml delta.yaml --mode extended-merge --output sd.yml`,
		setup: setupSD,
	}
}

// sdMergeFlags are the flags of "v4t sd merge" only.
var sdMergeFlags = []string{"mode", "output", "delta-output", "namespaces"}

func setupSD(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	isParam := map[string]bool{}
	for _, p := range sd.Params() {
		isParam[p.Flag] = true
		usage := p.Usage
		if p.Var != "" {
			usage += " (" + p.Var + ")"
		}
		fs.String(p.Flag, "", usage)
	}
	mode := fs.String("mode", "", "merge: the merge `MODE` (default basic-merge)")
	output := fs.StringP("output", "o", "", "merge: write the new Full SD to `FILE` instead of stdout")
	deltaOut := fs.String("delta-output", "", "merge: also write the Delta SD to `FILE` when there is one")
	namespaces := fs.String("namespaces", "", "merge: the Namespaces `DIR` for SDs marked with useDeployPostfixAsNamespace")
	return func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 && args[0] == "merge" {
			for name := range isParam {
				if fs.Changed(name) {
					return e.usage("sd", fmt.Sprintf("--%s is not a flag of 'v4t sd merge'", name))
				}
			}
			return runSDMerge(ctx, e, args[1:], sdMergeArgs{mode: *mode, output: *output, deltaOutput: *deltaOut, namespaces: *namespaces})
		}
		if len(args) > 0 {
			return e.usage("sd", fmt.Sprintf("unexpected argument %q", args[0]))
		}
		for _, name := range sdMergeFlags {
			if fs.Changed(name) {
				return e.usage("sd", fmt.Sprintf("--%s is a flag of 'v4t sd merge'", name))
			}
		}
		flags := map[string]string{}
		fs.Visit(func(f *pflag.Flag) {
			if isParam[f.Name] {
				flags[f.Name] = f.Value.String()
			}
		})
		res, err := sd.Run(ctx, sd.Input{Getenv: os.LookupEnv, Flags: flags}, sd.Options{Warn: e.sdWarning, Note: e.sdNote})
		if err != nil {
			return e.sdFail(err)
		}
		for _, f := range res.Written {
			fmt.Fprintf(e.stdout, "wrote %s\n", f)
		}
		for _, f := range res.Removed {
			fmt.Fprintf(e.stdout, "removed %s\n", f)
		}
		return exitOK
	}
}

type sdMergeArgs struct {
	mode, output, deltaOutput, namespaces string
}

func runSDMerge(ctx context.Context, e *env, args []string, a sdMergeArgs) int {
	if len(args) < 2 {
		return e.usage("sd", "'v4t sd merge' expects FULL and at least one DELTA file")
	}
	mode := sd.BasicMerge
	if a.mode != "" {
		m, ok := sd.ParseMode(a.mode)
		if !ok {
			return e.usage("sd", fmt.Sprintf("--mode %q: expected basic-merge, basic-exclusion-merge, extended-merge or replace", a.mode))
		}
		mode = m
	}
	res, err := sd.MergeFiles(ctx, args[0], args[1:], sd.MergeOptions{Mode: mode, Namespaces: a.namespaces, Warn: e.sdWarning})
	if err != nil {
		return e.sdFail(err)
	}
	if a.output == "" {
		if _, err := e.stdout.Write(res.Full); err != nil {
			return e.sdFail(fmt.Errorf("cannot write the Full SD: %w", err))
		}
	} else if err := writeFileAtomic(a.output, res.Full); err != nil {
		return e.sdFail(err)
	}
	if a.deltaOutput != "" {
		if res.Delta == nil {
			fmt.Fprintf(e.stderr, "note: no Delta SD (a first write or an overwrite); %s not written\n", a.deltaOutput)
		} else if err := writeFileAtomic(a.deltaOutput, res.Delta); err != nil {
			return e.sdFail(err)
		}
	}
	return exitOK
}

// sdWarning prints a warning as sd-merge.md §2 asks: one line,
// "warning: MESSAGE".
func (e *env) sdWarning(d *diag.Diagnostic) {
	fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(d.Message))
}

// sdNote prints a remark that is not a warning of sd-merge.md, which §2
// allows on stderr provided that it does not start with "warning: ".
func (e *env) sdNote(d *diag.Diagnostic) {
	fmt.Fprintf(e.stderr, "note: %s\n", oneLine(d.Message))
}

// sdFail prints an error as sd-merge.md §2 asks, "error: MESSAGE" with the
// message verbatim (it may span several lines), then its position when
// known, and returns the exit status.
func (e *env) sdFail(err error) int {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		fmt.Fprintf(e.stderr, "error: %s\n", oneLine(err.Error()))
		return exitInternal
	}
	d, ok := diag.As(err)
	if !ok {
		fmt.Fprintf(e.stderr, "error: %s\n", strings.TrimRight(err.Error(), "\n"))
		return exitRejected
	}
	// The message comes first, as sd-merge.md §13 wants it right after
	// "error: "; the position follows on the same line.
	if d.Pos.Known() {
		fmt.Fprintf(e.stderr, "error: %s (at %s)\n", strings.TrimRight(d.Message, "\n"), d.Pos)
	} else {
		fmt.Fprintf(e.stderr, "error: %s\n", strings.TrimRight(d.Message, "\n"))
	}
	if isInternal(d) {
		if e.g.debug {
			for _, r := range d.Related {
				fmt.Fprintln(e.stderr, r.Message)
			}
		}
		return exitInternal
	}
	if e.g.debug {
		for _, r := range d.Related {
			fmt.Fprintf(e.stderr, "  related: %s\n", oneLine(r.Message))
		}
	}
	return exitRejected
}
