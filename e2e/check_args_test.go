package e2e

import (
	"strings"
	"testing"
)

// TestCheckWordsAreOneCommand: `warden check -- git status` judges one command, `git status`; words
// that need quoting are quoted; a first word with a blank in it keeps one command per word.
func TestCheckWordsAreOneCommand(t *testing.T) {
	r := newRun(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"git", "status"}, []string{"git status"}},
		{[]string{"git", "commit", "-m", "fix it's done"}, []string{`git commit -m 'fix it'\''s done'`}},
		{[]string{"ls -la", "git push"}, []string{"ls -la", "git push"}},
		{[]string{"echo", "$HOME"}, []string{"echo '$HOME'"}},
	} {
		out, stderr, code := r.exec(append([]string{"check", "--"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.args, code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(c.want) {
			t.Errorf("%q: %d commands, want %d: %s", c.args, len(lines), len(c.want), out)
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(lines[i], `"command":`+jsonString(w)) {
				t.Errorf("%q: %s, want the command %q", c.args, lines[i], w)
			}
		}
	}
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
