package sd

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Options tune Run.
type Options struct {
	// Warn receives each warning when it arises (§5); nil drops them.
	Warn func(*diag.Diagnostic)
	// Note receives remarks that are not warnings of the spec, the other
	// informative output of §2 (which must not be printed as "warning: "):
	// that SD_DELTA=true without a merge mode merges with basic-merge. Nil
	// drops them.
	Note func(*diag.Diagnostic)
}

// Result says what a successful run did.
type Result struct {
	// EnvDir is the environment directory.
	EnvDir string
	// Mode is the merge mode; Overwrite tells that the incoming SD replaced
	// the Full SD instead of being merged into it (§6.1).
	Mode      Mode
	Overwrite bool
	// Written and Removed list the files changed, relative to EnvDir, with
	// slashes.
	Written, Removed []string
}

// Run is the sd subcommand (sd-merge.md §5): it reads the parameters,
// obtains and checks the incoming SDs, combines them, applies them to the
// environment's Full SD and writes the files. It stops at the first error,
// and then no file has changed; warnings go to opts.Warn as they arise.
func Run(ctx context.Context, in Input, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError(r)
		}
	}()
	warn := opts.Warn
	if warn == nil {
		warn = func(*diag.Diagnostic) {}
	}
	// Step 1: the environment directory.
	envDir, err := envDirectory(in, isDir)
	if err != nil {
		return nil, err
	}
	// Steps 2 and 3: mode, SD_DELTA, source type and input parameters.
	s, err := readSettings(in)
	if err != nil {
		return nil, err
	}
	if s.deltaDefaultMode != nil && opts.Note != nil {
		opts.Note(noteDeltaDefaultMode(*s.deltaDefaultMode))
	}
	// Step 4: the Full SD file.
	full, err := chooseFullFile(envDir)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Step 5: the incoming SDs.
	docs, err := incoming(s)
	if err != nil {
		return nil, err
	}
	// Steps 6-8.
	ns := &namespaces{dir: filepath.Join(envDir, "Namespaces")}
	out, err := process(ctx, docs, s.mode, s.overwrite, ns, fullSource{
		exists: full.exists,
		read:   func() (*doc, error) { return readFull(full.path(), full.rel(), warn) },
		rel:    full.rel(),
	}, warn)
	if err != nil {
		return nil, err
	}
	// Step 9: the files.
	changes, err := fileChanges(full, out)
	if err != nil {
		return nil, err
	}
	done, err := commit(full.dir, changes)
	if err != nil {
		return nil, err
	}
	res = &Result{EnvDir: envDir, Mode: s.mode, Overwrite: s.overwrite}
	for _, c := range done {
		rel := sdDir + "/" + filepath.Base(c.path)
		if c.data != nil {
			res.Written = append(res.Written, rel)
		} else {
			res.Removed = append(res.Removed, rel)
		}
	}
	return res, nil
}

// fullSource is where process finds the existing Full SD.
type fullSource struct {
	exists bool
	// read reads and parses it; nil means it is empty (a first write).
	read func() (*doc, error)
	// rel names it in messages.
	rel string
}

// outcome is what a run writes: the new Full SD, and the Delta SD or nil.
type outcome struct {
	full, delta *yamlsrc.Value
}

// process is §5 steps 6-8: for each incoming SD the namespace
// transformation, the validation and the duplicate check; the combination;
// and the application to the Full SD.
func process(ctx context.Context, docs []*doc, mode Mode, overwrite bool, ns *namespaces, full fullSource, warn func(*diag.Diagnostic)) (outcome, error) {
	for i, d := range docs {
		if ns != nil {
			if err := ns.transform(d, i, warn); err != nil {
				return outcome{}, err
			}
		}
		if err := validate(d, mode); err != nil {
			return outcome{}, err
		}
		if err := checkDuplicates(d, mode.extended(), ""); err != nil {
			return outcome{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return outcome{}, err
	}
	inc, err := combine(docs, mode, warn)
	if err != nil {
		return outcome{}, err
	}
	// §6.5: overwrite, or a first write, writes the incoming SD.
	if overwrite || !full.exists {
		return outcome{full: inc.v}, nil
	}
	f, err := full.read()
	if err != nil || f == nil {
		return outcome{full: inc.v}, err
	}
	if err := validate(f, mode); err != nil {
		return outcome{}, err
	}
	if err := checkDuplicates(f, mode.extended(), full.rel); err != nil {
		return outcome{}, err
	}
	m := merger{fn: mode.mergeFunc(), warn: warn}
	v, err := m.merge(f, inc)
	if err != nil {
		return outcome{}, err
	}
	return outcome{full: v, delta: inc.v}, nil
}

// fileChanges lists the write step's changes: the Full SD, the Delta SD if
// there is one, and the removal of every other Delta SD file (§4).
func fileChanges(full fullFile, out outcome) ([]change, error) {
	data, err := Format(out.full)
	if err != nil {
		return nil, err
	}
	changes := []change{{path: full.path(), data: data}}
	written := ""
	if out.delta != nil {
		data, err := Format(out.delta)
		if err != nil {
			return nil, err
		}
		written = full.deltaName()
		changes = append(changes, change{path: filepath.Join(full.dir, written), data: data})
	}
	for _, name := range deltaNames {
		if name != written {
			changes = append(changes, change{path: filepath.Join(full.dir, name)})
		}
	}
	return changes, nil
}

// internalError turns a panic into the diagnostic style.md §3.3 asks for.
func internalError(r any) error {
	return &diag.Diagnostic{
		Stage:   "internal",
		Code:    "internal",
		Message: fmt.Sprintf("internal error: %v (a bug in v4t: please report it)", r),
		Related: []diag.Related{{Message: string(debug.Stack())}},
	}
}
