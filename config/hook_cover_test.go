package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// put writes content at the workspace path rel, making its folders.
func (f *fixture) put(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(f.ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, p, content)
}

// projectHook writes .warden/settings.json with one UserPromptSubmit hook of command.
func (f *fixture) projectHook(t *testing.T, command string) {
	t.Helper()
	c, _ := json.Marshal(command)
	f.put(t, ".warden/settings.json", `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": `+string(c)+`}]}]}}`)
}

// An approved hook's item covers the code its command reaches as the shell reads it: a script sourced
// beside the named one, a name with a backslash, a script run after `cd DIR &&`, the body of `bash -c`,
// "$PWD/…" and ${CLAUDE_PROJECT_DIR:-.}, a library in a folder below the named script's, and the Makefile
// and package.json behind `make` and `npm run`. Editing only that file makes the item wait again. Before,
// each edited file ran under the old approval (the red team's break 2): the item hashed only the words
// the command named with no `$` left in them, split by hand.
func TestAnApprovedHookWaitsAgainWhenTheCodeItsCommandReachesChanges(t *testing.T) {
	for _, c := range []struct{ command, edited string }{
		{`sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh`, ".claude/hooks/lib.sh"},
		{`sh e\sc.sh`, "esc.sh"},
		{`cd tools && sh ./cd.sh`, "tools/cd.sh"},
		{`cd tools && sh ./cd.sh`, "tools/lib.sh"},
		{`bash -c 'sh bc.sh'`, "bc.sh"},
		{`sh -ec "cd tools; . ./cd.sh"`, "tools/cd.sh"},
		{`sh "$PWD/pwd.sh"`, "pwd.sh"},
		{`sh ${CLAUDE_PROJECT_DIR:-.}/x.sh`, "x.sh"},
		{`python3 scripts/hooks/run.py`, "scripts/hooks/lib/common.py"},
		{`make -s hookfmt`, "Makefile"},
		{`make -s -C tools hookfmt`, "tools/rules.mk"},
		{`npm run -s lint`, "package.json"},
		{`just lint`, "justfile"},
		{`echo x | sh .warden/hooks/any.sh`, ".warden/hooks/other.sh"},
		{`timeout 5 bash -c 'sh bc.sh'`, "bc.sh"},
		{`env FOO=1 make -s hookfmt`, "Makefile"},
		{"bash <<'EOF'\nsh bc.sh\nEOF", "bc.sh"},
		{`cd -P tools && sh ./cd.sh`, "tools/cd.sh"},
		{`cd "$CLAUDE_PROJECT_DIR/tools"; sh cd.sh`, "tools/cd.sh"},
	} {
		f := newFixture(t)
		for _, file := range []string{".claude/hooks/fmt.sh", ".claude/hooks/lib.sh", "esc.sh", "tools/cd.sh", "tools/lib.sh", "bc.sh", "pwd.sh", "x.sh",
			"scripts/hooks/run.py", "scripts/hooks/lib/common.py", "Makefile", "tools/Makefile", "tools/rules.mk", "package.json", "justfile",
			".warden/hooks/any.sh", ".warden/hooks/other.sh"} {
			f.put(t, file, "echo fine\n")
		}
		f.projectHook(t, c.command)
		f.approveAll(t)
		if cfg := f.mustLoad(t); len(cfg.Hooks) != 1 {
			t.Fatalf("%s: the approved hook does not apply: waiting %q", c.command, cfg.Untrusted)
		}
		f.put(t, c.edited, "echo fine; touch PWNED\n")
		if cfg := f.mustLoad(t); len(cfg.Hooks) != 0 || len(cfg.Waiting()) != 1 || cfg.Waiting()[0].State != TrustChanged {
			t.Errorf("%s: after %s changed the hook still applies (waiting %q)", c.command, c.edited, cfg.Untrusted)
		}
	}
}

