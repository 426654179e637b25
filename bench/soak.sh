#!/usr/bin/env bash
# The soak: a working day compressed, on the real binary in a pseudo-terminal against the fake server
# (BenchmarkSoak in e2e/bench_soak_test.go): 5,000 turns, a command of 20,000 lines of output every fifth,
# 20 idle seconds after every thousand. It prints, every 250 turns, the program's resident memory, its Go
# heap and goroutines, and the CPU and wall time a turn took since the sample before, then the figures
# bench/run.sh reads (the first fifth of the day against the last). About ten minutes on 2 cores.
#
#   bench/soak.sh                        # the day
#   SOAK_TURNS=1000 bench/soak.sh        # a shorter one; SOAK_SAMPLE_EVERY and SOAK_IDLE_SECONDS too
#   WARDEN_BENCH_HEAPPROFILE=/tmp/heap.prof bench/soak.sh   # and the heap at the last sample, for pprof
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go test -run '^$' -bench '^BenchmarkSoak$' -benchtime 1x -timeout 60m -v ./e2e/ | tee bench/out/soak.txt |
	sed -n -e 's/^ *bench_soak_test.go:[0-9]*: //p' -e '/^BenchmarkSoak/p'
