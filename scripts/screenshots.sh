#!/usr/bin/env bash
# screenshots.sh regenerates screenshots/*.png from the real binary: it drives warden in tmux against the
# fake API server, captures the panes with their colours (tmux capture-pane -e) and renders them with
# freeze, built from scripts/freeze (its own module). Needs rsvg-convert (apt-get install librsvg2-bin
# fonts-dejavu-core).
source "$(dirname "$0")/lib.sh"

OUT="$ROOT/screenshots"
mkdir -p "$OUT"
(cd "$ROOT/scripts/freeze" && go build -o "$TMP/freeze" github.com/charmbracelet/freeze)
command -v rsvg-convert >/dev/null || { echo "rsvg-convert is missing: apt-get install librsvg2-bin" >&2; exit 1; }

# shot NAME [CAPTURE-ARGS...]: capture the pane as it is now (or the part capture-pane's extra arguments
# name) and render it to screenshots/NAME.png. SHOTS="markdown scrollback" writes only those (every scene
# still runs, since each leads to the next), so that a change regenerates its own pictures alone.
shot() {
	local name=$1
	shift
	if [[ -n "${SHOTS:-}" && " $SHOTS " != *" $name "* ]]; then return 0; fi
	tmux -L "$SOCK" capture-pane -p -e -t warden "$@" >"$TMP/$name.ansi"
	"$TMP/freeze" "$TMP/$name.ansi" --language ansi --font.family "DejaVu Sans Mono" --line-height 1.0 \
		--window --padding 10,20 --margin 0 --background "#1e1e2e" -o "$OUT/$name.png" >/dev/null
	echo "wrote screenshots/$name.png"
}

build
start_fakeapi
start_warden 100 30

wait_for "Ask Warden"
type_prompt "list files"
wait_for "✓ exit 0" "Nothing else is there."
type_prompt "count"
wait_for "tick 3" "running"
shot conversation

wait_for "Finished:"
wait_idle
type_prompt "make x"
wait_for "Allow bash?" "y allow once"
shot modal
keys a
wait_for "Bash(touch:*)"
shot modal-rule
esc
keys n
wait_for "Finished: The user denied"
wait_idle

type_prompt "danger"
wait_for "DANGEROUS" "y allow once"
shot modal-dangerous
keys n
wait_for "denied by user"
wait_idle

type_prompt "long script"
wait_for "Allow bash?" "lines 1–"
keys PageDown
wait_for "lines 14–"
shot modal-long
keys n
wait_for "denied by user"
wait_idle

type_prompt "fail"
wait_for "That failed as expected."
wait_idle
keys C-t
wait_for "Tool history"
shot history
keys Enter
wait_for "esc back"
esc
esc

keys '?'
wait_for "Keys"
shot help
esc

# A fresh screen for the sub-agent: the task panel lists the child's calls live, then its write asks.
start_warden 100 30
wait_for "Ask Warden"
type_prompt "delegate the search"
wait_for "task · Find the entry point" "↳ read_file" "scanning hello.txt"
shot subagent
wait_for "Allow bash? — sub-agent: Find the entry point" "y allow once"
shot modal-subagent
keys y
wait_for "▸ 5 tool calls" "The sub-agent found it"
wait_idle
shot subagent-done
keys C-t
wait_for "Tool history" "└ read_file"
shot history-subagent
esc

# The workbench: the command menu, @ completion, the todo list, the session picker.
mkdir -p "$WS/src/parser" "$WS/docs"
for f in src/parser/lexer.go src/parser/parser.go src/parser/parser_test.go src/main.go docs/parser.md README.md; do
	printf 'x\n' >"$WS/$f"
done
start_warden 100 30
wait_for "Warden · fake-model"
keys -l "/"
wait_for "tab complete"
shot menu
keys C-u
keys -l "explain @pars"
wait_for "src/parser/parser.go" "tab or enter take"
shot mention
keys C-u
type_prompt "plan the release"
wait_for "Todo · 1 of 4 done" "◐ Bumping the version"
wait_idle
shot todo
keys C-c
keys C-c
wait_exit
WARDEN_ARGS=--resume start_warden 100 30
wait_for "Resume a session" "plan the release"
shot picker
esc

