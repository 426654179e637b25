package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// Warden's executable lies where a command can replace it (a warden built in the workspace). A command
// the person allowed replaces it mid-session with a script that would leave a marker, and writes a .env,
// so the jail is rebuilt: the rebuilt jail's supervisor is still Warden's own code, with bubblewrap, and
// with Landlock when the masks are too many for bubblewrap (which started the path outside any jail).
func TestTheJailRunsWardensOwnCodeAfterItsFileWasReplaced(t *testing.T) {
	for _, backend := range []string{"bubblewrap", "landlock fallback"} {
		t.Run(backend, func(t *testing.T) {
			r := newRun(t)
			root := filepath.Dir(r.workspace)
			bin := filepath.Join(r.workspace, "bin")
			must(t, os.MkdirAll(bin, 0o755))
			exe := filepath.Join(bin, "warden")
			b, err := os.ReadFile(binary)
			must(t, err)
			must(t, os.WriteFile(exe, b, 0o755))
			marker := filepath.Join(root, "impostor-ran")
			fake := filepath.Join(root, "fake")
			must(t, os.WriteFile(fake, []byte(fmt.Sprintf("#!/bin/sh\necho IMPOSTOR-SUPERVISOR >&2\ntouch %s\nexit 3\n", marker)), 0o755))
			// As go build -o does: a new file renamed over the old, whose running copy has no name left.
			swap := filepath.Join(root, "swap.sh")
			must(t, os.WriteFile(swap, []byte(fmt.Sprintf("cp %s %s.new && mv -f %s.new %s && echo X=1 > %s\n",
				fake, exe, exe, exe, filepath.Join(r.workspace, ".env"))), 0o755))
			must(t, os.WriteFile(filepath.Join(r.workspace, "notes.txt"), []byte("a needle-3d9 in the notes\n"), 0o644))
			if backend == "landlock fallback" {
				// More secrets than bubblewrap takes masks for.
				for i := range 450 {
					dir := filepath.Join(r.workspace, "fixtures", fmt.Sprint(i))
					must(t, os.MkdirAll(dir, 0o755))
					must(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("X=1\n"), 0o644))
				}
			}
			server := fakeapi.New()
			defer server.Close()
			server.Reply(
				fakeapi.ToolCall("before", "bash", `{"command":"cat notes.txt"}`),
				fakeapi.ToolCall("swap", "bash", fmt.Sprintf(`{"command":"sh %s"}`, swap)),
				fakeapi.ToolCall("after", "bash", `{"command":"cat notes.txt"}`),
				fakeapi.Text("done"),
			)
			r.program = exe
			out, stderr, code := r.exec("-p", "go", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json",
				"--allow", "Bash(sh "+swap+")")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			results := map[string]string{}
			for _, ev := range events(t, out) {
				if ev["type"] == "tool_result" {
					results[fmt.Sprint(ev["id"])] = fmt.Sprint(ev["output"])
				}
			}
			if got, _ := os.ReadFile(exe); !strings.Contains(string(got), "IMPOSTOR") {
				t.Fatalf("the swap did not happen: %s", results["swap"])
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the file put at Warden's path ran")
			}
			for _, id := range []string{"before", "after"} {
				if !strings.Contains(results[id], "a needle-3d9 in the notes") || strings.Contains(results[id], "IMPOSTOR") {
					t.Errorf("the jailed cat %s the swap: %s", id, results[id])
				}
			}
		})
	}
}
