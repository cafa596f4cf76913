package validate

import (
	"path/filepath"

	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Files outside the template's directory tree are not read (README,
// "Limits"): not its imports, not its side files. The check compares real
// paths, with symbolic links resolved on both sides, so that a link inside
// the tree cannot take a file out of it and a template reached through a
// linked directory still finds its own files. The resolver, completion and
// the validator share it.

// Tree is the directory tree of a template.
type Tree struct {
	abs  string // absolute, as given
	real string // links resolved
}

// NewTree returns the tree rooted at dir.
func NewTree(dir string) Tree {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	return Tree{abs: abs, real: RealPath(dir)}
}

// Outside reports whether the file at path, links resolved, is outside the
// tree, and whether a symbolic link is what takes it out (its path as
// written is inside).
func (t Tree) Outside(path string) (outside, viaLink bool) {
	if tosca.Within(t.real, RealPath(path)) {
		return false, false
	}
	abs, err := filepath.Abs(path)
	return true, err == nil && tosca.Within(t.abs, abs)
}

// Leaves returns "" when the file at path is in the tree, and else the
// words that say it is not, for a message about it: " leaves the directory
// tree of the template", plus " through a symbolic link" where a link
// takes it out.
func (t Tree) Leaves(path string) string {
	out, link := t.Outside(path)
	switch {
	case !out:
		return ""
	case link:
		return " leaves the directory tree of the template through a symbolic link"
	}
	return " leaves the directory tree of the template"
}

// RealPath returns the absolute path of p with its symbolic links
// resolved. Where p does not exist, the links of its longest existing
// ancestor are resolved and the rest is appended as written.
func RealPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		a = filepath.Clean(p)
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(a); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r
		}
		parent := filepath.Dir(a)
		if parent == a {
			for i := len(rest) - 1; i >= 0; i-- {
				a = filepath.Join(a, rest[i])
			}
			return a
		}
		rest = append(rest, filepath.Base(a))
		a = parent
	}
}

// MaxFileSize bounds the files ReadFile reads (yamlsrc.MaxFileSize).
const MaxFileSize = yamlsrc.MaxFileSize

// ErrTooLarge is the error of a file larger than MaxFileSize.
var ErrTooLarge = yamlsrc.ErrTooLarge

// ErrNotRegular is the error of a file that a template names (an import,
// a side file) but that is not a regular file: a device such as /dev/zero
// never ends and a named pipe blocks until someone writes to it.
var ErrNotRegular = yamlsrc.ErrNotRegular

// ReadFile reads the file at path, at most MaxFileSize bytes, whatever it
// is (yamlsrc.ReadFile). Errors are *fs.PathError values.
func ReadFile(path string) ([]byte, error) { return yamlsrc.ReadFile(path) }

// ReadNamedFile is ReadFile for a file that a template names: it must be a
// regular file (ErrNotRegular), which also keeps a named pipe from blocking
// the run (yamlsrc.ReadNamedFile).
func ReadNamedFile(path string) ([]byte, error) { return yamlsrc.ReadNamedFile(path) }
