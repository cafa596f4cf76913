package main

import (
	"fmt"
	"time"
)

// progressDelay is how long work runs before progress shows, and
// progressEvery how often a line follows where standard error is not a
// terminal.
const (
	progressDelay = 2 * time.Second
	progressEvery = 5 * time.Second
)

// progress reports long work of unknown length on standard error: after
// progressDelay, the elapsed time on one rewritten line on a terminal, or a
// line every progressEvery otherwise. stop ends it (and clears the line);
// nothing is printed for work that ends sooner.
func (e *env) progress(msg string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		term := isTerminal(e.stderr)
		every := progressEvery
		if term {
			every = time.Second
		}
		timer := time.NewTimer(progressDelay)
		defer timer.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown && term {
					fmt.Fprint(e.stderr, "\r\033[K")
				}
				return
			case <-timer.C:
				s := fmt.Sprintf("%s (%s)", msg, time.Since(start).Truncate(time.Second))
				if term {
					fmt.Fprintf(e.stderr, "\r\033[K%s", s)
				} else {
					fmt.Fprintln(e.stderr, s)
				}
				shown = true
				timer.Reset(every)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
