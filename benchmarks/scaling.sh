#!/usr/bin/env bash
# Batch scaling: runs per second of `v4t batch` at -j 1, 2 and all cores
# (issue 19), whole process, wall time from the shell, median of $RUNS.
#
#   benchmarks/scaling.sh                 # the two default spaces
#   benchmarks/scaling.sh SPACE.yaml ...  # your own spaces
#   RUNS=5 JOBS="1 2 4 8 16" benchmarks/scaling.sh
#   V4T=/tmp/v4t-old benchmarks/scaling.sh   # time another build
#   SEEDS=10,50,200,500 benchmarks/scaling.sh   # a larger generated space
#   GEN=DIR benchmarks/scaling.sh         # keep the generated space in DIR
#   PROFILE=DIR benchmarks/scaling.sh     # and the in-process view, below
#
# Default spaces: testdata/batch/motivation.yaml (200 runs, 85% of them
# settled by propagation without a SAT solver) and a generated space of
# 128 runs over the choice, pruning, ring and wide families at seeds 10
# and 50 (the choice runs build about 40 gophersat solvers each); SEEDS
# (comma-separated) gives other seeds, 64 runs per seed, so that a machine
# with many cores has runs long enough to show where they stop scaling.
#
# Run it on a quiet machine: wall-clock ratios measured beside other work
# mean nothing. The CPU column (user+system) shows what the runs cost; the
# load-independent view (CPU per run, GC share, mutex wait) is
#   V4T_SCALING_SPACE=SPACE go test -run '^$' -bench Execute \
#       -benchtime 3x -mutexprofile mutex.out ./resolve/batch/
# (the test binary keeps the default GOGC=100; v4t batch sets 400, see
# cmd/v4t/gc.go: run it with GOGC=400 to compare like with like).
#
# PROFILE=DIR adds that view for each space, at -j 1 and at every CPU, to
# the table: the benchmark's lines (CPU per run, its GC share, page faults
# per run, bytes per batch), and in DIR the CPU and mutex profiles of each
# -j with the mutex profile's top lines printed (runtime.unlock there is
# the runtime's own locks, the heap's among them). What grows from -j 1
# to every CPU is what stops the runs scaling. BATCH_TEST names a test
# binary of ./resolve/batch built elsewhere (go test -c), for a machine
# without Go.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
jobs=${JOBS:-$(printf '%s\n' 1 2 "$ncpu" | awk '!seen[$0]++' | tr '\n' ' ')}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
v4t=${V4T:-$tmp/v4t}
if [ -z "${V4T:-}" ]; then
	# the static binary of the README's install: linked dynamically (cgo),
	# every process starts about 2 ms later on the 2-core machine
	CGO_ENABLED=0 go build -o "$v4t" ./cmd/v4t
fi

spaces=("$@")
if [ ${#spaces[@]} -eq 0 ]; then
	# GEN keeps the generated templates and space.yaml, e.g. for
	# V4T_SCALING_SPACE=$GEN/space.yaml go test ./resolve/batch -bench Execute
	gen=${GEN:-$tmp/gen}
	mkdir -p "$gen"
	seeds=${SEEDS:-10,50}
	for f in choice pruning ring wide; do
		"$v4t" bench --family "$f" --seeds "$seeds" --runs 1 --write "$gen" --format csv >/dev/null
	done
	# the templates of family $1 at every seed, as a YAML flow list
	files() { printf '%s\n' "${seeds//,/ }" | tr ' ' '\n' | awk -v f="$1" 'NF { printf "%s%s-%s.yaml", (n++ ? ", " : "["), f, $0 } END { print "]" }'; }
	sed -e "s/@choice@/$(files choice)/" -e "s/@pruning@/$(files pruning)/" \
		-e "s/@ring@/$(files ring)/" -e "s/@wide@/$(files wide)/" >"$gen/space.yaml" <<'EOF'
# 64 runs per seed over generated benchmark templates (benchmarks/scaling.sh)
- templates: @choice@
  options:
    - optimization_topology: [min, max]
      optimization_topology_unique: [true, false]
      mode: [manual, semantic-loose, consistent-loose]
- templates: @pruning@
  inputs:
    - runtime: [a, b, c]
      machine: [a, b, c]
      provider: [a, b]
  options:
    - mode: [semantic-loose, semantic-strict]
- templates: @ring@
  inputs:
    - mode: [present, absent]
  options:
    - optimization_topology: [false, min]
      mode: [manual, semantic-loose]
- templates: @wide@
  inputs:
    - profile: [small, large]
  options:
    - mode: [manual, semantic-loose]
      optimization_topology: [false, min]
EOF
	spaces=(testdata/batch/motivation.yaml "$gen/space.yaml")
fi

echo "machine: $(uname -sm), $ncpu CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(go version 2>/dev/null | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "binary: ${V4T:-this tree}; median of $runs; GOGC=${GOGC:-unset} GOMEMLIMIT=${GOMEMLIMIT:-unset}"
echo
echo "| space | runs | -j | wall (s) | runs/s | speedup over -j 1 | CPU (s) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for space in "${spaces[@]}"; do
	dir=$(dirname "$space")
	file=$(basename "$space")
	n=$("$v4t" batch "$space" --commands | wc -l)
	base=
	for j in $jobs; do
		samples=()
		for _ in $(seq "$runs"); do
			# wall and CPU (user+system) of the whole process, in seconds
			samples+=("$(cd "$dir" && { TIMEFORMAT='%R %U %S'; time "$v4t" batch "$file" -j "$j" --no-timings --output /dev/null 2>/dev/null; } 2>&1 | awk '{printf "%s %.2f", $1, $2+$3}')")
		done
		med=$(printf '%s\n' "${samples[@]}" | sort -n | awk -v r="$runs" 'NR==int((r+1)/2)')
		wall=${med% *}
		cpu=${med#* }
		base=${base:-$wall}
		awk -v s="$(basename "$space")" -v n="$n" -v j="$j" -v w="$wall" -v b="$base" -v c="$cpu" \
			'BEGIN { printf "| %s | %d | %d | %.2f | %.0f | %.2f× | %s |\n", s, n, j, w, n/w, b/w, c }'
	done
done

if [ -n "${PROFILE:-}" ]; then
	mkdir -p "$PROFILE"
	bt=${BATCH_TEST:-$tmp/batch.test}
	if [ -z "${BATCH_TEST:-}" ]; then
		go test -c -o "$bt" ./resolve/batch
	fi
	for space in "${spaces[@]}"; do
		abs=$(cd "$(dirname "$space")" && pwd)/$(basename "$space")
		name=$(basename "$space" .yaml)
		for j in 1 "$ncpu"; do
			echo
			echo "in process: $name, -j $j (GOGC=400, 3 batches)"
			(cd resolve/batch && V4T_SCALING_SPACE="$abs" V4T_SCALING_JOBS="$j" GOGC=400 "$bt" \
				-test.run '^$' -test.bench Execute -test.benchtime 3x \
				-test.cpuprofile "$PROFILE/$name-j$j.cpu" -test.mutexprofile "$PROFILE/$name-j$j.mutex" |
				grep '^Benchmark')
			if command -v go >/dev/null; then
				go tool pprof -top -cum -nodecount 20 "$bt" "$PROFILE/$name-j$j.mutex" 2>/dev/null | sed -n '4,26p'
			fi
		done
	done
fi
