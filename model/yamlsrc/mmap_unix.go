//go:build unix

package yamlsrc

import (
	"errors"
	"io/fs"
	"os"
	"runtime/debug"
	"syscall"
)

// mapThreshold is the size from which LoadFile maps a file rather than
// reading it: below it, the mapping's system calls cost more than the copy
// they save.
const mapThreshold = 1 << 20

// errChanged is the error of a mapped file that was cut short while it was
// parsed (the mapping faults where the file no longer has pages).
var errChanged = errors.New("the file changed while it was read")

// mapsFiles says that LoadFile maps large files here.
const mapsFiles = true

// afterMap, where set (by tests), runs once the file is mapped.
var afterMap func(path string)

// loadMapped parses a large regular file, open as f, through a read-only
// mapping that it removes before it returns. The document holds copies of
// all it keeps (the fast path's keep, yaml.v3's own strings), so the text
// never enters the heap, where it would stay until the process ends: a
// resolve runs without garbage collection. ok is false where the file is
// not one to map (small, over the limit, or the mapping failed); the
// caller then reads it.
func loadMapped(f *os.File, fi fs.FileInfo, path string) (v *Value, aliased, ok bool, err error) {
	if fi.Size() < mapThreshold || fi.Size() > maxFileSize {
		return nil, false, false, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false, false, nil
	}
	defer syscall.Munmap(data)
	// A file cut short under the mapping faults on the pages it lost: that
	// is a read error, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			// Only a fault (a runtime error with the address) is the
			// file's doing; anything else goes on as it came.
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			v, aliased, ok, err = nil, false, true, ReadFailure(path, &fs.PathError{Op: "read", Path: path, Err: errChanged})
		}
	}()
	if afterMap != nil {
		afterMap(path)
	}
	v, aliased, err = ParseAliased(data, path)
	return v, aliased, true, err
}
