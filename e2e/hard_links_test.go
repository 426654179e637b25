package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// fileCall runs one file tool call headless (after a read_file of before, when given) and returns what
// the model got back from the last call, with its decision.
func fileCall(t *testing.T, r *invocation, tool, args string, flags ...string) (output, decision, reason string) {
	t.Helper()
	return fileCallAfter(t, r, "", tool, args, flags...)
}

func fileCallAfter(t *testing.T, r *invocation, before, tool, args string, flags ...string) (output, decision, reason string) {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	if before != "" {
		server.Reply(fakeapi.ToolCall("f0", "read_file", fmt.Sprintf(`{"path":%q}`, before)))
	}
	server.Reply(fakeapi.ToolCall("f1", tool, args), fakeapi.Text("done"))
	out, stderr, code := r.exec(append([]string{"-p", "go", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range events(t, out) {
		switch ev["type"] {
		case "permission":
			decision, reason = fmt.Sprint(ev["decision"]), fmt.Sprint(ev["reason"])
		case "tool_result":
			output = fmt.Sprint(ev["output"])
		}
	}
	return output, decision, reason
}

// linkLab is a workspace with a .env, a file a rule will deny, and hard links to both under names that
// look harmless; a.txt and b.txt are one ordinary file with two names.
func linkLab(t *testing.T) *invocation {
	t.Helper()
	r := newRun(t)
	ws := r.workspace
	must(t, os.MkdirAll(filepath.Join(ws, "config"), 0o755))
	must(t, os.MkdirAll(filepath.Join(ws, "docs"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("API_TOKEN=HL-SECRET-1\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "config", "prod.yml"), []byte("key: HL-DENIED-2\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("plain HL-PLAIN-3\n"), 0o644))
	must(t, os.Link(filepath.Join(ws, ".env"), filepath.Join(ws, "hl")))
	must(t, os.Link(filepath.Join(ws, ".env"), filepath.Join(ws, "docs", "notes.txt")))
	must(t, os.Link(filepath.Join(ws, "config", "prod.yml"), filepath.Join(ws, "prod-copy.yml")))
	must(t, os.Link(filepath.Join(ws, "a.txt"), filepath.Join(ws, "b.txt")))
	return r
}

// read_file judges a hard link as the file it is: a link to .env asks (and so is refused headless), a
// link to a file a Read rule denies is denied; an ordinary file with two names is read at once.
func TestReadFileSeesThroughHardLinks(t *testing.T) {
	r := linkLab(t)
	for _, tc := range []struct {
		path, flag, want, leak string
	}{
		{"hl", "", "deny", "HL-SECRET-1"}, // asked, so refused headless
		{"docs/notes.txt", "", "deny", "HL-SECRET-1"},
		{"prod-copy.yml", "Read(./config/**)", "deny", "HL-DENIED-2"},
		{"b.txt", "Read(./config/**)", "allow", ""},
	} {
		var flags []string
		if tc.flag != "" {
			flags = []string{"--deny", tc.flag}
		}
		out, decision, reason := fileCall(t, r, "read_file", fmt.Sprintf(`{"path":%q}`, tc.path), flags...)
		if decision != tc.want {
			t.Errorf("read_file %s (%v): %s (%s), want %s", tc.path, flags, decision, reason, tc.want)
		}
		if tc.leak != "" && strings.Contains(out, tc.leak) {
			t.Errorf("read_file %s (%v) printed the file:\n%s", tc.path, flags, out)
		}
		if tc.leak != "" && !strings.Contains(reason, "(a hard link to `") {
			t.Errorf("read_file %s: the reason does not say why: %s", tc.path, reason)
		}
		if tc.want == "allow" && !strings.Contains(out, "HL-PLAIN-3") {
			t.Errorf("read_file %s did not read the file: %s", tc.path, out)
		}
	}
}

// The grep tool leaves out a hard link to a secret or to a denied file, as it leaves out the file under
// its own name, and says so; the ordinary file with two names is searched under both.
func TestGrepSeesThroughHardLinks(t *testing.T) {
	r := linkLab(t)
	out, decision := searchOutput(t, r, `{"pattern":"HL-"}`, "--deny", "Read(./config/**)")
	if decision != "allow" {
		t.Fatalf("grep was %s, want allowed with the files left out", decision)
	}
	for _, leak := range []string{"HL-SECRET-1", "HL-DENIED-2"} {
		if strings.Contains(out, leak) {
			t.Errorf("grep printed %s through a hard link:\n%s", leak, out)
		}
	}
	for _, want := range []string{"a.txt:1:plain HL-PLAIN-3", "b.txt:1:plain HL-PLAIN-3", "3 files that may hold secrets were not searched",
		"2 files were not searched: `Read(./config/**)` denies reading them"} {
		if !strings.Contains(out, want) {
			t.Errorf("grep's result lacks %q:\n%s", want, out)
		}
	}
}

// edit_file and write_file change the file, whatever name they are given: in accept-edits a hard link to
// .env asks (refused headless) and .env keeps its content; an Edit deny rule on .env denies its links.
func TestFileEditsSeeThroughHardLinks(t *testing.T) {
	r := linkLab(t)
	env := filepath.Join(r.workspace, ".env")
	// The person let the model read .env, under any name; that is not leave to change it unseen.
	acceptEdits := []string{"--permission-mode", "accept-edits", "--allow", "Read(./.env)"}
	for _, tc := range []struct {
		before, tool, args string
		flags              []string
		want               string
	}{
		{"hl", "edit_file", `{"path":"hl","old_string":"HL-SECRET-1","new_string":"changed"}`, acceptEdits, "deny"},
		{"", "write_file", `{"path":"docs/notes.txt","content":"changed\n"}`, acceptEdits, "deny"},
		{"hl", "edit_file", `{"path":"hl","old_string":"HL-SECRET-1","new_string":"changed"}`, []string{"--permission-mode", "yolo", "--deny", "Edit(./.env)"}, "deny"},
		{"", "write_file", `{"path":"hl","content":"changed\n"}`, []string{"--permission-mode", "yolo", "--deny", "Write(./.env)"}, "deny"},
		{"b.txt", "edit_file", `{"path":"b.txt","old_string":"HL-PLAIN-3","new_string":"HL-PLAIN-4"}`, []string{"--permission-mode", "accept-edits"}, "allow"},
	} {
		_, decision, reason := fileCallAfter(t, r, tc.before, tc.tool, tc.args, tc.flags...)
		if decision != tc.want {
			t.Errorf("%s %s %v: %s (%s), want %s", tc.tool, tc.args, tc.flags, decision, reason, tc.want)
		}
		if b, _ := os.ReadFile(env); string(b) != "API_TOKEN=HL-SECRET-1\n" {
			t.Fatalf("%s %s %v changed .env: %q", tc.tool, tc.args, tc.flags, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(r.workspace, "a.txt")); string(b) != "plain HL-PLAIN-4\n" {
		t.Errorf("the edit of b.txt did not reach a.txt, its other name: %q", b)
	}
}
