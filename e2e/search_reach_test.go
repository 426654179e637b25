package e2e

import (
	be "encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// Warden's own listing of a workspace's files (behind glob, grep and @ completion) runs nothing of the
// repository's and reaches nothing outside the workspace, whatever the repository's configuration and
// index say. The real binary, the fake server's record of what it received and marker files decide.

// gitIn runs git in dir with the run's environment and no configuration of the machine's.
func gitIn(t *testing.T, r *invocation, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main",
		"-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(r.env), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(content), 0o644))
}

// partialClone makes the workspace a partial clone whose sparse checkout leaves docs/ out, so that the
// object of docs/.gitignore is missing, with remote.origin.uploadpack set to a program that writes a
// marker; an untracked file in docs/ makes git's listing want that .gitignore, and fetch it. It returns
// the marker's path.
func partialClone(t *testing.T, r *invocation) string {
	t.Helper()
	src := filepath.Join(filepath.Dir(r.workspace), "src")
	writeFile(t, filepath.Join(src, "a.go"), "package a // needle\n")
	writeFile(t, filepath.Join(src, "docs", ".gitignore"), "*.log\n")
	writeFile(t, filepath.Join(src, "docs", "guide.md"), "a guide\n")
	gitIn(t, r, filepath.Dir(src), "init", "-q", src)
	gitIn(t, r, src, "add", "-A")
	gitIn(t, r, src, "commit", "-qm", "x")
	gitIn(t, r, src, "config", "uploadpack.allowFilter", "true")
	must(t, os.Remove(r.workspace))
	gitIn(t, r, filepath.Dir(src), "clone", "-q", "--no-local", "--filter=blob:none", "--no-checkout", "file://"+src, r.workspace)
	gitIn(t, r, r.workspace, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/")
	gitIn(t, r, r.workspace, "checkout", "-q", "main")
	marker := filepath.Join(filepath.Dir(r.workspace), "fetched")
	fetch := filepath.Join(r.workspace, "fetch.sh")
	must(t, os.WriteFile(fetch, []byte("#!/bin/sh\necho ran >> "+marker+"\nexit 1\n"), 0o755))
	gitIn(t, r, r.workspace, "config", "remote.origin.uploadpack", fetch)
	writeFile(t, filepath.Join(r.workspace, "docs", "new.log"), "needle in an untracked file\n")
	// git's own listing fetches here: the test would prove nothing if it did not.
	cmd := exec.Command("git", "ls-files", "-co", "--exclude-standard")
	cmd.Dir, cmd.Env = r.workspace, append(slices.Clone(r.env), "GIT_CONFIG_NOSYSTEM=1")
	cmd.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("git's listing of this repository does not run its fetch program; the test cannot tell")
	}
	must(t, os.Remove(marker))
	return marker
}

// toolOutputs runs the calls headless, one after the other, and returns the outputs the model got back,
// by call id.
func toolOutputs(t *testing.T, r *invocation, server *fakeapi.Server, calls ...*fakeapi.Response) map[string]string {
	t.Helper()
	server.Reply(append(calls, fakeapi.Text("done"))...)
	out, stderr, code := r.exec("-p", "search", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := map[string]string{}
	for _, ev := range events(t, out) {
		if ev["type"] == "tool_result" {
			got[fmt.Sprint(ev["id"])] = fmt.Sprint(ev["output"])
		}
	}
	return got
}

func TestSearchesOfAPartialCloneRunNothingOfTheRepository(t *testing.T) {
	r := newRun(t)
	marker := partialClone(t, r)
	server := fakeapi.New()
	defer server.Close()
	// @ completion and the mention's read, in the full-screen program.
	tui := startTUI(t, r, server)
	server.Reply(fakeapi.Text("read it"))
	tui.typeText("summarise @a.g")
	tui.waitFor("a.go", "tab or enter take")
	tui.typeText("\t\r")
	tui.waitFor("read it")
	if _, err := os.Stat(marker); err == nil {
		t.Error("@ completion or the mention ran the repository's fetch program")
	}
	got := toolOutputs(t, r, server, fakeapi.ToolCall("g1", "glob", `{"pattern":"**"}`),
		fakeapi.ToolCall("g2", "grep", `{"pattern":"needle"}`))
	if !strings.Contains(got["g1"], "a.go") || !strings.Contains(got["g2"], "a.go:1:") {
		t.Errorf("the searches did not list the workspace: %q", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("glob or grep ran the repository's fetch program")
	}
}

// writeCraftedIndex replaces dir's index with one listing paths (in git's order), each an empty file, as
// a crafted index file holds them: git's own commands refuse to add a path such as `../x`.
func writeCraftedIndex(t *testing.T, dir string, paths ...string) {
	t.Helper()
	slices.Sort(paths)
	b := []byte("DIRC\x00\x00\x00\x02")
	b = be.BigEndian.AppendUint32(b, uint32(len(paths)))
	empty := []byte("\xe6\x9d\xe2\x9b\xb2\xd1\xd6\x43\x4b\x8b\x29\xae\x77\x5a\xd8\xc2\xe4\x8c\x53\x91")
	for _, p := range paths {
		start := len(b)
		b = append(b, make([]byte, 24)...)
		b = be.BigEndian.AppendUint32(b, 0o100644)
		b = append(b, make([]byte, 12)...)
		b = append(b, empty...)
		b = be.BigEndian.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
		b = append(b, 0)
		for (len(b)-start)%8 != 0 {
			b = append(b, 0)
		}
	}
	b = append(b, make([]byte, 20)...) // git does not check the checksum when it reads
	must(t, os.WriteFile(filepath.Join(dir, ".git", "index"), b, 0o644))
}

func TestACraftedIndexAndALinkedDirectoryLeadNoSearchOutside(t *testing.T) {
	r := newRun(t)
	ws := r.workspace
	home := filepath.Join(filepath.Dir(ws), "home")
	writeFile(t, filepath.Join(home, "private.txt"), "PLANTED-HOME private notes\n")
	outside := filepath.Join(filepath.Dir(ws), "elsewhere")
	writeFile(t, filepath.Join(outside, "guide.md"), "PLANTED-OUTSIDE guide\n")
	writeFile(t, filepath.Join(ws, "main.go"), "package main // PLANTED-WORKSPACE\n")
	writeFile(t, filepath.Join(ws, "docs", "guide.md"), "a guide\n")
	gitIn(t, r, ws, "init", "-q")
	gitIn(t, r, ws, "add", "-A")
	gitIn(t, r, ws, "commit", "-qm", "x")
	must(t, os.RemoveAll(filepath.Join(ws, "docs")))
	must(t, os.Symlink(outside, filepath.Join(ws, "docs")))
	writeCraftedIndex(t, ws, "../home/private.txt", "docs/guide.md", "main.go")

	server := fakeapi.New()
	defer server.Close()
	got := toolOutputs(t, r, server, fakeapi.ToolCall("g1", "grep", `{"pattern":"PLANTED"}`),
		fakeapi.ToolCall("g2", "glob", `{"pattern":"**"}`), fakeapi.ToolCall("g3", "grep", `{"pattern":"guide","glob":"*.md"}`))
	if !strings.Contains(got["g1"], "main.go:1:package main // PLANTED-WORKSPACE") || !strings.Contains(got["g2"], "main.go") {
		t.Errorf("the searches did not list the workspace: %q", got)
	}
	if !strings.Contains(got["g1"], "2 files the index lists not searched") {
		t.Errorf("grep does not say what it left out: %s", got["g1"])
	}

	// @ completion offers neither the link nor what the index lists through it or out of the workspace;
	// a mention typed by hand is read by read_file, which asks, and is refused here.
	tui := startTUI(t, r, server)
	server.Reply(fakeapi.Text("mention refused"))
	tui.typeText("@")
	scr := tui.waitFor("main.go", "tab or enter take")
	for _, not := range []string{"docs", "private"} {
		if strings.Contains(scr, not) {
			t.Errorf("@ completion offers %s:\n%s", not, scr)
		}
	}
	// A space after a mention closes the menu, and Enter sends.
	tui.typeText("docs/guide.md and @../home/private.txt ")
	tui.waitFor("❯ @docs/guide.md and @../home/private.txt")
	tui.typeText("\r")
	// Each question takes answers once the keys typed before it are well past (it says so meanwhile).
	tui.waitFor("elsewhere/guide.md`, outside", "y allow once")
	tui.typeText("n")
	tui.waitFor("home/private.txt`, outside", "y allow once")
	tui.typeText("n")
	tui.waitFor("mention refused")

	for i, req := range server.Requests() {
		for _, planted := range []string{"PLANTED-OUTSIDE", "PLANTED-HOME"} {
			if strings.Contains(string(req.Raw), planted) {
				t.Errorf("request %d holds %s", i, planted)
			}
		}
	}
}

// tui is the full-screen program in a pseudo-terminal, its screen kept by a terminal emulator.
type tui struct {
	t    *testing.T
	pty  *os.File
	cmd  *exec.Cmd
	emu  *vt.SafeEmulator
	mu   sync.Mutex
	more chan struct{} // has a value when output came since the last look
}

func startTUI(t *testing.T, r *invocation, server *fakeapi.Server) *tui {
	t.Helper()
	const w, h = 120, 40
	cmd := exec.Command(binary, "--base-url", server.URL(), "--model", "fake-model")
	cmd.Dir = r.workspace
	cmd.Env = append(slices.Clone(r.env), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: h, Cols: w})
	if err != nil {
		t.Fatal(err)
	}
	u := &tui{t: t, pty: f, cmd: cmd, emu: vt.NewSafeEmulator(w, h), more: make(chan struct{}, 1)}
	// The emulator's answers to the program's queries go back to the program, as a terminal's do.
	go func() { _, _ = io.Copy(f, u.emu) }()
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				u.mu.Lock()
				_, _ = u.emu.Write(buf[:n])
				u.mu.Unlock()
				select {
				case u.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	u.waitFor("Ask Warden")
	return u
}

func (u *tui) screen() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.emu.String()
}

// waitFor waits until the screen holds every one of want, looking again each time output comes.
func (u *tui) waitFor(want ...string) string {
	u.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		s := u.screen()
		missing := slices.IndexFunc(want, func(w string) bool { return !strings.Contains(s, w) })
		if missing < 0 {
			return s
		}
		select {
		case <-u.more:
		case <-deadline.C:
			u.t.Fatalf("the screen never showed %q:\n%s", want[missing], s)
		}
	}
}

func (u *tui) typeText(s string) {
	u.t.Helper()
	if _, err := u.pty.Write([]byte(s)); err != nil {
		u.t.Fatal(err)
	}
}
