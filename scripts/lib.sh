# Shared by tmux-test.sh and screenshots.sh: build the real binaries, start the fake API server and run
# warden in a detached tmux session on its own socket. Source it; it sets TMP, WS, URL and SOCK.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
SOCK="warden-test-$$"
WS="$TMP/ws"
FAKE_PID=""

# cleanup keeps the script's exit status: Warden may still be writing its session as the tmux server goes,
# so removing the directory is tried again for a moment rather than failing a run that passed.
cleanup() {
	local status=$?
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	if [[ -n "$FAKE_PID" ]]; then kill "$FAKE_PID" 2>/dev/null || true; fi
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rm -rf "$TMP" 2>/dev/null && break
		sleep 0.2
	done
	exit "$status"
}
trap cleanup EXIT

build() {
	(cd "$ROOT" && go build -o "$TMP/warden" . && go build -o "$TMP/fakeapi" ./agent/fakeapi/cmd/fakeapi)
}

start_fakeapi() {
	"$TMP/fakeapi" -script "$ROOT/scripts/testdata/tui.json" -requests "$TMP/requests.jsonl" >"$TMP/fakeapi.out" 2>"$TMP/fakeapi.err" &
	FAKE_PID=$!
	for _ in $(seq 100); do
		URL=$(head -n1 "$TMP/fakeapi.out" 2>/dev/null || true)
		[[ -n "$URL" ]] && return 0
		sleep 0.05
	done
	echo "fakeapi printed no URL: $(cat "$TMP/fakeapi.err")" >&2
	return 1
}

# start_warden COLS ROWS [extra env...]: run warden in a fresh workspace inside tmux; WARDEN_ARGS adds
# flags (--continue, say). A pane left from an earlier run is closed first. Warden's exit status is written
# to $TMP/warden.exit by the pane's shell: tmux's own pane_dead_status is not always filled in here.
start_warden() {
	local cols=$1 rows=$2
	shift 2
	mkdir -p "$WS" "$TMP/config" "$TMP/state"
	printf 'hello\n' >"$WS/hello.txt"
	printf 'package main\n' >"$WS/main.go"
	# The whole tmux server goes, and is waited for: a server still shutting down when the next session
	# is made answers "server exited unexpectedly".
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	for _ in $(seq 100); do tmux -L "$SOCK" ls >/dev/null 2>&1 || break; sleep 0.05; done
	rm -f "$TMP/warden.exit"
	tmux -L "$SOCK" -f /dev/null new-session -d -s warden -x "$cols" -y "$rows" \
		"cd '$WS' && env -u OPENAI_API_KEY TERM=xterm-256color COLORTERM=truecolor XDG_CONFIG_HOME='$TMP/config' XDG_STATE_HOME='$TMP/state' $* '$TMP/warden' --base-url '$URL' --model fake-model ${WARDEN_ARGS:-}; echo \$? >'$TMP/warden.exit'"
	tmux -L "$SOCK" set-option -t warden remain-on-exit on >/dev/null
}

# wait_exit waits for warden to end and sets EXIT to its status ("" if it never ended).
wait_exit() {
	EXIT=""
	for _ in $(seq 100); do
		[[ -s "$TMP/warden.exit" ]] && { EXIT=$(cat "$TMP/warden.exit"); return 0; }
		sleep 0.1
	done
}

screen() { tmux -L "$SOCK" capture-pane -p -t warden; }

keys() { tmux -L "$SOCK" send-keys -t warden "$@"; }

# esc sends Escape alone: a key sent right after it would reach warden as Alt+key.
esc() {
	keys Escape
	sleep 0.3
}

# type_prompt TEXT: type a prompt and send it.
type_prompt() {
	keys -l "$1"
	keys Enter
}

# wait_idle waits until no request is in progress.
# wait_idle waits until no request runs or waits for an answer, twice in a row a moment apart: between an
# answer and the work it lets go on, the screen is briefly neither.
wait_idle() {
	local deadline=$((SECONDS + 20)) calm=0
	while ((calm < 2)); do
		if screen | grep -qE "esc to interrupt|waiting for your answer"; then
			calm=0
		else
			calm=$((calm + 1))
		fi
		if ((SECONDS > deadline)); then
			echo "FAIL: still busy: $(screen)" >&2
			return 1
		fi
		sleep 0.2
	done
}

# wait_for TEXT...: wait until the screen shows every TEXT, or fail with the screen.
wait_for() {
	local deadline=$((SECONDS + 20)) s
	while :; do
		s=$(screen)
		local ok=1
		for want in "$@"; do
			grep -qF -- "$want" <<<"$s" || ok=0
		done
		((ok)) && return 0
		if ((SECONDS > deadline)); then
			echo "FAIL: the screen never showed: $*" >&2
			echo "$s" >&2
			return 1
		fi
		sleep 0.1
	done
}

# requested TEXT: wait until a chat request the fake server received contains TEXT (as JSON writes it).
requested() {
	local deadline=$((SECONDS + 20))
	until grep -qF -- "$1" "$TMP/requests.jsonl" 2>/dev/null; do
		if ((SECONDS > deadline)); then
			echo "FAIL: no request to the server held: $1" >&2
			return 1
		fi
		sleep 0.1
	done
}

# requests counts the chat requests the fake server has received.
requests() { wc -l <"$TMP/requests.jsonl" 2>/dev/null || echo 0; }
