package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"v4t/model/tosca"
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

// MaxFileSize bounds the files ReadFile reads, as yamlsrc.LoadFile bounds
// the YAML files it reads (README, "Limits").
const MaxFileSize = 1 << 30

// maxRead is MaxFileSize, lowered by tests.
var maxRead int64 = MaxFileSize

// ErrTooLarge is the error of a file larger than MaxFileSize.
var ErrTooLarge = fmt.Errorf("the file has more than the %d bytes that v4t reads", MaxFileSize)

// ErrNotRegular is the error of a file that a template names (an import,
// a side file) but that is not a regular file: a device such as /dev/zero
// never ends and a named pipe blocks until someone writes to it.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads the file at path, at most MaxFileSize bytes, whatever it
// is: a regular file is measured first, anything else (a pipe, a device
// such as /dev/zero) is read up to the limit and refused beyond it, in
// chunks, so that refusing it holds no more than the limit in memory.
// Errors are *fs.PathError values.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Mode().IsRegular() {
		if fi.Size() > maxRead {
			return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
		}
		data := make([]byte, 0, fi.Size()+1)
		for {
			if len(data) == cap(data) {
				data = append(data, 0)[:len(data)] // the file grew
			}
			n, err := f.Read(data[len(data):cap(data)])
			data = data[:len(data)+n]
			if int64(len(data)) > maxRead {
				return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
			}
			if err == io.EOF {
				return data, nil
			}
			if err != nil {
				return nil, &fs.PathError{Op: "read", Path: path, Err: err}
			}
		}
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	chunk := min(16<<20, maxRead+1)
	var chunks [][]byte
	var total int64
	for {
		b := make([]byte, chunk)
		n, err := io.ReadFull(f, b)
		total += int64(n)
		if total > maxRead {
			return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
		}
		chunks = append(chunks, b[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
	return bytes.Join(chunks, nil), nil
}

// ReadNamedFile is ReadFile for a file that a template names: it must be a
// regular file (ErrNotRegular), which also keeps a named pipe from blocking
// the run.
func ReadNamedFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	return ReadFile(path)
}
