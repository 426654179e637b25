#!/usr/bin/env bash
# tmux-test.sh runs the real warden binary against the fake API server in tmux and checks what a person
# would see and what happens on disk: read-only commands run unasked, the modal's y/n/a keys are obeyed,
# output streams while a command runs, Esc interrupts, a sub-agent's calls show inside its task's panel and
# its write asks in a modal that names it, Ctrl+T lists the calls, the mouse wheel scrolls, Ctrl+C twice
# quits and leaves the terminal clean with the conversation in its scrollback, --continue shows the earlier
# conversation, plan mode's plan is approved or sent back, messages typed while the agent works are queued,
# edited, dropped or steered in, and the prompt's habits (backslash+Enter, paste chips, Ctrl+C on a draft,
# did-you-mean) and the printed resume hint work.
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

# The mouse: Warden asks for button events in SGR encoding, and the wheel scrolls the conversation (the
# wheel is sent as the terminal would send it, an SGR report: button 64 up, 65 down).
[[ $(tmux -L "$SOCK" display-message -p -t warden '#{mouse_button_flag}#{mouse_sgr_flag}') == 11 ]] ||
	{ echo "FAIL: mouse reporting is not on: $(tmux -L "$SOCK" display-message -p -t warden '#{mouse_button_flag} #{mouse_sgr_flag}')" >&2; exit 1; }
for _ in 1 2 3 4 5 6; do keys -l $'\e[<64;20;5M'; done
# Three lines a notch (18) on a quiet machine; a busy one may hand the program a report split, so any
# scrolling up counts here (ui's TestTheWheelScrollsTheConversation checks the three lines).
wait_for "lines below" "❯ list files"
for _ in 1 2 3 4 5 6; do keys -l $'\e[<65;20;5M'; done
for _ in $(seq 50); do screen | grep -qF "lines below" || break; sleep 0.1; done
if screen | grep -qF "lines below"; then echo "FAIL: the wheel did not scroll back down: $(screen)" >&2; exit 1; fi
pass "the mouse wheel scrolls the conversation up and back"

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
# What the terminal keeps: the pane's history, as scrolling up shows it.
history=$(tmux -L "$SOCK" capture-pane -p -J -S - -t warden)
for want in "❯ list files" "Nothing else is there." "❯ make x" "denied by user" "The sub-agent found it"; do
	grep -qF -- "$want" <<<"$history" || { echo "FAIL: after quitting the scrollback lacks \"$want\":" >&2; echo "$history" >&2; exit 1; }
done
pass "after quitting, scrolling up in the terminal shows the conversation"

WARDEN_ARGS=--continue start_warden 100 32
wait_for "resumed session" "The sub-agent found it" "task · Find the entry point" "▸ 5 tool calls"
keys C-t
wait_for "└ read_file" "allow · readonly"
esc
pass "--continue shows the earlier conversation and its calls"
# What warden prints as it ends, read from the pane's output: a dead pane's screen is not kept.
tmux -L "$SOCK" pipe-pane -t warden -o "cat >'$TMP/pane.out'"; sleep 0.3
keys C-c
keys C-c
wait_exit
for _ in $(seq 50); do grep -qE "Session [0-9a-f-]+ saved. Resume it with: warden --resume [0-9a-f-]+" "$TMP/pane.out" && break; sleep 0.1; done
grep -qE "Session [0-9a-f-]+ saved. Resume it with: warden --resume [0-9a-f-]+" "$TMP/pane.out" || { echo "FAIL: no word on how to resume: $(od -c "$TMP/pane.out" | tail -5)" >&2; exit 1; }
pass "on quit Warden says how to resume the session"

# The workbench: commands, completion, shell mode, the todo list, background tasks, pickers.
mkdir -p "$TMP/config/warden/commands"
printf -- '---\ndescription: Review with care\nargument-hint: [what]\n---\nReview $ARGUMENTS with care.\n' >"$TMP/config/warden/commands/review.md"
start_warden 100 32
wait_for "Warden · fake-model" "/ commands · @file"
pass "a new session opens with a header: model and server, mode, sandbox, workspace, tips"

keys -l "/"
wait_for "/compact [focus]" "/help" "matches · ↑↓ choose" "tab complete"
keys -l "rev"
wait_for "/review [what]" "Review with care (user)"
pass "/ opens the command menu, custom commands with their source"
keys Tab
wait_for "❯ /review"
keys -l "the parser"
keys Enter
wait_for "❯ /review the parser" "Reviewing as asked"
requested 'Review the parser with care.'
pass "a custom command is expanded in the request the server receives"

before=$(requests)
type_prompt "/frobnicate this"
wait_for "Unknown command /frobnicate"
[[ $(requests) == "$before" ]] || { echo "FAIL: an unknown command reached the server" >&2; exit 1; }
keys C-u
pass "an unknown /word says so and sends nothing"

keys -l "explain @hel"
wait_for "hello.txt" "tab or enter take"
keys Tab
wait_for "❯ explain @hello.txt"
keys C-u
pass "@ completes the workspace's files"

