package tosca

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// walkLog is a walk over files on disk that logs what its hooks see.
type walkLog struct {
	w   *ImportWalk[*yamlsrc.Value]
	dir string
	log []string
}

func newWalkLog(t *testing.T, files map[string]string) *walkLog {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, files)
	l := &walkLog{dir: dir}
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return p
	}
	at := func(imp *Import) string {
		return rel(imp.From) + ":" + strconv.Itoa(int(imp.Name.Line)) + " d" + strconv.Itoa(imp.Depth)
	}
	w := &ImportWalk[*yamlsrc.Value]{Tree: NewTree(filepath.Join(dir, "t"))}
	w.Imports = func(doc *yamlsrc.Value) error {
		imports := doc.Get("imports")
		for i := 0; imports.IsList() && i < len(imports.List()); i++ {
			if _, _, err := w.Follow(imports.List()[i]); err != nil {
				return err
			}
		}
		return nil
	}
	w.Read = func(imp *Import) (*yamlsrc.Value, string, error) {
		if imp.URL {
			l.log = append(l.log, "url "+imp.Key+" from "+at(imp))
			return yamlsrc.NewMap(), "<served>", nil
		}
		l.log = append(l.log, "read "+rel(imp.Path)+" from "+at(imp))
		doc, err := yamlsrc.LoadFile(imp.Path)
		if err != nil {
			return nil, "", SkipImport
		}
		return doc, imp.Path, nil
	}
	w.Outside = func(imp *Import, why string) error {
		l.log = append(l.log, "outside "+imp.Name.Str()+" from "+at(imp)+":"+why)
		if imp.Name.Str() == "../stop.yaml" {
			return errors.New("stop")
		}
		return nil
	}
	w.Cycle = func(imp *Import, files []string) error {
		for i := range files {
			files[i] = rel(files[i])
		}
		l.log = append(l.log, "cycle "+ImportCycle(files, rel(imp.Path))+" at "+at(imp))
		return nil
	}
	w.TooDeep = func(imp *Import) error {
		l.log = append(l.log, "too deep "+imp.Name.Str()+" from "+at(imp))
		return nil
	}
	l.w = w
	return l
}

// run walks the template t/t.yaml.
func (l *walkLog) run(t *testing.T) error {
	t.Helper()
	p := filepath.Join(l.dir, "t", "t.yaml")
	doc, err := yamlsrc.LoadFile(p)
	require.NoError(t, err)
	return l.w.Walk(doc, p, 0)
}

// TestImportWalk: imports resolve against the importing file, each file
// is read once (a missing one each time it is named), cycles name their
// files, and the tree, URLs and the depth go to their hooks.
func TestImportWalk(t *testing.T) {
	l := newWalkLog(t, map[string]string{
		"t/t.yaml":       "imports: [b.yaml, sub/c.yaml, b.yaml, https://x/y.yaml, ../out.yaml]\n",
		"t/b.yaml":       "imports: [sub/c.yaml]\n",
		"t/sub/c.yaml":   "imports:\n  - ../b.yaml\n  - missing.yaml\n  - ./../sub/missing.yaml\n  - ../t.yaml\n",
		"out.yaml":       "{}\n",
		"t/lib/lib.yaml": "imports: [../b.yaml, ../lib/lib.yaml]\n",
	})
	require.NoError(t, l.run(t))
	require.Equal(t, []string{
		"read t/b.yaml from t/t.yaml:1 d1",
		"read t/sub/c.yaml from t/b.yaml:1 d2",
		"cycle t/b.yaml → t/sub/c.yaml → t/b.yaml at t/sub/c.yaml:2 d3",
		"read t/sub/missing.yaml from t/sub/c.yaml:3 d3",
		"read t/sub/missing.yaml from t/sub/c.yaml:4 d3",
		"cycle t/t.yaml → t/b.yaml → t/sub/c.yaml → t/t.yaml at t/sub/c.yaml:5 d3",
		"url https://x/y.yaml from t/t.yaml:1 d1",
		"outside ../out.yaml from t/t.yaml:1 d1: leaves the directory tree of the template",
	}, l.log)

	_, ok := l.w.Lookup(filepath.Join(l.dir, "t", "sub", "..", "b.yaml"))
	require.True(t, ok, "b.yaml was read")
	_, ok = l.w.Lookup(filepath.Join(l.dir, "t", "lib", "lib.yaml"))
	require.False(t, ok, "lib.yaml was not")

	// A file the caller adds, as if the template imported it.
	l.log = nil
	p := filepath.Join(l.dir, "t", "lib", "lib.yaml")
	doc, err := yamlsrc.LoadFile(p)
	require.NoError(t, err)
	require.NoError(t, l.w.Walk(doc, p, 1))
	require.Equal(t, []string{"cycle t/lib/lib.yaml → t/lib/lib.yaml at t/lib/lib.yaml:1 d2"}, l.log,
		"b.yaml is not read again; lib.yaml imports itself")
}

// TestImportWalkStops: an error from a hook stops the walk and comes back
// from Walk; AllowOutside reads what leaves the tree.
func TestImportWalkStops(t *testing.T) {
	files := map[string]string{
		"t/t.yaml": "imports: [a.yaml, ../stop.yaml, b.yaml]\n",
		"t/a.yaml": "{}\n", "t/b.yaml": "{}\n", "stop.yaml": "{}\n",
	}
	l := newWalkLog(t, files)
	require.EqualError(t, l.run(t), "stop")
	require.Equal(t, []string{
		"read t/a.yaml from t/t.yaml:1 d1",
		"outside ../stop.yaml from t/t.yaml:1 d1: leaves the directory tree of the template",
	}, l.log)

	l = newWalkLog(t, files)
	l.w.AllowOutside = true
	require.NoError(t, l.run(t))
	require.Len(t, l.log, 3, "every import read: %v", l.log)
}

// TestImportWalkDepth: a chain of imports ends at MaxImportDepth.
func TestImportWalkDepth(t *testing.T) {
	files := map[string]string{"t/t.yaml": "imports: [f1.yaml]\n"}
	for i := 1; i <= MaxImportDepth+5; i++ {
		files["t/f"+strconv.Itoa(i)+".yaml"] = "imports: [f" + strconv.Itoa(i+1) + ".yaml]\n"
	}
	l := newWalkLog(t, files)
	require.NoError(t, l.run(t))
	require.Len(t, l.log, MaxImportDepth)
	require.Equal(t, "too deep f100.yaml from t/f99.yaml:1 d100", l.log[MaxImportDepth-1])
}

func TestImportCycle(t *testing.T) {
	require.Equal(t, "a.yaml → sub/b.yaml → a.yaml", ImportCycle([]string{"a.yaml", filepath.Join("sub", "b.yaml")}, "a.yaml"))
}
