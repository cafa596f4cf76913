package sd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// MergeOptions tune MergeFiles.
type MergeOptions struct {
	// Mode is the merge mode; empty means basic-merge.
	Mode Mode
	// Namespaces is a directory of Namespace folders (<folder>/namespace.yml)
	// for SDs marked with useDeployPostfixAsNamespace (§7). Empty leaves
	// marked SDs as they are.
	Namespaces string
	// Warn receives each warning when it arises; nil drops them.
	Warn func(*diag.Diagnostic)
}

// MergeResult is what MergeFiles produces, in the layout of §12.
type MergeResult struct {
	// Full is the new Full SD.
	Full []byte
	// Delta is the Delta SD (the combined incoming SD), or nil when the
	// run overwrote the Full SD or wrote it for the first time.
	Delta []byte
}

// MergeFiles merges SD files without an environment directory: the SDs in
// the delta files (each holding one SD or a list of SDs, as YAML or JSON)
// are the incoming SDs SD[0], SD[1], ... in order; they are checked and
// combined, and applied to the Full SD in file full as a pipeline run in
// the same mode would (§5 steps 6-8, §6.5). A missing or empty full file
// makes a first write; mode replace overwrites it without reading it.
// Nothing is written; the caller writes the result.
func MergeFiles(ctx context.Context, full string, deltas []string, opts MergeOptions) (res *MergeResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError(r)
		}
	}()
	mode := opts.Mode
	if mode == "" {
		mode = BasicMerge
	}
	warn := opts.Warn
	if warn == nil {
		warn = func(*diag.Diagnostic) {}
	}
	var docs []*doc
	for _, path := range deltas {
		ds, err := readDeltaFile(path)
		if err != nil {
			return nil, err
		}
		docs = append(docs, ds...)
	}
	if len(docs) == 0 {
		return nil, newDiag(StageInput, "no-delta", "no incoming SD: give at least one DELTA file")
	}
	for i, d := range docs {
		d.label = fmt.Sprintf("SD[%d]", i)
	}
	var ns *namespaces
	if opts.Namespaces != "" {
		ns = &namespaces{dir: opts.Namespaces}
	}
	exists, err := statExists(full)
	if err != nil {
		return nil, errRead(StageMerge, full, unwrapPath(err))
	}
	src := fullSource{
		exists: exists,
		rel:    full,
		read:   func() (*doc, error) { return readFull(full, full, warn) },
	}
	out, err := process(ctx, docs, mode, mode == Replace, ns, src, warn)
	if err != nil {
		return nil, err
	}
	res = &MergeResult{}
	if res.Full, err = Format(out.full); err != nil {
		return nil, err
	}
	if out.delta != nil {
		if res.Delta, err = Format(out.delta); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// readDeltaFile reads a file of incoming SDs: JSON when its name ends in
// .json, YAML otherwise; one SD (a mapping) or a list of SDs.
func readDeltaFile(path string) ([]*doc, error) {
	data, err := yamlsrc.ReadNamedFile(path)
	if err != nil {
		return nil, errRead(StageInput, path, unwrapPath(err))
	}
	var v *yamlsrc.Value
	if strings.EqualFold(filepath.Ext(path), ".json") {
		v, err = yamlsrc.ParseJSON(data, path)
	} else {
		v, err = parseCore(data, path)
	}
	if err != nil {
		return nil, err
	}
	pos := diag.Pos{File: path, Line: int(v.Line), Col: int(v.Col)}
	switch {
	case v.IsMap():
		return []*doc{{v: v, file: path}}, nil
	case v.IsList() && len(v.List()) > 0:
		docs := make([]*doc, len(v.List()))
		for i, x := range v.List() {
			if !x.IsMap() {
				return nil, diagAt(diag.Pos{File: path, Line: int(x.Line), Col: int(x.Col)}, fmt.Sprintf("[%d]", i), StageInput, "delta-file-shape",
					fmt.Sprintf("%s: expected an SD (a mapping) as item %d, found %s", path, i, kindName(x)))
			}
			docs[i] = &doc{v: x, file: path}
		}
		return docs, nil
	}
	return nil, diagAt(pos, "", StageInput, "delta-file-shape", fmt.Sprintf("%s: expected an SD (a mapping) or a non-empty list of SDs, found %s", path, kindName(v)))
}

func kindName(v *yamlsrc.Value) string {
	switch {
	case v.IsNull():
		return "nothing"
	case v.IsList() && len(v.List()) == 0:
		return "an empty list"
	}
	return "a " + v.Kind.String()
}
