package sd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec sd-merge.md §4 (files).

// sdDir is the SD directory, relative to the environment directory.
const sdDir = "Inventory/solution-descriptor"

// fullFile is the Full SD file of an environment.
type fullFile struct {
	// dir is the SD directory; name is sd.yml or sd.yaml.
	dir, name string
	exists    bool
}

func (f fullFile) path() string { return filepath.Join(f.dir, f.name) }

// rel is the file's path relative to the environment directory, as
// messages name it.
func (f fullFile) rel() string { return sdDir + "/" + f.name }

// deltaName is the Delta SD file next to the Full SD: same extension.
func (f fullFile) deltaName() string { return "delta_sd" + filepath.Ext(f.name) }

// deltaNames are every name a Delta SD file may have.
var deltaNames = []string{"delta_sd.yml", "delta_sd.yaml"}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// chooseFullFile picks the Full SD file: the one of sd.yml and sd.yaml that
// exists, sd.yml when neither does; both is an error.
func chooseFullFile(envDir string) (fullFile, error) {
	dir := filepath.Join(envDir, filepath.FromSlash(sdDir))
	yml, yaml := exists(filepath.Join(dir, "sd.yml")), exists(filepath.Join(dir, "sd.yaml"))
	switch {
	case yml && yaml:
		return fullFile{}, errBothFullFiles()
	case yaml:
		return fullFile{dir: dir, name: "sd.yaml", exists: true}, nil
	}
	return fullFile{dir: dir, name: "sd.yml", exists: yml}, nil
}

// statExists reports whether path exists (following links); an error other
// than its absence is returned.
func statExists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// readFull reads the existing Full SD at path (§6.5 step 1); rel names it
// in messages. It returns nil, after a warning, when the file holds no
// document or a null one: the run is then a first write into that file.
func readFull(path, rel string, warn func(*diag.Diagnostic)) (*doc, error) {
	data, err := yamlsrc.ReadNamedFile(path)
	if err != nil {
		return nil, errRead(StageMerge, path, unwrapPath(err))
	}
	return parseFull(data, path, rel, warn)
}

// parseFull parses a Full SD: path is where it was read, rel how messages
// name it.
func parseFull(data []byte, path, rel string, warn func(*diag.Diagnostic)) (*doc, error) {
	v, err := parseCore(data, path)
	if err != nil {
		pos, detail := diag.Pos{File: path}, err.Error()
		if d, ok := diag.As(err); ok {
			pos = d.Pos
			detail = strings.TrimPrefix(d.Message, "invalid YAML: ")
			if d.Pos.Line > 0 {
				detail = fmt.Sprintf("line %d: %s", d.Pos.Line, detail)
			}
		}
		return nil, errFullYAML(pos, rel, detail)
	}
	if v.IsNull() {
		warn(warnFullEmpty(diag.Pos{File: path}, rel))
		return nil, nil
	}
	if !v.IsMap() {
		return nil, errFullNotMapping(diag.Pos{File: path, Line: int(v.Line), Col: int(v.Col)}, rel)
	}
	return &doc{v: v, label: "Full SD", file: path}, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// change is one file operation of the write step: new content for path, or
// its removal when data is nil.
type change struct {
	path string
	data []byte
}

// commit applies the changes in dir so that either all of them take effect
// or none does (§4: a failing run changes no file). New contents are first
// written to temporary files beside their targets; then the renames and
// removals run, and if one fails the ones done are undone. It returns the
// changes that did something (a removal of a missing file does nothing).
func commit(dir string, changes []change) (done []change, err error) {
	created, err := makeDirs(dir)
	if err != nil {
		return nil, errWrite(dir, unwrapPath(err))
	}
	cleanDirs := func() {
		for _, c := range slices.Backward(created) {
			os.Remove(c)
		}
	}
	temps := make([]string, len(changes))
	removeTemps := func() {
		for _, t := range temps {
			if t != "" {
				os.Remove(t)
			}
		}
	}
	old := make([][]byte, len(changes))
	hadOld := make([]bool, len(changes))
	for i, c := range changes {
		// Keep what a file held, to undo. Anything else in the way (a
		// directory) makes its rename or removal fail below.
		if st, err := os.Lstat(c.path); err == nil && st.Mode().IsRegular() {
			data, err := yamlsrc.ReadNamedFile(c.path)
			if err != nil {
				removeTemps()
				cleanDirs()
				return nil, errWrite(c.path, unwrapPath(err))
			}
			old[i], hadOld[i] = data, true
		}
		if c.data == nil {
			continue
		}
		t, err := writeTemp(c.path, c.data)
		if err != nil {
			removeTemps()
			cleanDirs()
			return nil, errWrite(c.path, unwrapPath(err))
		}
		temps[i] = t
	}
	undo := func(n int) {
		for i := n - 1; i >= 0; i-- {
			c := changes[i]
			if hadOld[i] {
				if t, err := writeTemp(c.path, old[i]); err == nil {
					if os.Rename(t, c.path) != nil {
						os.Remove(t)
					}
				}
			} else if c.data != nil {
				os.Remove(c.path)
			}
		}
	}
	for i, c := range changes {
		var err error
		did := c.data != nil
		if c.data != nil {
			err = os.Rename(temps[i], c.path)
			if err == nil {
				temps[i] = ""
			}
		} else if exists(c.path) {
			err = os.Remove(c.path)
			did = true
		}
		if err != nil {
			undo(i)
			removeTemps()
			cleanDirs()
			return nil, errWrite(c.path, unwrapPath(err))
		}
		if did {
			done = append(done, c)
		}
	}
	return done, nil
}

// writeTemp writes data to a new temporary file beside path and returns its
// name. The file gets path's mode if path exists, else 0644.
func writeTemp(path string, data []byte) (string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	for _, err := range []error{werr, cerr, os.Chmod(name, mode)} {
		if err != nil {
			os.Remove(name)
			return "", err
		}
	}
	return name, nil
}

// makeDirs creates dir and its missing parents and returns the ones it
// created, outermost first.
func makeDirs(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); !exists(d); {
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if len(missing) == 0 {
		return nil, nil
	}
	created := make([]string, len(missing))
	for i, d := range missing {
		created[len(missing)-1-i] = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		for _, c := range slices.Backward(created) {
			os.Remove(c)
		}
		return nil, err
	}
	return created, nil
}
