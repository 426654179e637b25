#!/usr/bin/env bash
# Warden's performance figures, each printed with its target. Every figure that depends on the machine is
# a ratio against a baseline measured in the same run (bare bash, `warden --version`, `warden -p`), so the table reads
# the same on a fast and a slow machine. The go test benchmarks behind each line live in the package they
# measure; their raw output is kept in bench/out/ for benchstat:
#
#   bench/run.sh            # prints the table (about 20 minutes on 2 cores, ten of them the soak)
#   benchstat bench/out/old.txt bench/out/latest.txt
#
#   bench/run.sh terminal   # only the process-level and terminal figures and the soak (about 15 minutes)
#   SKIP_SOAK=1 bench/run.sh terminal   # the soak's rows from its last run (bench/soak.sh runs it alone)
#
# COUNT sets the iterations of the process-level benchmarks (default 20). The terminal program's figures
# (streaming, idle, package initialisation, resuming a long session) run the real binary in a
# pseudo-terminal; the soak (bench/soak.sh, SOAK_TURNS turns, 5,000 by default) runs a compressed working
# day on it. The load average before and after is the last row: every figure is slower on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-20}"
mkdir -p bench/out
raw=bench/out/latest.txt
: >"$raw"

bench() { # bench PKG PATTERN BENCHTIME
	go test -run '^$' -bench "$2" -benchtime "$3" -benchmem "$1" | tee -a "$raw" | grep '^Benchmark' || true
}

echo "running benchmarks (raw output in $raw) ..." >&2
load0=$(cut -d' ' -f1-3 /proc/loadavg)
main=$(bench ./e2e/ 'StartupFirstFrame|Version|HeadlessRoundTrip|PeakRSS|PackageInit|ResumeLongSession' "${count}x")
term=$(bench ./e2e/ 'StreamingInTerminal' 5x; bench ./e2e/ 'IdleInTerminal' 3x)
# SKIP_SOAK=1 takes the soak's figures from its last run (bench/soak.sh writes bench/out/soak.txt).
soak=$(grep -h '^BenchmarkSoak-' bench/out/soak.txt 2>/dev/null || true)
[ -n "${SKIP_SOAK:-}" ] || soak=$(go test -run '^$' -bench '^BenchmarkSoak$' -benchtime 1x -timeout 60m -v ./e2e/ | tee bench/out/soak.txt | tee -a "$raw" | grep '^BenchmarkSoak-' || true)
bash="" jail="" search="" perm="" ui="" cp="" cpcall="" mcpreq="" hooks="" pic="" web=""
if [ "${1:-}" != terminal ]; then
bash=$(bench ./tools/bash/ 'BashCallOverhead|JailCallOverhead|BashThroughput|SandboxOverhead' "${count}x")
jail=$(bench ./tools/bash/ 'JailStart' 10x)
search=$(bench ./tools/files/ 'Search10k' 10x)
perm=$(bench ./permissions/ 'Classify' 1s)
ui=$(bench ./ui/ 'Keystroke|OutputChunk|TokenStream|StreamLongAnswer' 1s)
cp=$(bench ./checkpoint/ 'SnapshotUnchanged' 10x)
cpcall=$(bench ./agent/ 'CheckpointedCall' "${count}x")
# Sizes, not times: three runs are plenty (each starts server-everything twice).
mcpreq=$(bench ./e2e/ 'MCPFirstRequest' 3x)
hooks=$(bench ./hooks/ 'PreToolUseHookPerCall' "${count}x")
pic=$(bench ./tools/images/ 'ScaleA40MegapixelPicture' 3x)
web=$(bench ./tools/web/ 'ReadAPageOfDeeplyNestedArticles' 3x)
fi

load1=$(cut -d' ' -f1-3 /proc/loadavg)

