package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The pipe habit: git diff | warden -p "review this" sends the prompt and the piped text in one user
// message, the text as a labelled block; it was dropped without a word.

const aDiff = "diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-package main\n+package app\n"

// userMessages are the user messages of the last request the server received.
func userMessages(t *testing.T, server *fakeapi.Server) []string {
	t.Helper()
	reqs := server.Requests()
	if len(reqs) == 0 {
		t.Fatal("the server received no request")
	}
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "user" {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestPipedTextAndThePromptReachTheModelInOneLabelledMessage(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	r.stdin = aDiff
	server.Reply(fakeapi.Text("looks fine"))
	out, stderr, code := r.exec("-p", "review this", "--base-url", server.URL(), "--model", "m")
	if code != 0 || out != "looks fine\n" {
		t.Fatalf("exit %d out %q stderr %q", code, out, stderr)
	}
	want := "review this\n\n<stdin lines=\"6\" bytes=\"" + fmt.Sprint(len(aDiff)) + "\">\n" + aDiff + "</stdin>"
	if got := userMessages(t, server); len(got) != 1 || got[0] != want {
		t.Errorf("user messages %q\nwant one: %q", got, want)
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}
}

func TestALongPipeIsCutAndTheModelAndThePersonAreToldHowMuch(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	var log strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&log, "2026-11-27 12:00:00 worker %05d: request served\n", i) // 49 bytes a line
	}
	r.stdin = log.String()
	server.Reply(fakeapi.Text("ok"))
	_, stderr, code := r.exec("-p", "why is it slow?", "--base-url", server.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	msgs := userMessages(t, server)
	if len(msgs) != 1 {
		t.Fatalf("%d user messages", len(msgs))
	}
	label := regexp.MustCompile(`^why is it slow\?\n\n<stdin lines="(\d+) of 20000" bytes="(\d+) of 980000" cut="true">\n`).FindStringSubmatch(msgs[0])
	if label == nil {
		t.Fatalf("the message does not start with the prompt and a cut block's label: %q", msgs[0][:200])
	}
	if len(msgs[0]) > 110<<10 {
		t.Errorf("the message holds %d bytes: the block is not bounded", len(msgs[0]))
	}
	if !strings.Contains(msgs[0], "\n</stdin>\nThe input piped to Warden was cut: above are its first "+label[1]+" lines") ||
		!strings.HasSuffix(msgs[0], "of 20000 lines (980.0 KB); the rest was not sent.") {
		t.Errorf("the model is not told what was left out: %q", msgs[0][len(msgs[0])-300:])
	}
	if !strings.Contains(stderr, "warden: stdin attached: the first "+label[1]+" lines") || !strings.Contains(stderr, "the rest was not sent") {
		t.Errorf("the person is not told: stderr %q", stderr)
	}
}

func TestBinaryOnStdinIsRefusedBeforeAnythingIsSent(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	r.stdin = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x02\x00\x00\x00\x01\x80\x08\x06\x00\x00\x00"
	out, stderr, code := r.exec("-p", "what is in this picture?", "--base-url", server.URL(), "--model", "m")
	if code != exitUsage || !strings.Contains(stderr, "binary data") || !strings.Contains(stderr, "name the file in the prompt") {
		t.Errorf("exit %d stderr %q out %q", code, stderr, out)
	}
	if n := len(server.Requests()); n != 0 {
		t.Errorf("the server received %d requests", n)
	}
}

func TestAnEmptyPipeSendsThePromptAlone(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text("ok"))
	if _, stderr, code := r.exec("-p", "review this", "--base-url", server.URL(), "--model", "m"); code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := userMessages(t, server); len(got) != 1 || got[0] != "review this" {
		t.Errorf("user messages %q", got)
	}
}

// warden -p "PROMPT" < file sends the file as it sends a pipe.
func TestARedirectedFileGoesWithThePrompt(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	file := filepath.Join(t.TempDir(), "change.diff")
	if err := os.WriteFile(file, []byte(aDiff), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	server.Reply(fakeapi.Text("ok"))
	if _, stderr, code := r.run(f, false, "-p", "review this", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := userMessages(t, server); len(got) != 1 || !strings.HasPrefix(got[0], "review this\n\n<stdin lines=\"6\"") || !strings.Contains(got[0], aDiff) {
		t.Errorf("user messages %q", got)
	}
}

// Prompt words with piped input and no -p are for the TUI, which reads keys from the terminal; with no
// terminal at all (a script, a CI job) Warden says so and what to do, before reading the pipe.
func TestThePipeHabitWithoutATerminalSaysToAddP(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	out, stderr, code := r.run(strings.NewReader(aDiff), true, "review this", "--base-url", server.URL(), "--model", "m")
	if code != exitUsage || !strings.Contains(stderr, "there is none here") || !strings.Contains(stderr, `warden -p "PROMPT"`) {
		t.Errorf("exit %d stderr %q out %q", code, stderr, out)
	}
	if n := len(server.Requests()); n != 0 {
		t.Errorf("the server received %d requests", n)
	}
}

// run is exec with stdin given as a reader (an *os.File is handed to the program as it is) and, with
// detach, in a session of its own without a controlling terminal.
func (r *invocation) run(stdin io.Reader, detach bool, args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = r.workspace, r.env, stdin
	if detach {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		r.t.Fatalf("warden %v did not finish in time; stderr: %s", args, errb.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// echo hi | warden "say it" starts the TUI with the piped line attached to the first message, and the TUI
// still reads keys from the terminal: a second prompt typed there is sent too.
func TestThePipeHabitInTheTUISendsBothAndStillReadsKeys(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	server.Reply(fakeapi.Text("I said it."))
	server.Reply(fakeapi.Text("And again."))
	tr := startTmux(t, r, `echo hi | "$WARDEN" "say it" --base-url `+server.URL()+` --model m`)
	tr.waitFor("say it", "stdin attached: 1 line (3 bytes)", "I said it.")
	if got := userMessages(t, server); len(got) != 1 || got[0] != "say it\n\n<stdin lines=\"1\" bytes=\"3\">\nhi\n</stdin>" {
		t.Fatalf("user messages %q", got)
	}
	tr.keys("-l", "and again")
	tr.keys("Enter")
	tr.waitFor("And again.")
	if got := userMessages(t, server); len(got) != 2 || got[1] != "and again" {
		t.Errorf("user messages %q", got)
	}
	tr.keys("C-c")
	tr.keys("C-c")
	if code := tr.exitCode(); code != 0 {
		t.Errorf("exit %d; the screen:\n%s", code, tr.screen())
	}
}
