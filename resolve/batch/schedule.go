package batch

import (
	"cmp"
	"os"
	"slices"
	"sync"
)

// schedule hands the runs of a space to Execute's workers.
//
// Runs of larger template files go first: a run's cost grows with its
// template, and starting the long runs early keeps a batch from ending on
// one of them while the other cores idle (longest processing time first,
// with the file size as the estimate). A worker does not queue behind a
// template that another worker is loading (resolve.Templates loads each
// once): it takes a run of a loaded template, or claims one not yet loaded
// and loads it itself, and waits only when every template with runs left
// is being loaded. In the space's order, the first workers of a batch all
// waited for the first template to load, and its last runs were often long
// ones: on 16 cores, the 256-run space of benchmarks/scaling.sh with
// SEEDS=10,50,200,500 went from 1.30 s to 1.15 s at -j 16 with this
// schedule (whole process, median of 7, alternating; in process, 262 to
// 297 runs/s).
//
// The order of execution changes nothing in the result: every run has its
// own row, and the template a run reads is the same whichever run loaded it.
type schedule struct {
	mu sync.Mutex
	// head is the first group with runs left, in priority order; a group
	// leaves the list when its last run is taken, so that a pick passes
	// over only the groups being loaded (at most one per worker).
	head *runGroup
}

// runGroup is the runs of one template.
type runGroup struct {
	path       string
	size       int64 // the template file's, the estimate of its runs' cost
	runs       []int // run indices, in the space's order
	state      groupState
	prev, next *runGroup
}

type groupState uint8

const (
	unclaimed groupState = iota // no worker has loaded the template
	loading                     // a worker is loading it
	loaded                      // its runs no longer wait for the loading
)

// newSchedule groups the runs by template. size gives a template's size
// (os.Stat's, where nil); a template whose file cannot be read (its runs
// fail at once) counts as empty.
func newSchedule(s *Space, size func(path string) int64) *schedule {
	byPath := map[string]*runGroup{}
	var groups []*runGroup
	for i, r := range s.Runs {
		g := byPath[r.Input.TemplatePath]
		if g == nil {
			g = &runGroup{path: r.Input.TemplatePath}
			byPath[g.path] = g
			groups = append(groups, g)
		}
		g.runs = append(g.runs, i)
	}
	for _, g := range groups {
		if size != nil {
			g.size = size(g.path)
		} else if fi, err := os.Stat(g.path); err == nil {
			g.size = fi.Size()
		}
	}
	// Stable: templates of the same size keep the space's order.
	slices.SortStableFunc(groups, func(a, b *runGroup) int { return cmp.Compare(b.size, a.size) })
	sch := &schedule{}
	var last *runGroup
	for _, g := range groups {
		if last == nil {
			sch.head = g
		} else {
			last.next, g.prev = g, last
		}
		last = g
	}
	return sch
}

// take returns the next run to resolve and, when the worker is to load its
// template first (its group is then loading until the worker calls
// loaded), the group; ok is false when no run is left.
func (s *schedule) take() (run int, load *runGroup, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var wait *runGroup
	for g := s.head; g != nil; g = g.next {
		switch g.state {
		case loaded:
			return s.pop(g), nil, true
		case unclaimed:
			g.state = loading
			return s.pop(g), g, true
		}
		if wait == nil {
			wait = g
		}
	}
	if wait != nil {
		// Every template with runs left is being loaded: wait for the
		// first one's loading in the resolve.
		return s.pop(wait), nil, true
	}
	return 0, nil, false
}

// pop takes g's first run; s.mu is held.
func (s *schedule) pop(g *runGroup) int {
	i := g.runs[0]
	g.runs = g.runs[1:]
	if len(g.runs) == 0 {
		if g.prev != nil {
			g.prev.next = g.next
		} else {
			s.head = g.next
		}
		if g.next != nil {
			g.next.prev = g.prev
		}
	}
	return i
}

// loaded records that g's template is loaded (or failed to load: its runs
// then fail at once).
func (s *schedule) loaded(g *runGroup) {
	s.mu.Lock()
	g.state = loaded
	s.mu.Unlock()
}
