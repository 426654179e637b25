package e2e

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// fingerprint is every file below dir with its mode and content hash.
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %s", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A headless run changes a git repository's files with real commands; warden undo puts them back byte
// for byte, and the person's .git is the same before and after.
func TestUndoCommandRestoresAHeadlessRun(t *testing.T) {
	r := newRun(t)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = r.workspace
		cmd.Env = append(r.env, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", ".")
	for name, content := range map[string]string{"main.go": "package main\n\nfunc main() {}\n", "README.md": "hello\n"} {
		if err := os.WriteFile(filepath.Join(r.workspace, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
	before := fingerprint(t, r.workspace)
	gitBefore := fingerprint(t, filepath.Join(r.workspace, ".git"))

	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("c1", "bash", `{"command":"printf 'package main\\n' > main.go && rm README.md && mkdir docs && echo x > docs/a.md && chmod +x main.go"}`),
		fakeapi.Text("done"))
	out, stderr, code := r.exec("-p", "change things", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json", "--permission-mode", "yolo")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	if !strings.Contains(out, `"changes":[`) || !strings.Contains(out, `"path":"README.md","status":"deleted"`) {
		t.Errorf("the tool_result event carries no changes: %s", out)
	}
	hist, _, _ := r.exec("history", "--json")
	if !strings.Contains(hist, `"path":"docs/a.md","status":"added","added_lines":1`) {
		t.Errorf("history --json: %s", hist)
	}

	// Without a terminal and without --yes nothing is restored.
	out, stderr, code = r.exec("undo")
	if code != 2 || !strings.Contains(stderr, "pass --yes") || !strings.Contains(out, "recreate README.md") {
		t.Errorf("undo without --yes: exit %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code = r.exec("undo", "--yes")
	if code != 0 || !strings.Contains(out, "Restored 4 paths") {
		t.Fatalf("undo --yes: exit %d\n%s\n%s", code, out, stderr)
	}
	if after := fingerprint(t, r.workspace); after != before {
		t.Errorf("the workspace differs after undo:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if g := fingerprint(t, filepath.Join(r.workspace, ".git")); g != gitBefore {
		t.Errorf(".git changed")
	}
	out, _, code = r.exec("undo", "--yes")
	if code != 0 || !strings.Contains(out, "nothing to undo") {
		t.Errorf("a second undo: exit %d %s", code, out)
	}

	// The session, continued, tells the model what was undone.
	server.Reply(fakeapi.Text("noted"))
	if _, stderr, code := r.exec("--continue", "-p", "go on", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("continue: exit %d %s", code, stderr)
	}
	reqs := server.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if last := msgs[len(msgs)-1].Content; !strings.Contains(last, "restored the workspace's files") || !strings.Contains(last, "go on") {
		t.Errorf("the model was not told of the undo: %q", last)
	}
}

// A command can give a file any name, escape sequences and carriage returns included: warden undo shows
// such a name escaped, so that it cannot redraw the plan on the terminal as something else.
func TestUndoCommandEscapesNamesItShows(t *testing.T) {
	r := newRun(t)
	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("c1", "bash", `{"command":"echo x > $'evil\\e[2J\\e[H\\rremove nothing'"}`),
		fakeapi.Text("done"))
	if out, stderr, code := r.exec("-p", "make a file", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo"); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	for _, args := range [][]string{{"undo"}, {"undo", "--to", "c1"}, {"undo", "--yes"}} {
		out, stderr, _ := r.exec(args...)
		if strings.ContainsAny(out+stderr, "\x1b\r") {
			t.Errorf("warden %s wrote control characters to the terminal:\n%q", strings.Join(args, " "), out+stderr)
		}
		if !strings.Contains(out, `evil\e[2J\e[H\rremove nothing`) {
			t.Errorf("warden %s does not show the name escaped:\n%s", strings.Join(args, " "), out)
		}
	}
}

// A file git tracks is put back by warden undo though .gitignore matches it: git never counts a tracked
// file as ignored, and neither do checkpoints. Untracked files the same rules match are left alone.
func TestUndoRestoresATrackedFileTheIgnoreRulesMatch(t *testing.T) {
	r := newRun(t)
	sh := func(script string) {
		t.Helper()
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = r.workspace
		cmd.Env = append(r.env, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh(`git init -q . && printf '*.log\nbuild/\n' > .gitignore && echo 'level=info' > app.log && mkdir build &&
		echo 'kept' > build/keep.txt && echo 'scratch' > debug.log && git add .gitignore && git add -f app.log build/keep.txt &&
		git -c user.name=t -c user.email=t@t commit -qm start`)
	before := fingerprint(t, r.workspace)

	server := fakeapi.New()
	defer server.Close()
	server.Reply(
		fakeapi.ToolCall("c1", "bash", `{"command":"echo 'level=debug' > app.log && rm build/keep.txt && echo noise > debug.log"}`),
		fakeapi.Text("done"))
	out, stderr, code := r.exec("-p", "change the log level", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json", "--permission-mode", "yolo")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	hist, _, _ := r.exec("history", "--json")
	for _, want := range []string{`"path":"app.log","status":"modified"`, `"path":"build/keep.txt","status":"deleted"`} {
		if !strings.Contains(hist, want) {
			t.Errorf("history --json lacks %s: %s", want, hist)
		}
	}
	if strings.Contains(hist, `"path":"debug.log"`) {
		t.Errorf("an untracked ignored file is in the history: %s", hist)
	}
	out, stderr, code = r.exec("undo", "--yes")
	if code != 0 || !strings.Contains(out, "Restored 2 paths") {
		t.Fatalf("undo --yes: exit %d\n%s\n%s", code, out, stderr)
	}
	sh("echo scratch > debug.log")
	if after := fingerprint(t, r.workspace); after != before {
		t.Errorf("the workspace differs after undo:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
