package sd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec sd-merge.md §7 (useDeployPostfixAsNamespace).

const namespaceMarker = "useDeployPostfixAsNamespace"

// namespaces maps Namespace names to their folders. It is built the first
// time an SD asks for it, so environments that do not use the marker are
// never scanned.
type namespaces struct {
	// dir is the Namespaces directory; empty means none (an empty map).
	dir   string
	built bool
	names map[string]string
}

// marked reports whether SD v asks for the transformation: its userData is
// a mapping whose marker is the boolean true.
func marked(v *yamlsrc.Value) bool {
	u := v.Get("userData")
	return u.IsMap() && u.Get(namespaceMarker).IsTrue()
}

// build scans the Namespaces directory: each subdirectory F, in byte-wise
// order, whose namespace.yml has a non-empty string name maps that name to
// F. Other namespace files give a warning.
func (ns *namespaces) build(warn func(*diag.Diagnostic)) error {
	ns.built = true
	ns.names = map[string]string{}
	if ns.dir == "" {
		return nil
	}
	entries, err := os.ReadDir(ns.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errRead(StageValidate, ns.dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	folders := map[string][]string{}
	var order []string
	for _, f := range names {
		sub := filepath.Join(ns.dir, f)
		if st, err := os.Stat(sub); err != nil || !st.IsDir() {
			continue
		}
		file := filepath.Join(sub, "namespace.yml")
		data, err := yamlsrc.ReadNamedFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var name *yamlsrc.Value
		if err == nil {
			if v, perr := parseCore(data, file); perr == nil {
				name = v.Get("name")
			}
		}
		if !name.IsString() || name.Str() == "" {
			warn(warnNamespaceFile(diag.Pos{File: file}, f))
			continue
		}
		if folders[name.Str()] == nil {
			order = append(order, name.Str())
		}
		folders[name.Str()] = append(folders[name.Str()], f)
	}
	for _, n := range order {
		if dirs := folders[n]; len(dirs) > 1 {
			return errNamespaceTwice(n, dirs)
		}
		ns.names[n] = folders[n][0]
	}
	return nil
}

// transform applies the transformation to SD[i] when it is marked: each
// mapping application's string deployPostfix becomes the folder of the
// Namespace of that name, and the marker goes.
func (ns *namespaces) transform(d *doc, i int, warn func(*diag.Diagnostic)) error {
	if !marked(d.v) {
		return nil
	}
	if !ns.built {
		if err := ns.build(warn); err != nil {
			return err
		}
	}
	if l := d.applications(); l != nil {
		for j, a := range l.List() {
			pf := a.Get("deployPostfix")
			if !a.IsMap() || !pf.IsString() {
				continue
			}
			folder, ok := ns.names[pf.Str()]
			if !ok {
				return errNoReplacement(d.pos(pf), fmt.Sprintf("applications[%d].deployPostfix", j), pf.Str(), i)
			}
			a.Map().Set("deployPostfix", yamlsrc.NewStringAt(folder, pf.Line, pf.Col))
		}
	}
	u := d.v.Get("userData")
	if u.Map().Len() == 1 {
		d.v.Map().Delete("userData")
	} else {
		u.Map().Delete(namespaceMarker)
	}
	return nil
}