printf '%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\nLOAD %s / %s\n' "$main" "$term" "$soak" "$bash" "$jail" "$search" "$perm" "$ui" "$cp" "$cpcall" "$mcpreq" "$hooks" "$pic" "$web" "$load0" "$load1" | awk '
function metric(name,   i) { for (i = 1; i <= NF; i++) if ($(i+1) == name) return $i; return "" }
function nsop(   i) { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") return $i; return "" }
function row(what, value, target, ok) { printf "%-44s %-44s %-16s %s\n", what, value, target, ok ? "ok" : "MISSED" }
BEGIN { printf "%-44s %-44s %-16s %s\n", "figure", "measured", "target", "" }
/^BenchmarkStartupFirstFrame-/ {
	row("first frame (TUI in a pseudo-terminal)", sprintf("%.0f ms (%.1fx bash printing)", metric("warden-ms"), metric("ratio")), "< 100 ms", metric("warden-ms") < 100)
}
/^BenchmarkStartupFirstFrameWithMCP/ {
	row("first frame, 3 MCP servers that never answer", sprintf("%.0f ms (%.2fx none)", metric("warden-ms"), metric("ratio")), "~1x", metric("ratio") < 1.25)
}
/^BenchmarkVersion/ {
	row("warden --version", sprintf("%.1f ms (%.1fx bash -c true)", metric("warden-ms"), metric("ratio")), "< 100 ms", metric("warden-ms") < 100)
}
/^BenchmarkHeadlessRoundTrip/ {
	row("headless one-tool round trip", sprintf("%.1f ms (%.2fx warden --version)", metric("warden-ms"), metric("ratio")), "-", 1)
}
/^BenchmarkPeakRSS/ {
	row("peak RSS, TUI with a 1,000-message session", sprintf("%.1f MB", metric("peak-rss-MB")), "< 100 MB", metric("peak-rss-MB") < 100)
}
/^BenchmarkPackageInit/ {
	row("package initialisation (GODEBUG=inittrace=1)", sprintf("%.1f ms fastest, %.1f ms median (%.0f%% of --version)", metric("fastest-init-ms"), metric("init-ms"), 100 * metric("share-of-version")), "<= 10 ms", metric("fastest-init-ms") <= 10)
}
/^BenchmarkResumeLongSession/ {
	row("first frame, --continue on 5,000 turns", sprintf("%.0f ms (%.1fx a new session)", metric("warden-ms"), metric("ratio")), "< 1 s", metric("warden-ms") < 1000)
}
/^BenchmarkStreamingInTerminal/ {
	row("streaming 2,000 words/s, real binary in a pty", sprintf("%.1f%% of one core, %.0f frames/s (%.0f words/s)", metric("cpu-%"), metric("frames/s"), metric("words/s")), "<= 10% core", metric("cpu-%") <= 10)
	row("streaming, against warden -p on the same stream", sprintf("%.2fx (headless: %.1f%% of one core)", metric("ratio"), metric("headless-cpu-%")), "reported", 1)
}
/^BenchmarkIdleInTerminal/ {
	row("idle, real binary in a pty", sprintf("%.2f%% of one core", metric("cpu-%")), "<= 0.5% core", metric("cpu-%") <= 0.5)
}
/^BenchmarkSoak/ {
	t = metric("turns")
	row(sprintf("soak, %d turns: resident memory", t), sprintf("%.1f MB after a fifth, %.1f MB at the end (%.2fx)", metric("rss-early-MB"), metric("rss-last-MB"), metric("rss-last-MB") / metric("rss-early-MB")), "flat, <= 1.25x", metric("rss-last-MB") <= 1.25 * metric("rss-early-MB"))
	row(sprintf("soak, %d turns: live Go heap", t), sprintf("%.1f MB after a fifth, %.1f MB at the end (%.2fx)", metric("live-early-MB"), metric("live-last-MB"), metric("live-last-MB") / metric("live-early-MB")), "reported", 1)
	row(sprintf("soak, %d turns: goroutines", t), sprintf("%d after a fifth, %d at the end", metric("goroutines-early"), metric("goroutines-last")), "flat, +5 at most", metric("goroutines-last") <= metric("goroutines-early") + 5)
	row(sprintf("soak, %d turns: CPU a turn", t), sprintf("%.1f ms in the first fifth, %.1f ms in the last (%.2fx)", metric("cpu-early-ms/turn"), metric("cpu-last-ms/turn"), metric("cpu-last-ms/turn") / metric("cpu-early-ms/turn")), "flat, <= 1.25x", metric("cpu-last-ms/turn") <= 1.25 * metric("cpu-early-ms/turn"))
	row(sprintf("soak, %d turns: idle stretches", t), sprintf("%.2f%% of one core", metric("idle-cpu-%")), "<= 0.5% core", metric("idle-cpu-%") <= 0.5)
}
/^LOAD / {
	sub(/^LOAD /, "")
	row("load average (1, 5, 15 min), start / end", $0, "-", 1)
}
/^BenchmarkAPreToolUseHookPerCall/ {
	row("a matched hook, per call", sprintf("%.1f ms (%.2fx the hook run bare)", metric("warden-µs/call")/1000, metric("ratio")), "-", 1)
}
/^BenchmarkBashCallOverhead/ {
	row("bash per-call overhead", sprintf("%.2fx bare bash -c true", metric("ratio")), "<= 1.2x", metric("ratio") <= 1.2)
}
/^BenchmarkJailCallOverhead/ {
	row("read-only call in the jail (second wall)", sprintf("%.2fx bare bash -c true (outside: %.2fx; %s µs)", metric("jailed-ratio"), metric("unjailed-ratio"), metric("jailed-µs/call")), "<= 1.5x", metric("jailed-ratio") <= 1.5)
}
/^BenchmarkSnapshotUnchanged\/10k/ {
	walk10 = metric("walk-ms"); ratio10 = metric("walk-ratio")
	row("checkpoint, nothing changed, 10k files", sprintf("%.2f ms (full stat walk, once a minute: %.1f ms)", metric("watched-ms"), walk10), "<= 30 ms", metric("watched-ms") <= 30)
}
/^BenchmarkSnapshotUnchanged\/100k/ {
	row("checkpoint, nothing changed, 100k files", sprintf("%.2f ms (full stat walk: %.0f ms, %.1fx the 10k one)", metric("watched-ms"), metric("walk-ms"), metric("walk-ms") / walk10), "scales", metric("watched-ms") <= 30 && metric("walk-ms") <= 15 * walk10)
	row("checkpoint stat walk, 10k / 100k files", sprintf("%.2fx / %.2fx a bare fstatat of each file", ratio10, metric("walk-ratio")), "<= 1.5x", ratio10 <= 1.5 && metric("walk-ratio") <= 1.5)
}
/^BenchmarkSnapshotUnchanged\/git-10k/ {
	row("checkpoint, nothing changed, 10k files in git", sprintf("%.2f ms (full stat walk: %.1f ms, %.2fx without git)", metric("watched-ms"), metric("walk-ms"), metric("walk-ms") / walk10), "<= 30 ms", metric("watched-ms") <= 30)
}
/^BenchmarkCheckpointedCall/ {
	row("bash call that writes, checkpoints on", sprintf("+%.1f ms (%.1f ms, off: %.1f ms), 10k files", metric("added-ms"), metric("checkpointed-ms"), metric("bare-ms")), "reported", 1)
}
/^BenchmarkMCPFirstRequest/ {
	row("first request, 2x everything + 100 MCP tools", sprintf("%.1f KB deferred vs %.1f KB all sent (%.2fx)", metric("deferred-KB"), metric("full-KB"), metric("ratio")), "<= 0.25x", metric("ratio") <= 0.25)
}
/^BenchmarkJailStart/ {
	row("jail start (once, after the first frame)", sprintf("%.0f ms with the test binary", metric("ms/start")), "reported", 1)
}
/^BenchmarkBashThroughput/ {
	split($1, parts, "/"); size = parts[3]; sub(/-[0-9]+$/, "", size)
	heap[parts[2], size] = metric("peak-heap-MB")
	if (size == "100MB")
		row("100 MB output (" parts[2] ")", sprintf("%.2fx > /dev/null (| cat > file: %.2fx)", metric("ratio"), metric("cat-file-ratio")), "<= 1.5x", metric("ratio") <= 1.5)
}
/^BenchmarkSandboxOverhead/ {
	for (i = 1; i <= NF; i++) if ($i ~ /-ratio$/) {
		name = $i; sub(/-ratio$/, "", name)
		row("sandbox per-call cost (" name ")", sprintf("%.1fx the unsandboxed call (%s µs)", $(i-1), metric(name "-µs/call")), "reported", 1)
	}
}
/^BenchmarkSearch10k\/glob/ {
	row("glob, 10k-file work tree", sprintf("%.1f ms (%.2fx git ls-files)", metric("glob-ms"), metric("ratio")), "<= 5x", metric("ratio") <= 5)
}
/^BenchmarkSearch10k\/grep/ {
	row("grep, 10k-file work tree", sprintf("%.1f ms (%.2fx rg)", metric("grep-ms"), metric("ratio")), "<= 2.25x", metric("ratio") <= 2.25)
}
/^BenchmarkScaleA40MegapixelPicture/ {
	row("40-megapixel PNG made ready for the model", sprintf("%.0f ms (%.2fx decoding it alone)", metric("prepare-ms"), metric("ratio")), "<= 5x", metric("ratio") <= 5)
}
/^BenchmarkReadAPageOfDeeplyNestedArticles/ {
	row("web_fetch reading a 5 MB page nested 500 deep", sprintf("%.1f s (a fetch is given 30 s)", metric("read-s")), "< 10 s", metric("read-s") < 10)
}
/^BenchmarkClassify/ {
	row("classifier per command", sprintf("%.1f µs", metric("ns/command") / 1000), "< 50 µs", metric("ns/command") < 50000)
}
/^BenchmarkKeystroke/ {
	row("keystroke, 1,000 messages + 100k-line output", sprintf("%.2f ms", nsop() / 1e6), "< 5 ms", nsop() < 5e6)
}
/^BenchmarkOutputChunk/ {
	row("output chunk, same session", sprintf("%.2f ms", nsop() / 1e6), "< 5 ms", nsop() < 5e6)
}
/^BenchmarkTokenStream/ {
	row("token streaming at 2,000 tokens/s", sprintf("%.0f%% of one core, %.0f frames/s", metric("cpu-%"), metric("frames/s")), "< 25% core", metric("cpu-%") < 25)
}
/^BenchmarkStreamLongAnswer/ {
	split($1, parts, "/"); size = parts[2]; sub(/-[0-9]+$/, "", size)
	frame[size] = nsop() / 1e6
}
END {
	if ("7KB" in frame && "70KB" in frame)
		row("streaming frame, 7 KB vs 70 KB answer", sprintf("%.2f ms vs %.2f ms", frame["7KB"], frame["70KB"]), "flat", frame["70KB"] < 3 * frame["7KB"] + 1)
	for (k in heap) { split(k, kp, SUBSEP); if (kp[2] == "10MB") small[kp[1]] = heap[k]; else big[kp[1]] = heap[k] }
	for (prod in big)
		row("heap, 10 MB vs 100 MB output (" prod ")", sprintf("%.1f MB vs %.1f MB", small[prod], big[prod]), "independent", big[prod] < 4 * (small[prod] + 1))
}'
