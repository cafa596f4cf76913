package batch

import (
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkExecute measures batch throughput (runs/s) at -j 1, 2 and the
// number of CPUs, on the motivation space (200 runs) or on the space named
// by V4T_SCALING_SPACE (V4T_SCALING_JOBS=1,16 picks the -j values). Each iteration runs the whole space. Beside runs/s
// it reports the CPU seconds per run (user+system, from runtime/metrics)
// and the share of it spent in garbage collection, which do not depend on
// other load on the machine the way wall time does. benchmarks/scaling.sh
// runs it; with -mutexprofile it shows the wait on the solver's lock.
func BenchmarkExecute(b *testing.B) {
	path := "../../testdata/batch/motivation.yaml"
	if p := os.Getenv("V4T_SCALING_SPACE"); p != "" {
		path = p
	}
	s, err := LoadSpace(path)
	require.NoError(b, err)
	jobs := []int{1, 2}
	if n := runtime.NumCPU(); n > 2 {
		jobs = append(jobs, n)
	}
	if js := os.Getenv("V4T_SCALING_JOBS"); js != "" {
		jobs = nil
		for _, f := range strings.Split(js, ",") {
			j, err := strconv.Atoi(strings.TrimSpace(f))
			require.NoError(b, err, "V4T_SCALING_JOBS")
			jobs = append(jobs, j)
		}
	}
	for _, j := range jobs {
		b.Run("j="+strconv.Itoa(j), func(b *testing.B) {
			b.ReportAllocs()
			before := cpuSample()
			start := time.Now()
			for b.Loop() {
				res := Execute(context.Background(), s, Options{Jobs: j})
				if _, _, notRun := res.Counts(); notRun > 0 {
					b.Fatalf("%d runs did not run", notRun)
				}
			}
			wall := time.Since(start)
			after := cpuSample()
			runs := float64(b.N * len(s.Runs))
			b.ReportMetric(runs/wall.Seconds(), "runs/s")
			b.ReportMetric(after.total-before.total, "cpu-s")
			b.ReportMetric((after.total-before.total)/runs*1e3, "cpu-ms/run")
			if d := after.busy - before.busy; d > 0 {
				b.ReportMetric(100*(after.gc-before.gc)/d, "gc-%cpu")
			}
			b.ReportMetric((after.cycles-before.cycles)/float64(b.N), "gcs/op")
			b.ReportMetric((after.faults-before.faults)/runs, "faults/run")
		})
	}
}

type cpuTimes struct{ total, busy, gc, cycles, faults float64 }

// cpuSample reads the process's CPU time (user+system, from getrusage)
// and its minor page faults,
// and, as the runtime accounts it, the time its Ps were busy and the
// garbage collector's share of that, and the number of GC cycles.
func cpuSample() cpuTimes {
	ms := []metrics.Sample{
		{Name: "/cpu/classes/total:cpu-seconds"},
		{Name: "/cpu/classes/idle:cpu-seconds"},
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	metrics.Read(ms)
	cpu, faults := processCPU()
	return cpuTimes{
		total:  cpu,
		faults: faults,
		busy:   ms[0].Value.Float64() - ms[1].Value.Float64(),
		gc:     ms[2].Value.Float64(),
		cycles: float64(ms[3].Value.Uint64()),
	}
}
