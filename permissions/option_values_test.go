package permissions

import (
	"os"
	"path/filepath"
	"testing"
)

// An option the read-only table takes for one with a value swallows the word after it, so a file there
// was never judged: `column -t .git/config` and `sort -y .git/config` printed an extraHeader in the jail.
// Each option below takes no value in the program's own --help (sort's -y only an attached or all-digit
// one), so the file after it is read, and a secret there asks.
func TestAnOptionThatTakesNoValueLeavesTheFileAfterItJudged(t *testing.T) {
	ws, home := fixture(t)
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ws, path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/config", "[http \"https://example.com/\"]\n\textraHeader = Authorization: Bearer abcdefghijklmnop1234\n")
	write(".yarnrc.yml", "npmAuthToken: \"abcdefghijklmnop1234\"\n")
	for _, tc := range []struct {
		cmd  string
		deny []string
		mode Mode
		want Decision
	}{
		{cmd: "column -t .git/config", want: Ask},
		{cmd: "column -t .yarnrc.yml", want: Ask},
		{cmd: "column -t .env", want: Ask},
		{cmd: "column -t -s : " + filepath.Join(home, ".aws", "credentials"), want: Ask},
		{cmd: "sort -y .git/config", want: Ask},
		{cmd: "sort -y .env", want: Ask},
		{cmd: "bat -d .env", want: Ask},
		{cmd: "batcat -d .git/config", want: Ask},
		{cmd: "column -t README.md", want: Allow},
		{cmd: "sort -y0 README.md", want: Allow},
		{cmd: "sort -y README.md", deny: []string{"Read(./README.md)"}, want: Deny},
		{cmd: "column -t README.md", deny: []string{"Read(./README.md)"}, want: Deny},
		{cmd: "mkdir -Z src/new", deny: []string{"Edit(./src/**)"}, want: Deny},
		{cmd: "mkdir -Z " + filepath.Join(home, "made"), mode: ModeAcceptEdits, want: Ask},
		{cmd: "mkdir -Z made", mode: ModeAcceptEdits, want: Allow},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			e, err := NewEngine(Policy{Workspace: ws, Home: home, Deny: tc.deny, Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if v := e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: ws}); v.Decision != tc.want {
				t.Errorf("%s by %s (%s), want %s", v.Decision, v.By, v.Reason, tc.want)
			}
		})
	}
}
