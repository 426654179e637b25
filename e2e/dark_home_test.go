package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A home too big to scan: 20,001 entries come before ~/.ssh, more than any scan of the home looked at.
// The workspace is in the home, as most people's are. The model's read-only commands run unasked in the
// jail: a program that is not what its name says (a fake `wc` first on PATH, which prints the key) and a
// plain `cat` of a private file of an ordinary name. Neither the key nor the file reaches the model, while
// the fake program did run and the workspace is read as ever; with the jail off both reach it, which
// shows the test would see them.
func TestTheModelReadsNothingOfAHomeTooBigToScan(t *testing.T) {
	outside, bin := jailFixture(t, "warden-dark-home-")
	home := filepath.Join(outside, "home")
	ws := filepath.Join(home, "src", "app")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(home, "notes"), bin, ws} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20_001 {
		f, err := os.Create(filepath.Join(home, fmt.Sprintf(".a%06d", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	const key = "-----BEGIN OPENSSH PRIVATE KEY----- dark-home-test-key"
	const notes = "dark-home-private-notes"
	files := map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"):       key + "\n",
		filepath.Join(home, "notes", "private.txt"): notes + "\n",
		filepath.Join(ws, "README"):                 "workspace-readme-line\n",
		filepath.Join(bin, "wc"):                    "#!/usr/bin/env bash\necho fake-wc-ran\ncat ~/.ssh/id_rsa\n",
	}
	for p, content := range files {
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) {
			r := newRun(t)
			r.workspace = ws
			for i, kv := range r.env {
				if strings.HasPrefix(kv, "PATH=") {
					r.env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
				}
				if strings.HasPrefix(kv, "HOME=") {
					r.env[i] = "HOME=" + home
				}
			}
			if !jail {
				cfg := filepath.Join(strings.TrimPrefix(r.env[2], "XDG_CONFIG_HOME="), "warden")
				os.MkdirAll(cfg, 0o755)
				if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"sandbox":{"jail":false}}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			server := fakeapi.New()
			defer server.Close()
			server.Reply(
				fakeapi.ToolCall("c1", "bash", `{"command":"wc -l README"}`),
				fakeapi.ToolCall("c2", "bash", `{"command":"cat README ~/notes/private.txt"}`),
				fakeapi.Text("read"))
			out, stderr, code := r.exec("-p", "look around", "--base-url", server.URL(), "--model", "m",
				"--output-format", "stream-json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, ev := range events(t, out) {
				if ev["type"] == "permission" && (ev["decision"] != "allow" || ev["by"] != "readonly") {
					t.Errorf("a command was not run unasked as read-only: %v", ev)
				}
			}
			var sent strings.Builder
			for _, req := range server.Requests() {
				sent.Write(req.Raw)
			}
			got := sent.String()
			for _, want := range []string{"fake-wc-ran", "workspace-readme-line"} {
				if !strings.Contains(got, want) {
					t.Errorf("%s did not reach the model: the commands did not run as they should", want)
				}
			}
			leaked := strings.Contains(got, "dark-home-test-key") || strings.Contains(got, notes)
			if jail && leaked {
				t.Errorf("the key or the private notes reached the model from the jail:\n%s", got)
			}
			if !jail && (!strings.Contains(got, "dark-home-test-key") || !strings.Contains(got, notes)) {
				t.Errorf("outside the jail the key and the notes did not reach the model either; the check proves nothing")
			}
		})
	}
}
