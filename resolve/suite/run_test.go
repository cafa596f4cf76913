package suite

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stubRunner passes cases whose path ends in "ok", panics on "boom", waits
// for the deadline on "slow" and fails the rest.
type stubRunner struct{ running, peak atomic.Int32 }

func (*stubRunner) Format() string      { return "stub" }
func (*stubRunner) Detect(DirInfo) bool { return true }
func (s *stubRunner) Run(ctx context.Context, c Case) Outcome {
	n := s.running.Add(1)
	defer s.running.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(time.Millisecond)
	switch {
	case strings.HasSuffix(c.Path, "ok"):
		return Outcome{Pass: true}
	case strings.HasSuffix(c.Path, "boom"):
		panic("boom")
	case strings.HasSuffix(c.Path, "slow"):
		<-ctx.Done()
		return Outcome{Reason: ctx.Err().Error()}
	}
	return Outcome{Reason: "line one\nline two"}
}

func TestRun(t *testing.T) {
	r := &stubRunner{}
	var cases []Case
	for i := range 40 {
		name := fmt.Sprintf("c%02d-ok", i)
		if i%3 == 0 {
			name = fmt.Sprintf("c%02d-bad", i)
		}
		cases = append(cases, Case{Path: name, Runner: r})
	}
	cases = append(cases, Case{Path: "z-boom", Runner: r}, Case{Path: "z-slow", Runner: r})
	var calls []int
	results := Run(context.Background(), cases, Options{Jobs: 3, CaseTimeout: 50 * time.Millisecond, Progress: func(done, total int) {
		require.Equal(t, len(cases), total)
		calls = append(calls, done)
	}})
	require.Len(t, results, len(cases))
	for i, res := range results {
		require.Equal(t, cases[i].Path, res.Case.Path, "order at %d", i)
	}
	require.LessOrEqual(t, r.peak.Load(), int32(3), "jobs bound")
	require.Len(t, calls, len(cases))
	require.Equal(t, len(cases), calls[len(calls)-1])
	require.True(t, results[1].Pass, "c01-ok passes")
	require.Equal(t, `line one\nline two`, results[0].Reason, "reasons stay on one line")
	require.Equal(t, "internal error: panic: boom", results[40].Reason)
	require.Equal(t, "timeout after 50ms (context deadline exceeded)", results[41].Reason)
	passed, failed := Counts(results)
	require.Equal(t, 26, passed)
	require.Equal(t, 16, failed)
}

func TestRunNothing(t *testing.T) {
	require.Empty(t, Run(context.Background(), nil, Options{}))
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, []Case{{Path: "a-ok", Runner: &stubRunner{}}}, Options{})
	require.Equal(t, "not run: context canceled", res[0].Reason)
}