// A hook's item says what approving it cannot cover: a command that does not parse, a name Warden cannot
// tell before it runs, a path outside the workspace, a file it does not read, a folder too large. Before,
// nothing was said, and the person could not know what the approval left open.
func TestAHooksItemSaysWhatItsApprovalDoesNotCover(t *testing.T) {
	f := newFixture(t)
	f.fillFolder(t, "big", maxCoverFolderFiles+1)
	f.put(t, "big/run.sh", "echo\n")
	f.put(t, "lint.py", "print()\n")
	if err := syscall.Mkfifo(filepath.Join(f.ws, "pipe.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	for command, want := range map[string]string{
		`sh -c 'unterminated`:                      "a command Warden cannot parse",
		`sh "$HOME/x.sh"`:                          "`\"$HOME/x.sh\"`, a name Warden cannot tell before the command runs",
		`sh $(git rev-parse --show-toplevel)/x.sh`: "a name Warden cannot tell before the command runs",
		`python3 /opt/tools/lint.py`:               "/opt/tools/lint.py, outside the workspace",
		`sh ../elsewhere/x.sh`:                     "../elsewhere/x.sh, outside the workspace",
		`sh ~/hooks/x.sh`:                          "~/hooks/x.sh, outside the workspace",
		`sh pipe.sh`:                               "pipe.sh, which Warden does not read",
		`sh big/run.sh`:                            "the files of big, which holds more than 1000",
		`cd "$(mktemp -d)" && sh ./x.sh`:           "./x.sh, in a folder Warden cannot tell",
		`python3 lint.py`:                          "files beside lint.py in the workspace's top folder",
	} {
		f.projectHook(t, command)
		waiting := f.mustLoad(t).Waiting()
		if len(waiting) != 1 || !strings.Contains(waiting[0].Text, "; approving it does not cover ") || !strings.Contains(waiting[0].Text, want) {
			t.Errorf("%s: the item does not say %q: %q", command, want, waiting)
		}
	}
	f.put(t, ".claude/hooks/fmt.sh", "echo\n")
	f.projectHook(t, `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/fmt.sh"`)
	if waiting := f.mustLoad(t).Waiting(); len(waiting) != 1 || strings.Contains(waiting[0].Text, "does not cover") {
		t.Errorf("a hook whose script is covered says it is not: %q", waiting)
	}
}

// A hook that runs an interpreter, a toolchain, a task runner or a linter runs what it loads from the
// workspace as well as the files it names (python -m's module, node .'s main, go run's imports, make's
// includes, a linter's configuration), and a variable such as NODE_OPTIONS names code to load: the item
// says so, since its approval cannot cover them. Before, such items said nothing, and an edit of the code
// they load ran under the old approval.
func TestAHooksItemSaysItDoesNotCoverWhatItsProgramsLoad(t *testing.T) {
	f := newFixture(t)
	for command, want := range map[string]string{
		`python3 -m tools.fmt`:                      "what `python3` loads from the workspace",
		`python3.12 tools/fmt.py`:                   "what `python3.12` loads from the workspace",
		`NODE_OPTIONS='--require ./evil.js' node x`: "`NODE_OPTIONS`, which names code",
		`go run ./cmd/hook`:                         "what `go` loads from the workspace",
		`node .`:                                    "what `node` loads from the workspace",
		`make -s lint`:                              "what `make` loads from the workspace",
		`npx eslint .`:                              "what `npx` loads from the workspace",
		`timeout 20 pytest -q`:                      "what `pytest` loads from the workspace",
	} {
		f.projectHook(t, command)
		waiting := f.mustLoad(t).Waiting()
		if len(waiting) != 1 || !strings.Contains(waiting[0].Text, "; approving it does not cover ") || !strings.Contains(waiting[0].Text, want) {
			t.Errorf("%s: the item does not say %q: %q", command, want, waiting)
		}
	}
	f.put(t, ".claude/hooks/fmt.sh", "echo\n")
	f.projectHook(t, `sh .claude/hooks/fmt.sh`)
	if waiting := f.mustLoad(t).Waiting(); len(waiting) != 1 || strings.Contains(waiting[0].Text, "does not cover") {
		t.Errorf("a hook of a shell script it covers says it does not: %q", waiting)
	}
}
