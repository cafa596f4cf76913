package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Reading files within the limits of the README ("Limits"): at most
// MaxFileSize bytes, and where a file is expected (a file that a template
// names, a space, a case), only a regular file: a device such as /dev/zero
// never ends and a named pipe blocks until someone writes to it. The
// resolver, the validator, completion and the suite share these reads.

// MaxFileSize bounds the files that v4t reads: resolving takes 12 to 45
// times a template's size in memory (README, "Performance"), so a larger
// file is more likely a mistake than a template.
const MaxFileSize = 1 << 30

// maxFileSize is MaxFileSize, lowered by tests.
var maxFileSize int64 = MaxFileSize

// ErrTooLarge is the error of a file larger than MaxFileSize.
var ErrTooLarge = fmt.Errorf("the file has more than the %d bytes that v4t reads", MaxFileSize)

// ErrNotRegular is the error of a file that must be a regular file but is
// not (a device, a named pipe, a socket).
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads the file at path, at most MaxFileSize bytes, whatever it
// is: a regular file is measured first, anything else (a pipe, a device
// such as /dev/zero) is read up to the limit and refused beyond it, in
// chunks, so that refusing it holds no more than the limit in memory. It
// is for the files named on a command line, which may be pipes; a named
// pipe without a writer blocks it. Errors are *fs.PathError values.
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
		return readRegular(f, fi, path)
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	chunk := min(16<<20, maxFileSize+1)
	var chunks [][]byte
	var total int64
	for {
		b := make([]byte, chunk)
		n, err := io.ReadFull(f, b)
		total += int64(n)
		if total > maxFileSize {
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

// ReadNamedFile is ReadFile for a file that must be a regular file
// (ErrNotRegular): a file that a template names, a space or a case file.
// It looks before it opens, so that a named pipe cannot block it.
func ReadNamedFile(path string) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRegular(f, fi, path)
}

// openRegular opens the regular file at path, looking before it opens so
// that a named pipe cannot block it, and checking again what it opened.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.IsDir() {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() { // replaced since the look
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	return f, fi, nil
}

// readRegular reads the open regular file f, refusing it beyond the limit
// also when it grows while it is read.
func readRegular(f *os.File, fi fs.FileInfo, path string) ([]byte, error) {
	if fi.Size() > maxFileSize {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	data := make([]byte, 0, fi.Size()+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > maxFileSize {
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
