package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// DirInfo is what discovery knows about a directory when it asks the
// runners whether the directory is a case.
type DirInfo struct {
	// Dir is the directory's path.
	Dir string
	// Files holds the names of the regular files in Dir (symbolic links
	// followed).
	Files map[string]bool
	// Subdirs holds the names of the subdirectories, sorted. Symbolic links
	// to directories are not followed, as in the reference's directory
	// listing.
	Subdirs []string
}

// Has reports whether Dir holds a regular file of that name.
func (d DirInfo) Has(name string) bool { return d.Files[name] }

// Discover finds the cases under each directory and returns them sorted by
// Path. A directory given here may itself be a case.
//
// The directory rules follow the reference runner (variability.md §14),
// applied at every level: directories whose name starts with "." are
// ignored; a directory whose name ends with "---disabled" is skipped; if any
// sibling's name ends with "---only", only those siblings run.
//
// A directory is a case when one of the runners detects it and no directory
// below it (not counting dot directories, but counting skipped ones) is a
// case: in the reference's layout a group directory is never a case, even
// when it keeps shared templates or expectations.
func Discover(dirs []string, runners []Runner) ([]Case, error) {
	var cases []Case
	seen := map[string]bool{}
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, pathError(dir, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", dir)
		}
		name, err := baseName(dir)
		if err != nil {
			return nil, err
		}
		found, _, err := scan(dir, name, true, runners)
		if err != nil {
			return nil, err
		}
		for _, c := range found {
			key, err := filepath.Abs(c.Dir)
			if err != nil {
				key = c.Dir
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			cases = append(cases, c)
		}
	}
	sort.SliceStable(cases, func(i, j int) bool {
		if cases[i].Path != cases[j].Path {
			return cases[i].Path < cases[j].Path
		}
		return cases[i].Dir < cases[j].Dir
	})
	return cases, nil
}

// baseName returns the name under which the cases of dir are reported: its
// base name, resolved through the working directory for "." and "..".
func baseName(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	name := filepath.Base(abs)
	if name == string(filepath.Separator) || name == "." {
		name = "root"
	}
	return name, nil
}

// scan returns the cases at or below dir (only if include is set) and
// whether dir or anything below it is a case.
func scan(dir, path string, include bool, runners []Runner) ([]Case, bool, error) {
	info, err := readDir(dir)
	if err != nil {
		return nil, false, err
	}
	effective := Effective(info.Subdirs)
	var cases []Case
	below := false
	for _, sub := range info.Subdirs {
		if strings.HasPrefix(sub, ".") {
			continue
		}
		found, any, err := scan(filepath.Join(dir, sub), path+"/"+sub, include && effective[sub], runners)
		if err != nil {
			return nil, false, err
		}
		below = below || any
		cases = append(cases, found...)
	}
	if below {
		return cases, true, nil
	}
	for _, r := range runners {
		if r.Detect(info) {
			if !include {
				return nil, true, nil
			}
			return []Case{{Path: path, Dir: dir, Runner: r}}, true, nil
		}
	}
	return nil, false, nil
}

// Effective applies the sibling rules to directory names: dot directories
// are dropped; if any name ends with "---only", only those are kept;
// otherwise names ending with "---disabled" are dropped.
func Effective(names []string) map[string]bool {
	keep := map[string]bool{}
	only := false
	for _, n := range names {
		if !strings.HasPrefix(n, ".") && strings.HasSuffix(n, "---only") {
			only = true
			keep[n] = true
		}
	}
	if only {
		return keep
	}
	for _, n := range names {
		if !strings.HasPrefix(n, ".") && !strings.HasSuffix(n, "---disabled") {
			keep[n] = true
		}
	}
	return keep
}

// readDir lists a directory's regular files and subdirectories.
func readDir(dir string) (DirInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return DirInfo{}, pathError(dir, err)
	}
	info := DirInfo{Dir: dir, Files: map[string]bool{}}
	for _, e := range entries {
		switch {
		case e.IsDir():
			info.Subdirs = append(info.Subdirs, e.Name())
		case e.Type().IsRegular():
			info.Files[e.Name()] = true
		case e.Type()&fs.ModeSymlink != 0:
			if isFile(filepath.Join(dir, e.Name())) {
				info.Files[e.Name()] = true
			}
		}
	}
	sort.Strings(info.Subdirs)
	return info, nil
}

// isFile reports whether path names a regular file (following links).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// pathError renders a file-system error as "path: reason".
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}
