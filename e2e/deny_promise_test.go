package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// The deny rules of these tests, and commands that would defeat them if Warden let what it cannot see
// run: each would write the marker file named beside it, or print the planted secret.
var promiseDeny = []string{"Bash(touch:*)", "Bash(git push:*)", "Read(./secrets/**)"}

const plantedSecret = "PLANTED-SECRET-6c1f"

var promiseCommands = []struct{ command, marker string }{
	{"printf 'touch w1' > s.sh; bash s.sh", "w1"},
	{"cat > t.sh <<'EOF'\ntouch w2\nEOF\nbash t.sh", "w2"},
	{"source <(echo touch w3)", "w3"},
	{"echo 'touch w4' | bash /dev/stdin", "w4"},
	{"bash <<< 'touch w5'", "w5"},
	{"trap 'touch w6' EXIT", "w6"},
	{"PROMPT_COMMAND='touch w7' bash -ic true", "w7"},
	{"/usr/bin/tou?h w8", "w8"},
	{"ln -s /usr/bin/touch t; ./t w9", "w9"},
	{"cp /usr/bin/touch c; ./c w10", "w10"},
	{"env -S 'touch w11'", "w11"},
	{"python3 -c 'open(\"w12\", \"w\")'", "w12"},
	{"git -c alias.x='!touch w13' x", "w13"},
	{"git -c core.pager='touch w14' -p log", "w14"},
	{"git rebase --exec 'touch w15' HEAD", "w15"},
	{"tar cf w16.tar secrets", "w16.tar"},
	{"tar cf - secrets | cat", ""},
	{"cp secrets/key k; cat k", "k"},
}

// promiseRun prepares a workspace: a git repository with a commit, and a secret below secrets/.
func promiseRun(t *testing.T) *invocation {
	t.Helper()
	for _, p := range []string{"git", "python3"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	if _, err := os.Stat("/usr/bin/touch"); err != nil {
		t.Skip("no /usr/bin/touch")
	}
	r := newRun(t)
	must(t, os.MkdirAll(filepath.Join(r.workspace, "secrets"), 0o755))
	must(t, os.WriteFile(filepath.Join(r.workspace, "secrets", "key"), []byte(plantedSecret+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(r.workspace, "README.md"), []byte("# x\n"), 0o644))
	for _, args := range [][]string{{"init", "-q"}, {"add", "README.md"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"}} {
		git := exec.Command("git", args...)
		git.Dir, git.Env = r.workspace, r.env
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return r
}

func denyFlags() []string {
	var flags []string
	for _, d := range promiseDeny {
		flags = append(flags, "--deny", d)
	}
	return flags
}

// TestDenyRulesHoldInYoloModeOnTheRealBinary: `warden check` in yolo mode, and under an allow rule for
// everything, asks or denies every command whose effect Warden cannot see while deny rules are in force;
// without them, yolo mode allows them all.
func TestDenyRulesHoldInYoloModeOnTheRealBinary(t *testing.T) {
	r := promiseRun(t)
	var stdin strings.Builder
	for _, c := range promiseCommands {
		line, _ := json.Marshal(c.command)
		stdin.WriteString(string(line) + "\n")
	}
	for _, tc := range []struct {
		name  string
		flags []string
		want  func(decision string) bool
	}{
		{"yolo with deny rules", append([]string{"--permission-mode", "yolo"}, denyFlags()...), func(d string) bool { return d == "ask" || d == "deny" }},
		{"an allow rule for everything with deny rules", append([]string{"--allow", "Bash", "--allow", "Edit(./**)"}, denyFlags()...), func(d string) bool { return d == "ask" || d == "deny" }},
		{"yolo without deny rules", []string{"--permission-mode", "yolo"}, func(d string) bool { return d == "allow" }},
	} {
		r.stdin = stdin.String()
		out, stderr, code := r.exec(append([]string{"check", "--stdin"}, tc.flags...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr)
		}
		evs := events(t, out)
		if len(evs) != len(promiseCommands) {
			t.Fatalf("%s: %d results for %d commands:\n%s", tc.name, len(evs), len(promiseCommands), out)
		}
		for i, ev := range evs {
			if d := fmt.Sprint(ev["decision"]); !tc.want(d) {
				t.Errorf("%s: %q is %s (%v)", tc.name, promiseCommands[i].command, d, ev["reason"])
			}
		}
	}
}

// TestDenyRulesHoldInAHeadlessYoloRun: a headless run in yolo mode with deny rules, where the model calls
// each command: none runs (no marker file appears, the secret never reaches the model), each is refused
// with the reason, and a command Warden sees through still runs.
func TestDenyRulesHoldInAHeadlessYoloRun(t *testing.T) {
	r := promiseRun(t)
	server := fakeapi.New()
	defer server.Close()
	var replies []*fakeapi.Response
	for i, c := range promiseCommands {
		args, _ := json.Marshal(map[string]string{"command": c.command})
		replies = append(replies, fakeapi.ToolCall(fmt.Sprintf("c%d", i), "bash", string(args)))
	}
	replies = append(replies, fakeapi.ToolCall("ok", "bash", `{"command":"mkdir made-in-yolo"}`), fakeapi.Text("done"))
	server.Reply(replies...)
	out, stderr, code := r.exec(append([]string{"-p", "go", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json", "--permission-mode", "yolo"}, denyFlags()...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	for _, c := range promiseCommands {
		if c.marker == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(r.workspace, c.marker)); err == nil {
			t.Errorf("%q ran: %s exists", c.command, c.marker)
		}
	}
	decided := map[string]string{}
	for _, ev := range events(t, out) {
		if ev["type"] == "permission" {
			decided[fmt.Sprint(ev["id"])] = fmt.Sprint(ev["decision"]) + ": " + fmt.Sprint(ev["reason"])
		}
	}
	for i, c := range promiseCommands {
		got := decided[fmt.Sprintf("c%d", i)]
		if !strings.HasPrefix(got, "deny: ") || !strings.Contains(got, "cannot check") && !strings.Contains(got, "denied by") {
			t.Errorf("%q: %q, want a refusal naming the deny rule or saying it cannot be checked", c.command, got)
		}
	}
	if !strings.HasPrefix(decided["ok"], "allow") {
		t.Errorf("a plain command did not run in yolo mode: %q", decided["ok"])
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made-in-yolo")); err != nil {
		t.Errorf("yolo mode did not run a plain command: %v", err)
	}
	for _, req := range server.Requests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, plantedSecret) {
				t.Fatalf("the secret reached the model: %q", m.Content)
			}
		}
	}
}
