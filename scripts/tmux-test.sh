#!/usr/bin/env bash
# tmux-test.sh runs the real warden binary against the fake API server in tmux and checks what a person
# would see and what happens on disk: read-only commands run unasked, the modal's y/n/a keys are obeyed,
# output streams while a command runs, Esc interrupts, a sub-agent's calls show inside its task's panel and
# its write asks in a modal that names it, Ctrl+T lists the calls, Ctrl+C twice quits and leaves the
# terminal clean, and --continue shows the earlier conversation.
source "$(dirname "$0")/lib.sh"

pass() { echo "ok   $*"; }

build
start_fakeapi
start_warden 100 32

wait_for "Ask Warden" "fake-model" "default"
pass "starts full-screen with the status line"

type_prompt "list files"
wait_for "✓ exit 0" "Nothing else is there."
if screen | grep -qF "Allow bash?"; then echo "FAIL: ls asked" >&2; exit 1; fi
pass "read-only ls runs without a modal"

type_prompt "make x"
wait_for "Allow bash?" "touch x" "y allow once"
keys n
wait_for "denied by user" "Finished: The user denied"
[[ ! -e "$WS/x" ]] || { echo "FAIL: x exists after n" >&2; exit 1; }
pass "n denies: no file, the model is told"

type_prompt "make x"
wait_for "Allow bash?" "y allow once"
keys y
wait_for "Finished:"
for _ in $(seq 50); do [[ -e "$WS/x" ]] && break; sleep 0.1; done
[[ -e "$WS/x" ]] || { echo "FAIL: x missing after y" >&2; exit 1; }
pass "y allows: x exists"

type_prompt "make z"
wait_for "Allow bash?" "y allow once"
keys a
wait_for "Bash(touch:*)" "for this session"
keys Enter
for _ in $(seq 100); do [[ -e "$WS/z" ]] && break; sleep 0.1; done
[[ -e "$WS/z" ]] || { echo "FAIL: z missing after a" >&2; exit 1; }
type_prompt "make w"
for _ in $(seq 100); do [[ -e "$WS/w" ]] && break; sleep 0.1; done
[[ -e "$WS/w" ]] || { echo "FAIL: w missing: $(screen)" >&2; exit 1; }
if screen | grep -qF "Allow bash?"; then echo "FAIL: touch w asked after a" >&2; exit 1; fi
pass "a saves the shown rule; the next touch runs unasked"

type_prompt "count"
wait_for "tick 2" "running"
if screen | grep -qF "tick 12"; then echo "FAIL: output arrived all at once" >&2; exit 1; fi
wait_for "tick 12" "✓ exit 0"
pass "output streams while the command runs"

type_prompt "progress"
wait_for "step 0"
for _ in $(seq 100); do screen | grep -qE "step (0[5-9]|1[0-9])/20" && break; sleep 0.05; done
screen | grep -qE "step (0[5-9]|1[0-9])/20" || { echo "FAIL: the progress bar did not move: $(screen)" >&2; exit 1; }
wait_for "finished" "Progress done."
[[ $(screen | grep -c "step [0-9]*/20") == 1 ]] || { echo "FAIL: the progress bar left more than its last frame: $(screen)" >&2; exit 1; }
pass "a progress bar redraws one line in place"

type_prompt "wait"
wait_for "sleep 30" "running"
esc
wait_for "⏹ interrupted"
pass "Esc interrupts the running command"

type_prompt "long script"
wait_for "Allow bash?" "step 01" "lines 1–" "of 42"
if screen | sed -n '/Allow bash?/,$p' | grep -qF "LAST-LINE-OF-SCRIPT"; then echo "FAIL: the whole script fit: $(screen)" >&2; exit 1; fi
keys End
wait_for "LAST-LINE-OF-SCRIPT" "–42 of 42"
keys n
wait_for "denied by user"
[[ ! -e "$WS/build.log" ]] || { echo "FAIL: build.log exists after n" >&2; exit 1; }
pass "a command longer than the modal scrolls to its last line before the answer"

type_prompt "delegate the search"
wait_for "task · Find the entry point" "↳ grep" "↳ bash \$ ls" "↳ read_file" "scanning"
pass "a sub-agent's calls show live inside the task panel"
wait_for "Allow bash? — sub-agent: Find the entry point" "notes.txt" "y allow once"
keys y
wait_for "▸ 5 tool calls" "The sub-agent found it"
for _ in $(seq 50); do [[ -e "$WS/notes.txt" ]] && break; sleep 0.1; done
[[ -e "$WS/notes.txt" ]] || { echo "FAIL: notes.txt missing after y" >&2; exit 1; }
if screen | grep -qF "Looking for the main package"; then echo "FAIL: the sub-agent's text reached the transcript: $(screen)" >&2; exit 1; fi
if screen | grep -qF "↳ grep"; then echo "FAIL: the finished task did not fold its calls: $(screen)" >&2; exit 1; fi
pass "the sub-agent's write asks in a modal naming it; the finished task folds to a summary"
wait_idle

keys C-t
wait_for "Tool history" "deny · user" "allow · user" "allow · rule" "allow · readonly" "└ grep" "└ read_file"
pass "Ctrl+T lists every call with its decision, a sub-agent's indented under its task"
esc
wait_for "Ask Warden"

keys C-c
wait_for "Press Ctrl+C again"
keys C-c
wait_exit
[[ -n "$EXIT" ]] || { echo "FAIL: still running after Ctrl+C twice" >&2; exit 1; }
[[ "$EXIT" == 0 ]] || { echo "FAIL: exit status $EXIT" >&2; exit 1; }
alt=$(tmux -L "$SOCK" display-message -p -t warden '#{alternate_on}')
[[ "$alt" == 0 ]] || { echo "FAIL: left the alternate screen on" >&2; exit 1; }
pass "Ctrl+C twice quits with status 0 and leaves the terminal clean"

WARDEN_ARGS=--continue start_warden 100 32
wait_for "resumed session" "The sub-agent found it" "task · Find the entry point" "▸ 5 tool calls"
keys C-t
wait_for "└ read_file" "allow · readonly"
esc
pass "--continue shows the earlier conversation and its calls"
keys C-c
keys C-c
echo "PASS"
