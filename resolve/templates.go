package resolve

import (
	"flag"
	"sync"
	"testing"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Templates keeps loaded templates for many resolves of the same files in
// one process, such as the runs of a v4t batch space: each template is
// read, checked against its directory tree (imports, side files, links),
// and merged with its types once, and every resolve takes a copy of the
// result, which shares the type definitions that imports loaded with the
// other copies (readOnlyTypes). Loading is a large part of a short run: in the motivation space,
// two fifths of the CPU, half of it the system calls that resolve the
// template's real paths. The files are taken not to change while a
// Templates is in use. A template is kept until as many resolves as Expect announced
// have loaded it, or, without Expect, as long as the Templates. A
// Templates is safe for concurrent use; its zero value is not
// (NewTemplates).
type Templates struct {
	mu sync.Mutex
	m  map[templateKey]*templateEntry
	// loader is loadTemplate; tests replace it.
	loader func(path string, data []byte, allowOutside bool, warn diag.Sink) (*loaded, error)
}

// NewTemplates returns an empty cache.
func NewTemplates() *Templates {
	return &Templates{m: map[templateKey]*templateEntry{}, loader: loadTemplate}
}

type templateKey struct {
	path         string
	allowOutside bool
}

// templateEntry is one template, loaded once: the loader's result with
// the document (and a topology_template that is no map) frozen, the
// warnings the loading gave, in order, or the error that ended it.
type templateEntry struct {
	// left counts the loads still expected (Expect), under Templates.mu;
	// 0 keeps the entry.
	left     int
	once     sync.Once
	l        loaded
	doc      *yamlsrc.Frozen
	topology *yamlsrc.Frozen
	warnings []*diag.Diagnostic
	err      error
	// panicked is what the loading panicked with: each resolve that loads
	// the template panics with it again, so that the resolver reports an
	// internal error for every run, whichever goroutine loaded it (a
	// batch's Prepare runs outside any resolve).
	panicked any
}

// Expect announces n more resolves of the template at path (Input's
// TemplatePath, as the resolves give it) with Options.AllowOutside
// allowOutside: the last of them drops the template from the cache, so
// that a batch over many templates keeps only those its runs in flight
// use.
func (t *Templates) Expect(path string, allowOutside bool, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.entry(templateKey{path, allowOutside}).left += n
}

// entry returns the entry of k, made where there is none; t.mu is held.
func (t *Templates) entry(k templateKey) *templateEntry {
	if e, ok := t.m[k]; ok {
		return e
	}
	e := &templateEntry{}
	t.m[k] = e
	return e
}

// Prepare loads the template at path into the cache, where it is not there
// yet, without counting as one of the loads Expect announced: a batch
// calls it before the first of a template's runs, so that it knows when
// the others no longer wait for the loading. Its warnings and error go to
// the resolves, as they would from their own loading.
func (t *Templates) Prepare(path string, allowOutside bool) {
	t.mu.Lock()
	e := t.entry(templateKey{path, allowOutside})
	t.mu.Unlock()
	e.once.Do(func() { e.fill(t.loader, path, allowOutside) })
}

// fill loads the template into e with load; once runs it.
func (e *templateEntry) fill(load func(string, []byte, bool, diag.Sink) (*loaded, error), path string, allowOutside bool) {
	defer func() {
		if r := recover(); r != nil {
			e.panicked = r
		}
	}()
	l, err := load(path, nil, allowOutside, func(d *diag.Diagnostic) { e.warnings = append(e.warnings, d) })
	if err != nil {
		e.err = err
		return
	}
	e.l = *l
	e.doc, e.l.doc = freeze(l.doc, readOnlyTypes(l.doc)...), nil
	if l.topology != nil {
		e.topology, e.l.topology = freeze(l.topology), nil
	}
}

// load is loadTemplate through the cache: the warnings of the loading go
// to warn each time, as a fresh load would give them.
// The copy takes its arrays from copies (nil: allocates them).
func (t *Templates) load(path string, allowOutside bool, warn diag.Sink, copies *yamlsrc.CopyArrays) (*loaded, error) {
	k := templateKey{path, allowOutside}
	t.mu.Lock()
	e := t.entry(k)
	if e.left > 0 {
		if e.left--; e.left == 0 {
			delete(t.m, k)
		}
	}
	t.mu.Unlock()
	e.once.Do(func() { e.fill(t.loader, path, allowOutside) })
	if e.panicked != nil {
		panic(e.panicked)
	}
	if warn != nil {
		for _, d := range e.warnings {
			warn(d)
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	l := e.l
	verifyShared(e.doc)
	l.doc, l.sink = e.doc.CopyTo(copies), warn
	if e.topology != nil {
		l.topology = e.topology.CopyTo(copies)
	}
	return &l, nil
}

// checkShared holds in tests: a resolve that changes what the copies of a
// frozen document share (readOnlyTypes) changes it for every other
// resolve, so each copy first checks that nobody did. Benchmarks leave
// the check out, since it reads every shared value.
var checkShared = sync.OnceValue(func() bool {
	if !testing.Testing() {
		return false
	}
	bench := flag.Lookup("test.bench")
	return bench == nil || bench.Value.String() == ""
})

// freeze is yamlsrc.Freeze, watched for verifyShared where checkShared
// holds.
func freeze(v *yamlsrc.Value, readOnly ...*yamlsrc.Value) *yamlsrc.Frozen {
	f := yamlsrc.Freeze(v, readOnly...)
	if checkShared() {
		f.Watch()
	}
	return f
}

// verifyShared panics, in tests, where a shared part of f was changed.
func verifyShared(f *yamlsrc.Frozen) {
	if checkShared() {
		if err := f.Verify(); err != nil {
			panic(err)
		}
	}
}
