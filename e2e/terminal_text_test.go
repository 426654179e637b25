package e2e

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

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

// TestHeadlessAnswerIsEscapedOnATerminalOnly: the model's answer in text format reaches a terminal with its
// escape sequences shown, not acted on, and plain lines and tabs as they are; piped, the bytes are the
// model's. The real binary is run, its stdout a pseudo-terminal.
func TestHeadlessAnswerIsEscapedOnATerminalOnly(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	answer := "hi \x1b]2;TITLE\a there\n\tplain line"

	server.Reply(fakeapi.Text(answer))
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-p", "hi", "--base-url", server.URL(), "--model", "m")
	cmd.Dir, cmd.Env, cmd.Stdout = r.workspace, r.env, tty
	var stderr strings.Builder
	cmd.Stderr = &stderr
	// The terminal's own output processing would turn \n into \r\n; without it, the bytes read are the
	// bytes written.
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got, _ := io.ReadAll(ptmx) // ends with EIO once the program has exited and the terminal has no writer
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if want := "hi \\e]2;TITLE\\a there\n\tplain line\n"; string(got) != want {
		t.Errorf("on a terminal: %q, want %q", got, want)
	}

	server.Reply(fakeapi.Text(answer))
	out, stderrText, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	if code != 0 || out != answer+"\n" {
		t.Errorf("piped: exit %d, %q, want the model's bytes %q (%s)", code, out, answer+"\n", stderrText)
	}
}
