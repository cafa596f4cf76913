package validate

import "v4t/model/yamlsrc"

// The files a template names are read with the bounds of yamlsrc; whether
// they may be read at all (the template's directory tree) is tosca.Tree's
// to say.

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
