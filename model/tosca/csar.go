package tosca

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"v4t/model/diag"
)

// CSAR reading (TOSCA Simple Profile YAML 1.3 §4; completion.md §10.2).
//
// An archive is read into memory and never extracted: nothing is written
// while reading. Every entry name must stay inside the archive root
// (no absolute paths, drive letters, ".." components or backslashes), so
// that an archive can neither escape a directory it might be unpacked into
// nor name a file outside the archive in an import. Symbolic links are
// rejected. Sizes are bounded by CSARLimits, counting the bytes actually
// inflated rather than trusting the headers.

// MetaFile is the path of the TOSCA metadata file in a CSAR.
const MetaFile = "TOSCA-Metadata/TOSCA.meta"

// CSARLimits bound what ReadCSAR accepts.
type CSARLimits struct {
	MaxEntries   int
	MaxFileSize  int64
	MaxTotalSize int64
}

// DefaultCSARLimits are the limits used when none are given: 10 000 entries,
// 64 MiB per file, 256 MiB in total.
func DefaultCSARLimits() CSARLimits {
	return CSARLimits{MaxEntries: 10000, MaxFileSize: 64 << 20, MaxTotalSize: 256 << 20}
}

// CSAR is an archive read into memory.
type CSAR struct {
	// Entry is the archive path of the entry template.
	Entry string
	// Files holds the entries in archive order, directories included.
	Files []CSARFile
}

// CSARFile is one archive entry.
type CSARFile struct {
	// Name is the entry's name as stored (directories end with "/").
	Name     string
	Dir      bool
	Mode     fs.FileMode
	Modified time.Time
	Data     []byte
}

// ReadCSAR reads a CSAR from data; file names the archive in diagnostics.
// The entry template is named by the Entry-Definitions line of
// TOSCA-Metadata/TOSCA.meta; an archive without that file may instead hold a
// single YAML file at its root. Every failure is a *diag.Diagnostic.
func ReadCSAR(data []byte, file string, lim CSARLimits) (*CSAR, error) {
	fail := func(format string, args ...any) error {
		return diag.Errorf(diag.Pos{File: file}, diag.StageLoad, format, args...)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fail("%s: not a valid CSAR (zip) archive: %v", file, trimZipErr(err))
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, fail("%s: the archive has %d entries, more than the limit of %d", file, len(zr.File), lim.MaxEntries)
	}
	c := &CSAR{Files: make([]CSARFile, 0, len(zr.File))}
	seen := map[string]bool{}
	var total int64
	for _, f := range zr.File {
		if err := CheckEntryName(f.Name); err != nil {
			return nil, fail("%s: archive entry %q %v", file, f.Name, err)
		}
		mode := f.Mode()
		if mode&fs.ModeSymlink != 0 {
			return nil, fail("%s: archive entry %q is a symbolic link, which a CSAR may not contain", file, f.Name)
		}
		dir := strings.HasSuffix(f.Name, "/") || mode.IsDir()
		key := strings.TrimSuffix(path.Clean(f.Name), "/")
		if seen[key] {
			return nil, fail("%s: archive entry %q appears twice", file, f.Name)
		}
		seen[key] = true
		cf := CSARFile{Name: f.Name, Dir: dir, Mode: mode, Modified: f.Modified}
		if !dir {
			if f.UncompressedSize64 > uint64(lim.MaxFileSize) {
				return nil, fail("%s: archive entry %q is larger than the limit of %d bytes", file, f.Name, lim.MaxFileSize)
			}
			b, err := readEntry(f, lim.MaxFileSize)
			if err != nil {
				return nil, fail("%s: archive entry %q: %v", file, f.Name, err)
			}
			total += int64(len(b))
			if total > lim.MaxTotalSize {
				return nil, fail("%s: the archive's files are larger than the limit of %d bytes in total", file, lim.MaxTotalSize)
			}
			cf.Data = b
		}
		c.Files = append(c.Files, cf)
	}
	entry, err := c.findEntry()
	if err != nil {
		return nil, fail("%s: %v", file, err)
	}
	c.Entry = entry
	return c, nil
}

func trimZipErr(err error) string {
	return strings.TrimPrefix(err.Error(), "zip: ")
}

// readEntry inflates an entry, reading at most max bytes.
func readEntry(f *zip.File, max int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, errors.New(trimZipErr(err))
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, errors.New(trimZipErr(err))
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("is larger than the limit of %d bytes", max)
	}
	return b, nil
}

// CheckEntryName reports why an archive entry name is unsafe, or nil: it
// must be a relative slash-separated path that stays inside the archive.
func CheckEntryName(name string) error {
	switch {
	case name == "":
		return errors.New("has an empty name")
	case strings.ContainsRune(name, 0):
		return errors.New("has a NUL byte in its name")
	case strings.Contains(name, `\`):
		return errors.New(`has a backslash in its name; archive paths use "/"`)
	case strings.HasPrefix(name, "/"):
		return errors.New("is an absolute path, which escapes the archive")
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return errors.New("starts with a drive letter, which escapes the archive")
	}
	if slices.Contains(strings.Split(name, "/"), "..") {
		return errors.New(`has a ".." component, which escapes the archive`)
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// File returns the regular file at the archive path name (cleaned), or nil.
func (c *CSAR) File(name string) *CSARFile {
	name = path.Clean(name)
	for i := range c.Files {
		f := &c.Files[i]
		if !f.Dir && path.Clean(f.Name) == name {
			return f
		}
	}
	return nil
}

// findEntry locates the entry template (TOSCA 1.3 §4.2).
func (c *CSAR) findEntry() (string, error) {
	if meta := c.File(MetaFile); meta != nil {
		entry, ok := metaEntry(meta.Data)
		if !ok {
			return "", fmt.Errorf("%s has no Entry-Definitions", MetaFile)
		}
		if err := CheckEntryName(entry); err != nil {
			return "", fmt.Errorf("Entry-Definitions %q %v", entry, err)
		}
		if c.File(entry) == nil {
			return "", fmt.Errorf("the entry template %q named by %s is not in the archive", entry, MetaFile)
		}
		return path.Clean(entry), nil
	}
	var roots []string
	for _, f := range c.Files {
		if f.Dir || strings.Contains(f.Name, "/") {
			continue
		}
		if ext := strings.ToLower(path.Ext(f.Name)); ext == ".yaml" || ext == ".yml" {
			roots = append(roots, f.Name)
		}
	}
	if len(roots) != 1 {
		return "", fmt.Errorf("the archive has no %s and %d YAML files at its root (expected exactly one)", MetaFile, len(roots))
	}
	return roots[0], nil
}

// metaEntry reads the Entry-Definitions value of a TOSCA.meta file.
func metaEntry(data []byte) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "Entry-Definitions" {
			val = strings.TrimSpace(val)
			return val, val != ""
		}
	}
	return "", false
}

// Write writes the archive with every entry in its original order and
// name; the files named in replace get the new content. Files are
// deflated; times and modes are kept.
func (c *CSAR) Write(w io.Writer, replace map[string][]byte) error {
	zw := zip.NewWriter(w)
	for _, f := range c.Files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified}
		h.SetMode(f.Mode)
		if f.Dir {
			h.Method = zip.Store
			if !strings.HasSuffix(h.Name, "/") {
				h.Name += "/"
			}
		}
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if f.Dir {
			continue
		}
		data := f.Data
		if r, ok := replace[path.Clean(f.Name)]; ok {
			data = r
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}
