package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// warden --trust undo, and undo with other global flags after it, restores the files as plain warden undo
// does: it was refused with "flag provided but not defined" (exit 2).
func TestUndoTakesTheGlobalFlags(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	note := filepath.Join(r.workspace, "note.txt")
	if err := os.WriteFile(note, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, undo := range [][]string{
		{"--trust", "undo", "--yes"},
		{"undo", "--yes", "--model", "m", "--permission-mode", "plan", "--sandbox=off"},
	} {
		server.Reply(fakeapi.ToolCall("c1", "write_file", `{"path":"note.txt","content":"after\n"}`), fakeapi.Text("done"))
		if _, stderr, code := r.exec("-p", "change the note", "--base-url", server.URL(), "--model", "m", "--permission-mode", "yolo"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if b, _ := os.ReadFile(note); string(b) != "after\n" {
			t.Fatalf("the run did not write the note: %q", b)
		}
		out, stderr, code := r.exec(undo...)
		if code != 0 || !strings.Contains(out, "Restored 1 path") {
			t.Fatalf("warden %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(undo, " "), code, out, stderr)
		}
		if b, _ := os.ReadFile(note); string(b) != "before\n" {
			t.Errorf("warden %s left the note as %q", strings.Join(undo, " "), b)
		}
	}
}