# Checkpoints: what a call changed, in its panel and in the history with the diff, and /rewind.
start_warden 100 30
wait_for "Ask Warden"
type_prompt "split the greeting"
wait_for "Allow bash?" "y allow once"
keys y
wait_for "Done:"
wait_idle
keys C-o
wait_for "D hello.txt (+0 −1)"
shot changes
keys C-o
type_prompt "add a test"
wait_for "Allow write_file?" "y allow once"
keys y
wait_for "Added"
wait_idle
keys C-t
wait_for "Tool history" "CHANGES" "3 files +11 −1"
keys Up
wait_for "d diff"
shot history-changes
keys d
wait_for "what the call changed" "── M main.go"
shot history-diff
esc
esc
type_prompt "/rewind"
wait_for "Rewind to" "turn 2" "turn 1"
keys Down Down
wait_for "enter choose what goes back"
shot rewind
keys Down
keys Enter
wait_for "b both · f files · c conversation"
keys b
wait_for "Restore files?" "y restore 4 paths"
shot rewind-restore
keys n
wait_for "nothing restored"

# Trust: the person approved the workspace's one allow rule; a pull then brought another rule, a server
# and a hook, and the next start asks about those three alone.
mkdir -p "$WS/.warden"
printf '{"permissions": {"allow": ["Bash(go test:*)"]}}\n' >"$WS/.warden/settings.json"
(cd "$WS" && env XDG_CONFIG_HOME="$TMP/config" XDG_STATE_HOME="$TMP/state" "$TMP/warden" trust --yes >/dev/null)
cat >"$WS/.warden/settings.json" <<'JSON'
{"permissions": {"allow": ["Bash(go test:*)", "Bash(curl:*)"]},
 "hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./scripts/fmt.sh"}]}]}}
JSON
printf '{"mcpServers": {"issues": {"command": "npx", "args": ["-y", "@acme/issues-mcp"], "env": {"TOKEN": "${ISSUES_TOKEN}"}}}}\n' >"$WS/.mcp.json"
start_warden 100 30
wait_for "Trust this workspace?" "y approve"
shot trust
keys n
rm -rf "$WS/.warden" "$WS/.mcp.json"

# A picture attached with @: read for the model, sent as an image part, and the model's answer to it.
start_warden 100 30
cp "$ROOT/scripts/testdata/shot.png" "$WS/shot.png"
wait_for "Ask Warden"
type_prompt "@shot.png why does the sign-in page look broken?"
wait_for "Attached shot.png for the model to see" "fixed widths"
wait_idle
requested '"type":"image_url"'
shot picture

# Plan mode: the plan the model presents, to approve or send back.
WARDEN_ARGS="--permission-mode plan" start_warden 100 30
wait_for "Ask Warden"
type_prompt "rename the flag"
wait_for "Plan · the model asks to go ahead" "y approve, ask before edits"
shot plan
keys a
wait_for "Plan answered"
wait_idle

# Typing while it works: a queued message and a steer wait above the prompt.
start_warden 100 30
wait_for "Ask Warden"
type_prompt "tidy the module"
wait_for "Tidy the module" "running"
type_prompt "then say hi"
keys -l "use printf for the output"
keys C-s
wait_for "▸ queued then say hi" "↳ steer  use printf for the output"
shot queue
touch "$WS/release"
wait_for "Hi from the queue."

# An answer in Markdown: headings, emphasis, a link, lists and tasks, a quote, a table and a code block.
start_warden 100 44
wait_for "Ask Warden"
type_prompt "show markdown"
wait_for "That is all."
wait_idle
shot markdown
# After quitting, the conversation is on the terminal's normal screen, where scrolling up shows it.
keys C-c
keys C-c
wait_exit
shot scrollback -E 41 # without tmux's note that the pane is dead
