package tosca

import (
	"path/filepath"
	"slices"
	"strings"
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
	if Within(t.real, RealPath(path)) {
		return false, false
	}
	abs, err := filepath.Abs(path)
	return true, err == nil && Within(t.abs, abs)
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

// Within reports whether path is dir or below it (both absolute, or both
// relative to the same directory), as written: Tree compares real paths.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
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
			for _, name := range slices.Backward(rest) {
				r = filepath.Join(r, name)
			}
			return r
		}
		parent := filepath.Dir(a)
		if parent == a {
			for _, name := range slices.Backward(rest) {
				a = filepath.Join(a, name)
			}
			return a
		}
		rest = append(rest, filepath.Base(a))
		a = parent
	}
}
