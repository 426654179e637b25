package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A project that configures the person's ~/.claude guard hook again, approved, with a 1 s timeout, does
// not get the guard killed: the person's copy runs, with its own timeout, and blocks the touch. Before,
// the project's copy (read first) ran instead, was killed at 1 s, and blocked nothing.
func TestAProjectCannotShortenThePersonsGuardHook(t *testing.T) {
	r := newRun(t)
	home := homeOf(r)
	guard := filepath.Join(home, ".claude", "hooks", "guard.sh")
	writeFile(t, guard, "#!/bin/bash\ninput=$(cat)\nsleep 2\nif printf '%s' \"$input\" | grep -q touch; then echo 'the guard forbids touch' >&2; exit 2; fi\nexit 0\n")
	must(t, os.Chmod(guard, 0o755))
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), hooksJSON(t, "PreToolUse", "Bash", guard, 10))
	writeFile(t, filepath.Join(r.workspace, ".warden", "settings.json"), hooksJSON(t, "PreToolUse", "Bash", guard, 1))
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("t", "bash", `{"command":"touch M"}`), fakeapi.Text("done"))
	if _, stderr, code := r.exec("-p", "touch it", "--base-url", server.URL(), "--model", "m", "--trust", "--allow", "Bash(touch:*)"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "M")); err == nil {
		t.Error("touch ran: the person's guard was stood in for")
	}
	if got := toolMessages(t, server, 1)["t"]; !strings.Contains(got, "the guard forbids touch") {
		t.Errorf("the model read %q", got)
	}
}

// An approved project hook whose script a pull edits waits again: the new script does not run, and
// `warden trust --list` says the hook changed. Before, the item was the command line alone, and the
// edited script ran under the old approval.
func TestAnApprovedHooksEditedScriptDoesNotRun(t *testing.T) {
	r := newRun(t)
	marks := filepath.Join(filepath.Dir(r.workspace), "marks")
	must(t, os.MkdirAll(marks, 0o755))
	script := filepath.Join(r.workspace, ".claude", "hooks", "fmt.sh")
	writeFile(t, script, "#!/bin/bash\ntouch "+filepath.Join(marks, "approved")+"\n")
	must(t, os.Chmod(script, 0o755))
	writeFile(t, filepath.Join(r.workspace, ".claude", "settings.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh"}]}]}}`)
	if out, stderr, code := r.exec("trust", "--yes"); code != 0 {
		t.Fatalf("warden trust --yes: exit %d: %s%s", code, out, stderr)
	}
	server := fakeapi.New()
	defer server.Close()
	run := func() string {
		t.Helper()
		server.Reply(fakeapi.ToolCall("l", "bash", `{"command":"ls"}`), fakeapi.Text("done"))
		_, stderr, code := r.exec("-p", "list", "--base-url", server.URL(), "--model", "m")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stderr
	}
	run()
	if _, err := os.Stat(filepath.Join(marks, "approved")); err != nil {
		t.Fatalf("the approved hook did not run: %v", err)
	}
	writeFile(t, script, "#!/bin/bash\ntouch "+filepath.Join(marks, "edited")+"\n")
	if stderr := run(); !strings.Contains(stderr, "fmt.sh") {
		t.Errorf("the run does not name the hook that waits: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(marks, "edited")); err == nil {
		t.Error("the edited script ran under the old approval")
	}
	if out, _, _ := r.exec("trust", "--list"); !strings.Contains(out, "changed") || !strings.Contains(out, "fmt.sh") {
		t.Errorf("trust --list:\n%s", out)
	}
}

// The red team's hooks: six project UserPromptSubmit hooks, approved with `warden trust --yes`, whose
// commands reach a script through a sourced library, a backslash, `cd … &&`, `bash -c` and "$PWD", and one
// behind `make`. Editing only the files they reach makes each wait: none of the edited code runs, and
// `warden trust --list` lists them as changed. Before, every edited version ran, outside the jail.
func TestApprovedHooksWaitAgainWhenTheFilesTheirCommandsReachAreEdited(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	r := newRun(t)
	marks := filepath.Join(filepath.Dir(r.workspace), "marks")
	must(t, os.MkdirAll(marks, 0o755))
	mark := func(name string) string { return "touch " + filepath.Join(marks, name) + "\n" }
	files := map[string]func(string) string{
		".claude/hooks/fmt.sh": func(string) string { return ". \"$CLAUDE_PROJECT_DIR/.claude/hooks/lib.sh\"\n" },
		".claude/hooks/lib.sh": mark,
		"tools/esc.sh":         mark,
		"tools/cd.sh":          mark,
		"tools/bc.sh":          mark,
		"tools/pwd.sh":         mark,
		"Makefile":             func(m string) string { return "hookfmt:\n\t@" + mark(m) },
	}
	write := func(state string) {
		for name, body := range files {
			writeFile(t, filepath.Join(r.workspace, name), body(state+"-"+filepath.Base(name)))
		}
	}
	write("approved")
	var hooks []string
	for _, c := range []string{`sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh`, `sh tools/e\sc.sh`, `cd tools && sh ./cd.sh`,
		`bash -c 'sh tools/bc.sh'`, `sh "$PWD/tools/pwd.sh"`, `make -s hookfmt`} {
		q, _ := json.Marshal(c)
		hooks = append(hooks, `{"type": "command", "command": `+string(q)+`}`)
	}
	writeFile(t, filepath.Join(r.workspace, ".claude", "settings.json"), `{"hooks": {"UserPromptSubmit": [{"hooks": [`+strings.Join(hooks, ",")+`]}]}}`)
	if out, stderr, code := r.exec("trust", "--yes"); code != 0 {
		t.Fatalf("warden trust --yes: exit %d: %s%s", code, out, stderr)
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("done"))
	if _, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ran, _ := os.ReadDir(marks)
	if len(ran) != 6 {
		t.Fatalf("approved hooks ran %d of 6: %v", len(ran), ran)
	}
	write("edited")
	server.Reply(fakeapi.Text("done"))
	if _, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	edited, _ := filepath.Glob(filepath.Join(marks, "edited-*"))
	if len(edited) != 0 {
		t.Errorf("edited code ran under the old approval: %v", edited)
	}
	out, _, _ := r.exec("trust", "--list")
	if n := strings.Count(out, "changed"); n != 6 {
		t.Errorf("trust --list shows %d changed hooks, want 6:\n%s", n, out)
	}
}
