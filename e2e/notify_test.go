package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// Notifications: while the terminal reports that it is out of focus, an approval that waits is told to
// the terminal in the way ui.notifications picks; in focus, or with the setting off, it is not.

const (
	blur    = "\x1b[O" // what a terminal with focus reporting on sends when it loses focus
	focus   = "\x1b[I"
	osc9    = "\x1b]9;Warden needs your permission to use bash\a"
	askOSC  = "\x1b]9;"
	ask777  = "\x1b]777;"
	focusOn = "\x1b[?1004h" // the request to report focus
)

// notifyRun starts the TUI with ui.notifications set, has the model ask for a command, sends the
// terminal's focus reports while the request is on its way, and allows the command; it returns what the
// program wrote.
func notifyRun(t *testing.T, setting string, reports ...string) string {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	// The server takes a moment, in which the reports are read: typing the prompt was the person's last
	// sign of presence, and a report after it is what counts.
	server.Reply(fakeapi.ToolCall("c1", "bash", `{"command":"touch made.txt"}`).Delay(time.Second), fakeapi.Text("made it"))
	r := newRun(t)
	var config string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			config = filepath.Join(v, "warden")
		}
	}
	must(t, os.MkdirAll(config, 0o755))
	must(t, os.WriteFile(filepath.Join(config, "settings.json"), []byte(`{"ui": {"notifications": "`+setting+`"}}`), 0o644))
	tr := startTerminal(t, r, "--base-url", server.URL(), "--model", "m")
	tr.waitFor("Ask Warden")
	tr.typeText("make the file\r")
	tr.waitFor("esc to interrupt")
	tr.typeText(strings.Join(reports, ""))
	tr.waitFor("Allow bash?", "y allow once")
	if len(reports) > 0 && reports[len(reports)-1] == blur && setting != "off" {
		// The notification may come with the frame after the modal's: wait for it rather than race.
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(tr.written(), askOSC) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	tr.typeText("y")
	tr.waitFor("made it")
	return tr.written()
}

func TestAnApprovalWaitingOutOfFocusWritesOSC9(t *testing.T) {
	out := notifyRun(t, "osc9", blur)
	if !strings.Contains(out, focusOn) {
		t.Error("the program did not ask the terminal to report focus")
	}
	if !strings.Contains(out, osc9) {
		t.Errorf("no OSC 9 notification was written: %q", tail(out))
	}
	if n := strings.Count(out, askOSC); n != 1 {
		t.Errorf("%d OSC 9 notifications", n)
	}
}

func TestAnApprovalInFocusNotifiesNothing(t *testing.T) {
	for name, reports := range map[string][]string{"focus never reported": nil, "focus back": {blur, focus}} {
		if out := notifyRun(t, "osc9", reports...); strings.Contains(out, askOSC) {
			t.Errorf("%s: a notification was written: %q", name, tail(out))
		}
	}
}

func TestNotificationsOffWriteNothingAndAskNoFocusReports(t *testing.T) {
	out := notifyRun(t, "off", blur)
	if strings.Contains(out, askOSC) || strings.Contains(out, ask777) {
		t.Errorf("a notification was written: %q", tail(out))
	}
	if strings.Contains(out, focusOn) {
		t.Error("focus reports were asked for with notifications off")
	}
}

func tail(s string) string {
	if len(s) > 600 {
		return s[len(s)-600:]
	}
	return s
}
