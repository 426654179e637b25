package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// rawControl finds a character of s that would act on a terminal rather than show: an escape, a bell, a
// carriage return, a C1 control or a direction override. Line breaks and tabs are text.
func rawControl(s string) (rune, bool) {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
			return r, true
		}
	}
	return 0, false
}

func checkPrintable(t *testing.T, what, s string) {
	t.Helper()
	if r, bad := rawControl(s); bad {
		t.Errorf("%s writes %U as it is: %q", what, r, s)
	}
}

// TestCommandLineOutputEscapesWhatOthersChose: the model chooses commands (this one denied: it writes the
// clipboard with OSC 52, the title with OSC 2 and clears the screen), names the files a command makes
// (one with a carriage return), and the server chooses the model's name and error bodies; the person's
// first prompt may hold what was pasted. None of it reaches the terminal as control characters through
// warden history, sessions, mcp list or an error, and each is still there to read, escaped. The real binary
// is run.
func TestCommandLineOutputEscapesWhatOthersChose(t *testing.T) {
	r := newRun(t)
	server := fakeapi.New()
	defer server.Close()
	clip := "printf '\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b]2;TITLE\x07\x1b[2J' && rm -rf x"
	args, _ := json.Marshal(map[string]string{"command": clip})
	made, _ := json.Marshal(map[string]string{"command": "touch $'f\\rOVER\\e[2JWRITE.txt'"})
	server.Reply(
		fakeapi.ToolCall("c1", "bash", string(args)),
		fakeapi.ToolCall("c2", "bash", string(made)),
		fakeapi.Text("done"),
	)
	jsonOut, stderr, code := r.exec("-p", "tidy \x1b]2;PASTED\x07 up", "--base-url", server.URL(), "--model", "m\x1b[31m",
		"--allow", "Bash(touch:*)", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "f\rOVER\x1b[2JWRITE.txt")); err != nil {
		t.Fatalf("the file with a carriage return in its name was not made: %v\n%s", err, stderr+jsonOut)
	}

	out, stderr, code := r.exec("history")
	if code != 0 {
		t.Fatalf("history: exit %d: %s", code, stderr)
	}
	checkPrintable(t, "warden history", out)
	for _, want := range []string{`\e]52;c;ZWNobyBwd25lZA==\a`, `\e[2J`, `f\rOVER\e[2JWRITE.txt`, `m\e[31m`} {
		if !strings.Contains(out, want) {
			t.Errorf("warden history does not show %s: %s", want, out)
		}
	}

	out, stderr, code = r.exec("sessions")
	if code != 0 {
		t.Fatalf("sessions: exit %d: %s", code, stderr)
	}
	checkPrintable(t, "warden sessions", out)
	if !strings.Contains(out, `tidy \e]2;PASTED\a up`) || !strings.Contains(out, `m\e[31m`) {
		t.Errorf("warden sessions: %s", out)
	}

	server.Reply(fakeapi.HTTPError(400, "no such model: \x1b]2;BODY\x07\x1b[2J"))
	_, stderr, code = r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	if code == 0 {
		t.Fatal("a refused request exited 0")
	}
	checkPrintable(t, "an error", stderr)
	if !strings.Contains(stderr, `no such model: \e]2;BODY\a\e[2J`) {
		t.Errorf("the error does not quote the server: %s", stderr)
	}

	settings := filepath.Join(r.workspace, "..", "config", "warden", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"mcpServers":{"tool":{"command":"no-such-program-\u001b]2;X\u0007"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ = r.exec("mcp", "list")
	checkPrintable(t, "warden mcp list", out+stderr)
	if !strings.Contains(out, `no-such-program-\e]2;X\a`) {
		t.Errorf("warden mcp list: %s %s", out, stderr)
	}
}

func TestPrintableTextKeepsLinesAndTabs(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\twith a tab\n":        "plain text\n\twith a tab\n",
		"windows\r\nlines\r\n":              "windows\r\nlines\r\n",
		"hi \x1b]2;TITLE\a there":           `hi \e]2;TITLE\a there`,
		"f\rOVERWRITE\x1b[2J\n\u202eevil\r": `f\rOVERWRITE\e[2J` + "\n" + `\u202eevil\r`,
	} {
		if got := printableText(in); got != want {
			t.Errorf("printableText(%q) = %q, want %q", in, got, want)
		}
	}
}
