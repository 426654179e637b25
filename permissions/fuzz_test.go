package permissions

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/permissions/shell"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzClassify checks invariants that must hold for any input: no panic; a command with a write
// redirection to a real file is never read-only; a command whose text contains a substitution or a
// pipeline into a shell with a non-read-only part never comes out read-only; every part's text is a
// substring of the command.
func FuzzClassify(f *testing.F) {
	for _, c := range corpus {
		f.Add(c.cmd)
	}
	ws, home := fixture(f)
	ctx := shell.Context{Cwd: ws, Workspace: ws, Home: home}
	f.Fuzz(func(t *testing.T, cmd string) {
		// Classifying runs before every command: it must never take long, whatever the input.
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("classifying %q took more than 3s", cmd)) })
		defer tm.Stop()
		cls := Classify(cmd, ctx)
		for _, p := range cls.Parts {
			if !strings.Contains(cmd, p.Text) {
				t.Fatalf("part %q is not in %q", p.Text, cmd)
			}
			if p.ReadOnly && len(p.Writes) > 0 {
				t.Fatalf("part %q writes %q but is read-only", p.Text, p.Writes)
			}
			if !p.ReadOnly && p.Reason == "" {
				t.Fatalf("part %q is not read-only without a reason", p.Text)
			}
		}
		if cls.ReadOnly && writesToFile(cmd) {
			t.Fatalf("%q redirects output to a file but was classified read-only", cmd)
		}
		if !cls.ReadOnly && cls.Reason == "" {
			t.Fatalf("%q is not read-only without a reason", cmd)
		}
		_ = SuggestRule(cmd, ctx)
	})
}

// writesToFile is an independent check, written against the parser directly: does any statement
// redirect output to something other than /dev/null or a file descriptor?
func writesToFile(cmd string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || r.Word == nil {
			return true
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			if lit := r.Word.Lit(); lit != "/dev/null" && lit != "/dev/stdout" && lit != "/dev/stderr" && lit != "/dev/tty" && lit != "/dev/fd/1" && lit != "/dev/fd/2" {
				found = true
			}
		}
		return true
	})
	return found
}

// FuzzRuleMatch checks the rule matcher: no panic on any rule or command; an exact rule built from a
// static command matches that command; a deny rule that matches never lets the engine allow.
func FuzzRuleMatch(f *testing.F) {
	seeds := [][2]string{
		{"Bash(rm:*)", "timeout 5 rm x"}, {"Bash(git push:*)", "git push origin"}, {"Bash(git * --dry-run)", "git push --dry-run"},
		{"Bash", "ls"}, {"Read(./.env)", "cat .env"}, {"Edit(./src/**)", "touch src/a"}, {"Bash(npm run test *)", "npm run test x"},
		{"Bash(*)", ""}, {"Write(//tmp/**)", "echo > /tmp/x"}, {"Bash(a*b*c)", "axbxc"}, {"Bash(()", "x"}, {"Read(~/x)", "cat ~/x"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	ws, home := fixture(f)
	f.Fuzz(func(t *testing.T, rule, cmd string) {
		r, err := ParseRule(rule)
		if err != nil {
			return
		}
		r.compile(ws, home)
		_ = r.matchArgs(strings.Fields(cmd))
		_ = r.matchPath(shell.ResolvePath(ws, cmd, home))
		e, err := NewEngine(Policy{Deny: []string{rule}, Allow: []string{"Bash"}, Mode: ModeYolo, Workspace: ws, Home: home})
		if err != nil {
			t.Fatalf("rule %q parsed but the engine refused it: %v", rule, err)
		}
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		cls := Classify(cmd, e.Context(ws))
		for _, p := range cls.Parts {
			if _, ok := bashMatch([]Rule{r}, &p, false); ok && v.Decision == Allow {
				t.Fatalf("deny rule %q matches part %q of %q but the decision is allow", rule, p.Text, cmd)
			}
		}
		if v.Decision == Allow && cls.Dangerous {
			t.Fatalf("%q is dangerous but allowed", cmd)
		}
		// An exact rule for a plain command matches it.
		fields := strings.Fields(cmd)
		if len(fields) > 0 && strings.IndexFunc(cmd, func(r rune) bool { return !('a' <= r && r <= 'z' || r == ' ' || r == '-') }) < 0 {
			exact, err := ParseRule("Bash(" + strings.Join(fields, " ") + ")")
			if err == nil && !exact.matchArgs(fields) {
				t.Fatalf("exact rule %q does not match %q", exact.Raw, fields)
			}
		}
	})
}
