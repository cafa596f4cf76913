//go:build !unix

package yamlsrc

import (
	"io/fs"
	"os"
)

// mapThreshold is the size from which LoadFile would map a file.
const mapThreshold = 1 << 20

// mapsFiles says that LoadFile maps no files here.
const mapsFiles = false

// afterMap would run once a file is mapped; tests set it.
var afterMap func(path string)

// loadMapped maps no files where there is no mmap: LoadFile reads them.
func loadMapped(*os.File, fs.FileInfo, string) (*Value, bool, bool, error) {
	return nil, false, false, nil
}
