package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// longAnswer is an answer of n numbered lines, each its own paragraph, so that it is taller than the pane.
func longAnswer(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "Answer line %d.\n\n", i)
	}
	return b.String() + "That is the whole answer."
}

// history is the pane's whole history, what scrolling up in the terminal shows, lines joined as wrapped.
func (tr *tmuxRun) history() string { return tr.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "w") }

// historyWith is the pane's history once it shows last: tmux reads what a program wrote after the
// program has ended, so on a busy machine the last lines may reach the pane after the exit is known.
func (tr *tmuxRun) historyWith(last string) string {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		h := tr.history()
		if strings.Contains(h, last) || time.Now().After(deadline) {
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// format is a tmux format's value for the pane (its modes: #{mouse_button_flag}, #{alternate_on}).
func (tr *tmuxRun) format(f string) string {
	return strings.TrimSpace(tr.tmux("display-message", "-p", "-t", "w", f))
}

// waitUntilGone waits until the pane no longer shows s.
func (tr *tmuxRun) waitUntilGone(s string) {
	tr.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Contains(tr.screen(), s) {
		if time.Now().After(deadline) {
			tr.t.Fatalf("the screen still shows %q:\n%s", s, tr.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quit ends warden with Ctrl+C twice and checks that it left the alternate screen with status 0.
func (tr *tmuxRun) quit() {
	tr.t.Helper()
	tr.keys("C-c")
	tr.waitFor("Press Ctrl+C again")
	tr.keys("C-c")
	if code := tr.exitCode(); code != 0 {
		tr.t.Fatalf("exit %d; the screen:\n%s", code, tr.screen())
	}
	if alt := tr.format("#{alternate_on}"); alt != "0" {
		tr.t.Fatalf("warden left the terminal on the alternate screen (alternate_on %s)", alt)
	}
}

// After quitting, scrolling up in the terminal shows the conversation as it was drawn: the prompt, every
// line of an answer taller than the screen, then the line that says how to resume.
func TestTheTranscriptIsInTheTerminalsScrollbackAfterExit(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text(longAnswer(60)))
	tr := startTmux(t, r, `"$WARDEN" "tell me at length" --base-url `+server.URL()+` --model m`)
	tr.waitFor("That is the whole answer.")
	tr.quit()
	h := tr.historyWith("warden --resume")
	last := -1
	for _, want := range []string{"❯ tell me at length", "Answer line 1.", "Answer line 30.", "Answer line 60.", "That is the whole answer.", "warden --resume"} {
		i := strings.Index(h, want)
		if i < 0 || i < last {
			t.Fatalf("the scrollback lacks %q, or has it out of order:\n%s", want, h)
		}
		last = i
	}
}

// ui.transcript_on_exit false leaves the terminal's scrollback as it was: the conversation goes with the
// alternate screen, and only the line that says how to resume stays.
func TestTheTranscriptOnExitSettingOffLeavesTheScrollbackAlone(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	writeSettings(t, r, `{"ui": {"transcript_on_exit": false}}`)
	server.Reply(fakeapi.Text(longAnswer(5)))
	tr := startTmux(t, r, `"$WARDEN" "tell me briefly" --base-url `+server.URL()+` --model m`)
	tr.waitFor("That is the whole answer.")
	tr.quit()
	h := tr.historyWith("warden --resume")
	if strings.Contains(h, "Answer line 1.") || !strings.Contains(h, "warden --resume") {
		t.Fatalf("with the transcript off the scrollback should hold the resume line alone:\n%s", h)
	}
}

// The mouse wheel, as a terminal reports it in SGR (button 64 up, 65 down), scrolls the conversation, and
// Warden asked the terminal for those reports.
func TestTheMouseWheelScrollsTheConversation(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text(longAnswer(60)))
	tr := startTmux(t, r, `"$WARDEN" "tell me at length" --base-url `+server.URL()+` --model m`)
	tr.waitFor("That is the whole answer.")
	if got := tr.format("#{mouse_button_flag}#{mouse_sgr_flag}"); got != "11" {
		t.Fatalf("mouse button reports in SGR are not on (flags %s)", got)
	}
	for range 5 {
		tr.keys("-l", "\x1b[<64;20;5M")
	}
	s := tr.waitFor("15 lines below")
	if strings.Contains(s, "That is the whole answer.") {
		t.Fatalf("scrolled up 15 lines, the answer's end still shows:\n%s", s)
	}
	for range 5 {
		tr.keys("-l", "\x1b[<65;20;5M")
	}
	tr.waitUntilGone("lines below")
	tr.waitFor("That is the whole answer.")
	tr.quit()
}

// ui.mouse false leaves the mouse to the terminal: Warden asks for no mouse reports, so the terminal's own
// selection and wheel work as they do anywhere.
func TestTheMouseSettingOffLeavesTheMouseToTheTerminal(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	writeSettings(t, r, `{"ui": {"mouse": false}}`)
	server.Reply(fakeapi.Text("Short."))
	tr := startTmux(t, r, `"$WARDEN" "hi" --base-url `+server.URL()+` --model m`)
	tr.waitFor("Short.")
	if got := tr.format("#{mouse_button_flag}#{mouse_any_flag}#{mouse_standard_flag}"); got != "000" {
		t.Fatalf("ui.mouse false still asked for mouse reports (flags %s)", got)
	}
	tr.quit()
}

// writeSettings writes the person's settings file of r.
func writeSettings(t *testing.T, r *invocation, json string) {
	t.Helper()
	var config string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			config = v
		}
	}
	if config == "" {
		t.Fatal("the run has no XDG_CONFIG_HOME")
	}
	dir := filepath.Join(config, "warden")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(json+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
