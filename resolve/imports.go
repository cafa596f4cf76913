package resolve

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// The reference passes imports through to the output without reading them,
// and the conformance corpus imports files that do not exist, so a missing
// import is not an error here (v4t validate reports it). What the resolver
// does refuse, before any work, is what no output can make right: a local
// import that leaves the template's directory tree (unless AllowOutside),
// an imported file that is not YAML, and a cycle of imports. The walk is
// model/tosca's, shared with the validator; the first problem stops it.

// allowOutsideHint ends the message about a file outside the template's
// directory tree.
const allowOutsideHint = " (--allow-outside permits it)"

// checkImports follows the local file imports of the template at path,
// whose document is doc, recursively.
func checkImports(path string, doc *yamlsrc.Value, allowOutside bool) error {
	if !doc.Get("imports").IsList() {
		return nil
	}
	w := &tosca.ImportWalk[*yamlsrc.Value]{Tree: tosca.NewTree(filepath.Dir(path)), AllowOutside: allowOutside}
	w.Imports = func(doc *yamlsrc.Value) error {
		imports := doc.Get("imports")
		for i := 0; imports.IsList() && i < len(imports.List()); i++ {
			name := importFile(imports.List()[i])
			if name == nil || strings.Contains(name.Str(), "://") {
				continue
			}
			if _, _, err := w.Follow(name); err != nil {
				return err
			}
		}
		return nil
	}
	w.Read = func(imp *tosca.Import) (*yamlsrc.Value, string, error) {
		if !regularFile(imp.Path) {
			return nil, "", tosca.SkipImport // passed through, as the reference does
		}
		sub, err := yamlsrc.LoadFile(imp.Path)
		return sub, imp.Path, err
	}
	w.Outside = func(imp *tosca.Import, why string) error {
		return diag.At(imp.Pos(), diag.StageLoad, "import \""+imp.Name.Str()+"\""+why+allowOutsideHint)
	}
	w.Cycle = func(imp *tosca.Import, files []string) error {
		return diag.At(imp.Pos(), diag.StageLoad, "import cycle: "+tosca.ImportCycle(files, imp.Path))
	}
	w.TooDeep = func(imp *tosca.Import) error {
		if !regularFile(imp.Path) {
			return nil // passed through at any depth
		}
		return diag.At(imp.Pos(), diag.StageLoad, "import \""+imp.Name.Str()+"\": imports nested deeper than "+strconv.Itoa(tosca.MaxImportDepth)+" levels")
	}
	return w.Walk(doc, path, 0)
}

// regularFile reports whether path names a regular file, links followed.
func regularFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// importFile returns the file of an import definition: "file",
// {file: ...}, or the TOSCA 1.0 forms {name: "file"} and
// {name: {file: ...}}; nil for anything else.
func importFile(e *yamlsrc.Value) *yamlsrc.Value {
	if e.IsMap() && !e.Has("file") && e.Map().Len() == 1 {
		e = e.Map().Val(0)
	}
	if e.IsMap() {
		e = e.Get("file")
	}
	if !e.IsString() {
		return nil
	}
	return e
}
