#!/usr/bin/env bash
# Benchmarks of the bash engine against bare bash, measured in the same run, printed as ratios with their
# targets (issue 4). Usage: bench/bash.sh [COUNT]   (COUNT: iterations per benchmark, default 20)
#
# The ratios compare wall-clock time, so a busy machine makes them noisy: run it on a quiet one, and read
# warden-cpu-ms (the engine's own CPU per run) to tell the engine's cost from waiting for a CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-20}"
out="$(go test -run '^$' -bench 'BashCallOverhead|BashThroughput' -benchtime "${count}x" ./tools/bash/)"
echo "$out" | grep '^Benchmark'
echo
echo "$out" | awk '
function metric(name,   i) { for (i = 1; i <= NF; i++) if ($(i+1) == name) return $i; return "" }
function verdict(ok) { return ok ? "ok" : "OVER TARGET" }
/^BenchmarkBashCallOverhead/ {
	r = metric("ratio")
	printf "call overhead:      %.2fx bare bash -c true (%s µs vs %s µs)   target <= 1.2x  %s\n", r, metric("warden-µs/call"), metric("bare-µs/call"), verdict(r <= 1.2)
}
/^BenchmarkBashThroughput/ {
	split($1, parts, "/"); producer = parts[2]; size = parts[3]; sub(/-[0-9]+$/, "", size)
	heap[producer, size] = metric("peak-heap-MB")
	if (size == "100MB") {
		r = metric("ratio")
		printf "throughput %-6s   %.2fx bare > /dev/null (%s ms vs %s ms, engine CPU %s ms; | cat > file: %.2fx)   target <= 1.5x  %s\n", producer ":", r, metric("warden-ms"), metric("bare-ms"), metric("warden-cpu-ms"), metric("cat-file-ratio"), verdict(r <= 1.5)
	}
	producers[producer] = 1
}
END {
	for (p in producers)
		printf "peak heap %-6s    %s MB for 10 MB of output, %s MB for 100 MB   target: independent of size  %s\n", p ":", heap[p, "10MB"], heap[p, "100MB"], verdict(heap[p, "100MB"] < 4 * (heap[p, "10MB"] + 1))
}'