type_prompt "!echo from-the-shell"
wait_for "$ echo from-the-shell" "✓ exit 0" "typed by you"
type_prompt "what did the shell say"
requested 'from-the-shell'
wait_idle
pass "!cmd runs without asking and its output reaches the model with the next prompt"

type_prompt "plan the release"
wait_for "Todo · 0 of 4 done" "◐ Reading the changelog" "☐ Tag the release"
wait_for "Todo · 1 of 4 done" "☑ Read the changelog" "◐ Bumping the version"
wait_idle
pass "the todo list is pinned above the prompt and follows the model's updates"

type_prompt "start the job"
wait_for "It runs in the background."
wait_for "background task b1 exited with status 3" "job-finished"
pass "a background task that ends says so, with its last lines"

type_prompt "/model"
wait_for "Models on" "● fake-model"
esc
type_prompt "/status"
wait_for "Status" "Session " "Context " "Sandbox "
esc
pass "/model and /status open their screens"
keys C-c
keys C-c
wait_exit

WARDEN_ARGS=--resume start_warden 100 32
wait_for "Resume a session" "Review the parser with care." "list files"
keys Enter
wait_for "resumed session" "Todo · 1 of 4 done"
pass "--resume without an id opens the picker; the todo list comes back with the session"
keys C-c
keys C-c
wait_exit

WARDEN_ARGS="'list files'" start_warden 100 32
wait_for "❯ list files" "Nothing else is there."
pass 'warden "PROMPT" opens with the prompt sent'
keys C-c
keys C-c
wait_exit

# Both turned off: the scrollback stays as it was, and the mouse is left to the terminal.
printf '{"ui": {"transcript_on_exit": false, "mouse": false}}\n' >"$TMP/config/warden/settings.json"
WARDEN_ARGS="'list files'" start_warden 100 32
wait_for "❯ list files" "Nothing else is there."
[[ $(tmux -L "$SOCK" display-message -p -t warden '#{mouse_button_flag}#{mouse_any_flag}') == 00 ]] ||
	{ echo "FAIL: ui.mouse false still took the mouse" >&2; exit 1; }
keys C-c
keys C-c
wait_exit
if tmux -L "$SOCK" capture-pane -p -J -S - -t warden | grep -qF "Nothing else is there."; then
	echo "FAIL: ui.transcript_on_exit false still printed the conversation" >&2
	exit 1
fi
rm "$TMP/config/warden/settings.json"
pass "ui.transcript_on_exit and ui.mouse set to false leave the scrollback and the mouse to the terminal"

# Checkpoints: a call's changes in its panel and the history, /undo putting the files back, the person's
# own edit set apart.
start_warden 100 32
wait_for "Ask Warden"
type_prompt "split the greeting"
wait_for "Allow bash?" "y allow once"
keys y
wait_for "± changed 3 files (+11 −1)" "Done:"
wait_idle
echo "by hand" >>"$WS/greet.go"
type_prompt "add a test"
wait_for "Allow write_file?" "y allow once"
keys y
wait_for "changed outside Warden since the last call: greet.go" "± changed 1 file (+7 −0)"
wait_idle
keys C-t
wait_for "CHANGES" "3 files +11 −1" "1 file +7 −0"
keys d
wait_for "── A greet_test.go (+7 −0)" "+func TestGreet"
esc
esc
pass "a call's panel and the history say what it changed, with the diff; an edit by hand is set apart"
type_prompt "/undo"
wait_for "Restore files?" "remove greet_test.go" "y restore 1 path"
keys y
wait_for "restored 1 path"
[[ ! -e "$WS/greet_test.go" && -e "$WS/greet.go" ]] || { echo "FAIL: /undo left greet_test.go or took greet.go" >&2; exit 1; }
type_prompt "/undo"
wait_for "Restore files?" "recreate hello.txt" "restore main.go" "Changed outside Warden since" "remove greet.go" "y restore 2 paths"
keys y
wait_for "y also restore the 1 path changed outside Warden"
keys n
wait_for "restored 2 paths"
grep -q "by hand" "$WS/greet.go" || { echo "FAIL: the edit by hand was overwritten" >&2; exit 1; }
[[ -e "$WS/hello.txt" ]] || { echo "FAIL: hello.txt was not recreated" >&2; exit 1; }
pass "/undo restores a request's files and asks apart for one edited by hand"
keys C-c
keys C-c
# Plan mode as a workflow: entered mid-session, the model is told at its next turn; the plan opens to be
# approved; keeping planning hands the model the reason; approving leaves plan mode.
start_warden 100 32
wait_for "Ask Warden"
keys BTab
keys BTab
wait_for "Permission mode: plan"
type_prompt "rename the flag"
wait_for "Plan · the model asks to go ahead" "hidden alias" "y approve, ask before edits"
requested 'Plan mode is on. The user wants to see and approve a plan'
requested '"name":"exit_plan_mode"'
keys n
wait_for "Keep planning: tell the model what to change"
keys -l "also the README"
keys Enter
requested 'said: \"also the README\". Plan mode stays on'
wait_for "Plan answered: The user did not approve the plan"
wait_idle
screen | grep -qF "· plan ·" || { echo "FAIL: keeping planning left plan mode: $(screen)" >&2; exit 1; }
type_prompt "rename the flag"
wait_for "Plan · the model asks to go ahead" "a approve, accept edits"
keys a
wait_for "Plan answered: The user approved the plan" "· accept-edits ·"
wait_idle
pass "plan mode: the model is told; the plan opens; n keeps planning with the reason; a approves into accept-edits"

