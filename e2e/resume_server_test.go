package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// A session a project's server served under --trust is not carried back to that server by -c or -r once
// the run that trusted it is over: the person's settings name their server, the project's another, and
// the resumed session goes to the person's, saying why, until the person approves the project's server
// (warden trust), after which it goes back to it as today's settings would. Before, the session's saved
// URL won over the trust judgement: every -c run reached the project's server, and sent the key there.
func TestAResumedSessionReachesAProjectsServerOnlyWhileItIsApproved(t *testing.T) {
	mine, theirs := fakeapi.New(), fakeapi.New()
	defer mine.Close()
	defer theirs.Close()
	r := newRun(t)
	r.env = append(r.env, "OPENAI_API_KEY=sk-person-key-1234567890")
	userSettings(t, r, `{"base_url": "`+mine.URL()+`", "model": "m"}`)
	writeFile(t, filepath.Join(r.workspace, ".warden", "settings.json"), `{"base_url": "`+theirs.URL()+`"}`)

	theirs.Reply(fakeapi.Text("hello from the project's server"))
	if _, stderr, code := r.exec("-p", "hi", "--trust"); code != 0 {
		t.Fatalf("trusted run: exit %d: %s", code, stderr)
	}
	if len(theirs.Requests()) != 1 {
		t.Fatalf("under --trust the project's server got %d requests, want 1", len(theirs.Requests()))
	}
	files, _ := filepath.Glob(filepath.Join(r.stateDir(), "warden", "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("sessions: %v", files)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")

	for _, args := range [][]string{{"-c", "-p", "go on"}, {"-r", id, "-p", "go on"}} {
		mine.Reply(fakeapi.Text("mine"))
		out, stderr, code := r.exec(args...)
		if code != 0 || out != "mine\n" {
			t.Fatalf("%v: exit %d out %q stderr %s", args, code, out, stderr)
		}
		if n := len(theirs.Requests()); n != 1 {
			t.Fatalf("%v: the project's unapproved server got another request (%d in all)", args, n)
		}
		if !strings.Contains(stderr, "without its server") {
			t.Errorf("%v: stderr does not say why the session's server was left: %s", args, stderr)
		}
	}

	if out, stderr, code := r.exec("trust", "--yes"); code != 0 {
		t.Fatalf("warden trust --yes: exit %d: %s%s", code, out, stderr)
	}
	theirs.Reply(fakeapi.Text("theirs again"))
	if out, stderr, code := r.exec("-c", "-p", "go on"); code != 0 || out != "theirs again\n" {
		t.Fatalf("approved: exit %d out %q stderr %s", code, out, stderr)
	}
}

// A session a project's approved server A served does not go back to A on -c once the project's file no
// longer names it (changed to {}) or names server B: the record's approval of A was given for a file that
// named A. Before, A's old approval was enough, and -c went on sending the person's key to A.
func TestAResumedSessionLeavesAnApprovedServerTheProjectNoLongerNames(t *testing.T) {
	mine, a, b := fakeapi.New(), fakeapi.New(), fakeapi.New()
	defer mine.Close()
	defer a.Close()
	defer b.Close()
	r := newRun(t)
	userSettings(t, r, `{"base_url": "`+mine.URL()+`", "model": "m"}`)
	settings := filepath.Join(r.workspace, ".warden", "settings.json")
	writeFile(t, settings, `{"base_url": "`+a.URL()+`"}`)
	if out, stderr, code := r.exec("trust", "--yes"); code != 0 {
		t.Fatalf("warden trust --yes: exit %d: %s%s", code, out, stderr)
	}
	for i, now := range []string{`{}`, `{"base_url": "` + b.URL() + `"}`} {
		writeFile(t, settings, `{"base_url": "`+a.URL()+`"}`)
		a.Reply(fakeapi.Text("from A"))
		if out, stderr, code := r.exec("-p", "hi"); code != 0 || out != "from A\n" {
			t.Fatalf("approved A: exit %d out %q stderr %s", code, out, stderr)
		}
		writeFile(t, settings, now)
		mine.Reply(fakeapi.Text("mine"))
		out, stderr, code := r.exec("-c", "-p", "go on")
		if code != 0 || out != "mine\n" {
			t.Fatalf("project's file %s: exit %d out %q stderr %s", now, code, out, stderr)
		}
		if n := len(a.Requests()); n != i+1 {
			t.Fatalf("project's file %s: server A, which it no longer names, got another request (%d in all)", now, n)
		}
		if len(b.Requests()) != 0 {
			t.Fatalf("project's file %s: the unapproved server B got a request", now)
		}
		if !strings.Contains(stderr, "without its server") {
			t.Errorf("project's file %s: stderr does not say why the session's server was left: %s", now, stderr)
		}
	}
}
