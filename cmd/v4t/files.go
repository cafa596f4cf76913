package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// stdinName names standard input, read for a file argument "-", in
// positions and messages: "<stdin>:3:5: ...".
const stdinName = "<stdin>"

// readStdin reads standard input for a file argument "-", at most
// yamlsrc.MaxFileSize bytes, as a named file is read. The result is not nil,
// even when standard input is empty, so that it stands for the file's
// content. Standard input can be read once: a second "-" in the same
// command is a usage error, found before (see templateFlags.parse).
func (e *env) readStdin() ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(e.stdin, yamlsrc.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", stdinName, err)
	}
	if len(data) > yamlsrc.MaxFileSize {
		return nil, fmt.Errorf("%s: cannot read: %w", stdinName, yamlsrc.ErrTooLarge)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so that readers never see a partial file and a
// failure leaves any previous file in place.
//
// A path that is a device or a named pipe (--output /dev/null, /dev/stdout)
// is written in place: a rename would replace the device with a regular
// file. A symbolic link is followed, so that the link stays and its target
// gets the new content.
func writeFileAtomic(path string, data []byte) error {
	return writeFileAtomicWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFileAtomicWith is writeFileAtomic for content that write produces
// as it goes, such as a large resolved document emitted straight into the
// temporary file rather than first into memory.
func writeFileAtomicWith(path string, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeInPlace(path, write)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
	}
	name := tmp.Name()
	werr := write(tmp)
	cerr := tmp.Close()
	if err := firstErr(werr, cerr, os.Chmod(name, 0o644)); err != nil {
		os.Remove(name)
		return fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
	}
	return nil
}

// writeInPlace writes to an existing file that is not a regular one.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
	}
	werr := write(f)
	if err := firstErr(werr, f.Close()); err != nil {
		return fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

func asDiag(err error) (*diag.Diagnostic, bool) { return diag.As(err) }

// errText is an error's message as v4t prints it: a diagnostic's Text (its
// message and, where v4t words it differently, the reference's), else
// Error.
func errText(err error) string {
	if d, ok := diag.As(err); ok {
		return d.Text()
	}
	return err.Error()
}