# Typing while it works: queued messages wait in sight, the newest can be dropped or taken back to edit,
# and ctrl+s steers: the model reads it with the running call's result, at the tool boundary.
type_prompt "tidy the module"
wait_for "Tidy the module" "running"
type_prompt "then say hi"
wait_for "▸ queued then say hi" "↑ edit · ctrl+x remove"
type_prompt "oops, not this"
wait_for "▸ queued oops, not this"
keys C-x
wait_for "Removed: oops, not this"
keys Up
wait_for "❯ then say hi"
screen | grep -qF "▸ queued then say hi" && { echo "FAIL: ↑ left the message in the queue: $(screen)" >&2; exit 1; }
keys Enter
wait_for "▸ queued then say hi"
keys -l "use printf for the output"
keys C-s
wait_for "↳ steer  use printf for the output"
before=$(requests)
touch "$WS/release"
wait_for "↳ steer: use printf for the output" "Steered: use printf for the output" "Hi from the queue."
wait_idle
python3 - "$TMP/requests.jsonl" "$before" <<'PY' || exit 1
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
steered = reqs[int(sys.argv[2])]["messages"]
last, prev = steered[-1], steered[-2]
if last["role"] != "user" or last["content"] != "use printf for the output" or prev["role"] != "tool" or "tidied" not in prev["content"]:
    sys.exit("FAIL: the request after the call ended with %r after %r" % (last, prev))
if any("oops" in str(m.get("content")) for r in reqs for m in r["messages"]):
    sys.exit("FAIL: a dropped message reached the model")
PY
pass "queued messages show, ctrl+x drops and ↑ edits the newest; ctrl+s steers at the tool boundary"

# The prompt's habits: backslash+Enter continues the line, a long paste is a chip sent whole, an unknown
# /word gets a suggestion, Ctrl+C clears a draft and the second quits; the resume hint then works as
# printed, without the --base-url the session started with.
keys -l 'first line\'
keys Enter
wait_for "❯ first line"
keys -l "say hi"
keys Enter
requested '"first line\nsay hi"'
wait_for "Hi from the queue."
wait_idle
seq -f "paste line %g" 60 >"$TMP/paste.txt"
tmux -L "$SOCK" load-buffer "$TMP/paste.txt"
tmux -L "$SOCK" paste-buffer -p -t warden
wait_for "❯ [pasted 60 lines]"
keys -l " then say hi"
keys Enter
requested 'paste line 1\npaste line 2\n'
requested 'paste line 60\n then say hi'
wait_idle
pass "backslash+Enter continues the line; a 60-line paste is a chip and reaches the model whole"
type_prompt "/stauts"
wait_for "Unknown command /stauts (did you mean /status?)"
keys C-u
pass "an unknown /word suggests the command meant"
keys -l "half a thought"
keys C-c
wait_for "Prompt cleared (↑ brings it back); Ctrl+C again quits"
screen | grep -qF "❯ half a thought" && { echo "FAIL: Ctrl+C left the draft: $(screen)" >&2; exit 1; }
keys Up
wait_for "❯ half a thought"
# What warden prints as it ends, read from the pane's output: a dead pane's screen is not kept.
tmux -L "$SOCK" pipe-pane -t warden -o "cat >'$TMP/pane2.out'"
keys C-c
wait_exit
[[ "$EXIT" == 0 ]] || { echo "FAIL: the second Ctrl+C did not quit cleanly (exit '$EXIT')" >&2; exit 1; }
for _ in $(seq 50); do grep -qE "warden --resume [0-9a-f-]+" "$TMP/pane2.out" && break; sleep 0.1; done
hint=$(grep -oE "warden --resume [0-9a-f-]+" "$TMP/pane2.out" | head -n1 || true)
[[ -n "$hint" ]] || { echo "FAIL: no resume hint: $(od -c "$TMP/pane2.out" | tail -5)" >&2; exit 1; }
out=$(cd "$WS" && env -u OPENAI_API_KEY -u OPENAI_BASE_URL XDG_CONFIG_HOME="$TMP/config" XDG_STATE_HOME="$TMP/state" \
	"$TMP/${hint%% *}" ${hint#warden } -p "say hi" 2>&1) || { echo "FAIL: $hint -p failed: $out" >&2; exit 1; }
[[ "$out" == "Hi from the queue." ]] || { echo "FAIL: $hint -p answered: $out" >&2; exit 1; }
pass "Ctrl+C clears a draft (↑ brings it back), the second quits; the printed resume hint reaches the session's server"
echo "PASS"
