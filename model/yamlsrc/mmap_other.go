//go:build !unix

package yamlsrc

// loadMapped maps no files where there is no mmap: LoadFile reads them.
func loadMapped(string) (*Value, bool, error) { return nil, false, nil }
