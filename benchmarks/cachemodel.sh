#!/usr/bin/env bash
# A model of what -j N does to a batch's memory traffic, for a machine
# without N cores: `v4t batch` under valgrind's cachegrind, with N
# workers and GOMAXPROCS=N, and one simulated last-level cache that every
# worker shares, as the cores of one processor share theirs.
#
#   benchmarks/cachemodel.sh SPACE.yaml              # -j 1 and -j 16, 32 MiB
#   JOBS="1 4 16" LL=$((64<<20)) benchmarks/cachemodel.sh SPACE.yaml
#   V4T=/tmp/v4t-old benchmarks/cachemodel.sh SPACE.yaml   # another build
#
# Valgrind runs one thread at a time and switches between them every few
# thousand blocks of code, so the N runs in flight interleave as if on N
# cores, each evicting the others' lines from the one cache. What the
# model counts, and no wall clock on a 2-core machine can show, is how
# many more last-level misses the same runs take at -j N than alone: on
# a real machine those are what a run waits for while every core is busy.
# It does not model the hardware prefetcher (streams such as clearing an
# array miss here and hardly cost there) nor a core's private caches
# beyond the first level, and the instruction counts include the Go
# scheduler's spinning at -j N. At -j N the interleaving, and so the
# counts, change from run to run (the 256-run space of scaling.sh at
# -j 16: 108 to 118 million misses, 26 to 33 billion instructions in
# four runs of two builds 4% apart at -j 1), so the model shows large
# effects, such as what -j 16 does to the misses, and not a few per cent
# between builds.
# That space takes 3 to 8 minutes a run on one core (the runs at each -j
# go in parallel where there are cores for them).
#
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
	echo "usage: benchmarks/cachemodel.sh SPACE.yaml..." >&2
	exit 2
fi
command -v valgrind >/dev/null || { echo "cachemodel.sh: valgrind not found" >&2; exit 1; }
jobs=${JOBS:-1 16}
ll=${LL:-$((32 << 20))}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
v4t=${V4T:-$tmp/v4t}
if [ -z "${V4T:-}" ]; then
	CGO_ENABLED=0 go build -o "$v4t" ./cmd/v4t
fi

echo "binary: ${V4T:-this tree}; last-level cache $((ll >> 20)) MiB, 16-way, shared; first level 32 KiB; GOGC=400"
echo
echo "| space | runs | -j | instructions (M) | data refs (M) | L1 data misses (M) | last-level misses (M) | per run (k) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for space in "$@"; do
	dir=$(dirname "$space")
	file=$(basename "$space")
	n=$("$v4t" batch "$space" --commands | wc -l)
	for j in $jobs; do
		(cd "$dir" && GOMAXPROCS=$j GOGC=400 valgrind --tool=cachegrind --cache-sim=yes \
			--I1=32768,8,64 --D1=32768,8,64 --LL="$ll",16,64 \
			--cachegrind-out-file=/dev/null "$v4t" batch "$file" -j "$j" --no-timings --output /dev/null \
			>"$tmp/$j.log" 2>&1) &
	done
	wait
	for j in $jobs; do
		# A batch with failed runs exits non-zero and is still measured;
		# a log without valgrind's summary is not.
		if ! grep -q ' LL misses:' "$tmp/$j.log"; then
			echo "cachemodel.sh: $space at -j $j: no cachegrind summary; its log:" >&2
			tail -n 5 "$tmp/$j.log" >&2
			exit 1
		fi
		# the summary lines: "I refs: N", "D refs: N (...)", "D1 misses: N (...)", "LL misses: N (...)"
		awk -v s="$file" -v n="$n" -v j="$j" '
			function num(x) { gsub(",", "", x); return x + 0 }
			/ I +refs:/ { ir = num($4) }
			/ D +refs:/ { dr = num($4) }
			/ D1 +misses:/ { d1 = num($4) }
			/ LL misses:/ { ll = num($4) }
			END { printf "| %s | %d | %d | %.0f | %.0f | %.1f | %.1f | %.1f |\n", s, n, j, ir/1e6, dr/1e6, d1/1e6, ll/1e6, ll/n/1e3 }
		' "$tmp/$j.log"
	done
done
