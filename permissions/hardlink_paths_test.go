package permissions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions/shell"
)

// linkPathLab is a workspace whose .env, ~/.ssh/id_rsa and .git/config have other names that look
// harmless, with a.txt and b.txt one ordinary file under two names and plain.txt a file with one.
func linkPathLab(t *testing.T) *trustLab {
	t.Helper()
	l := newTrustLab(t)
	l.write(".env", "API_TOKEN=1\n")
	l.write(".git/config", "[core]\n")
	l.write(filepath.Join(l.home, ".ssh", "id_rsa"), "PRIVATE KEY\n")
	l.write("a.txt", "a\n")
	l.write("plain.txt", "p\n")
	for _, ln := range [][2]string{
		{".env", "hl"}, {".env", "docs/notes.txt"}, {filepath.Join(l.home, ".ssh", "id_rsa"), "key.txt"},
		{".git/config", "gitcfg"}, {"a.txt", "b.txt"},
	} {
		from := ln[0]
		if !filepath.IsAbs(from) {
			from = filepath.Join(l.ws, from)
		}
		to := filepath.Join(l.ws, ln[1])
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(from, to); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// TestFileToolPathsSeeThroughHardLinks: read_file, edit_file and write_file are decided under every name
// of the file they name, as a shell read is: hl, a hard link to .env, is read and changed as .env.
func TestFileToolPathsSeeThroughHardLinks(t *testing.T) {
	l := linkPathLab(t)
	engine := func(mode Mode, rules ...string) *Engine {
		p := Policy{Workspace: l.ws, Home: l.home, Mode: mode}
		for _, r := range rules {
			kind, rule, _ := strings.Cut(r, " ")
			switch kind {
			case "allow":
				p.Allow = append(p.Allow, rule)
			case "deny":
				p.Deny = append(p.Deny, rule)
			case "ask":
				p.Ask = append(p.Ask, rule)
			}
		}
		e, err := NewEngine(p)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tc := range []struct {
		kind  Kind
		path  string
		mode  Mode
		rules []string
		want  Decision
		says  string
	}{
		{Read, "hl", ModeDefault, nil, Ask, "`hl` (a hard link to `.env`), which may hold secrets"},
		{Read, "docs/notes.txt", ModeDefault, nil, Ask, "a hard link to `.env`"},
		{Read, "key.txt", ModeDefault, nil, Ask, "a hard link to `~/.ssh/id_rsa`"},
		{Read, "hl", ModeDefault, []string{"deny Read(./.env)"}, Deny, "denied by `Read(./.env)`"},
		{Read, "hl", ModeDefault, []string{"ask Read(./.env)"}, Ask, "`Read(./.env)` asks about"},
		{Read, "hl", ModeDefault, []string{"allow Read(./.env)"}, Allow, ""},
		{Read, "hl", ModeYolo, nil, Allow, ""},
		{Read, "b.txt", ModeDefault, []string{"deny Read(./.env)"}, Allow, ""},
		{Read, "plain.txt", ModeDefault, nil, Allow, ""},
		{Edit, "hl", ModeAcceptEdits, nil, Ask, "accept-edits allows only edits that show what they change"},
		{Write, "docs/notes.txt", ModeAcceptEdits, nil, Ask, "a hard link to `.env`"},
		{Edit, "hl", ModeAcceptEdits, []string{"allow Edit(./.env)"}, Allow, ""},
		{Edit, "hl", ModeYolo, []string{"deny Edit(./.env)"}, Deny, "denied by `Edit(./.env)`"},
		{Write, "hl", ModeYolo, []string{"ask Write(./.env)"}, Ask, "`Write(./.env)` asks about"},
		{Edit, "hl", ModeDefault, []string{"allow Edit(./hl)", "ask Edit(./.env)"}, Ask, "`Edit(./.env)` asks about"},
		{Edit, "gitcfg", ModeAcceptEdits, nil, Ask, "a write to git's directory"},
		{Edit, "key.txt", ModeAcceptEdits, nil, Ask, "outside the workspace"},
		{Edit, "b.txt", ModeAcceptEdits, nil, Allow, ""},
		{Edit, "plain.txt", ModeAcceptEdits, nil, Allow, ""},
	} {
		v := engine(tc.mode, tc.rules...).Decide(Request{Kind: tc.kind, Path: filepath.Join(l.ws, tc.path), Cwd: l.ws})
		if v.Decision != tc.want || !strings.Contains(v.Reason, tc.says) {
			t.Errorf("%v %s (%s, %v): %s (%s), want %s saying %q", tc.kind, tc.path, tc.mode, tc.rules, v.Decision, v.Reason, tc.want, tc.says)
		}
	}
	// Asked about .env through hl, the person is offered the rule that reads .env, which then answers.
	v := engine(ModeDefault).Decide(Request{Kind: Read, Path: "hl", Cwd: l.ws})
	if v.SuggestedRule != "Read(./.env)" {
		t.Errorf("suggested %q, want Read(./.env)", v.SuggestedRule)
	}
}

// TestHardLinkSearchBound: past the bound the file tools ask about a file with other names, as the
// shell does, and leave files with one name alone; yolo and a rule naming the file still allow it.
func TestHardLinkSearchBound(t *testing.T) {
	l := linkPathLab(t)
	defer func(n int) { shell.MaxLinkSearch = n }(shell.MaxLinkSearch)
	shell.MaxLinkSearch = 2
	plain := l.engine()
	for path, want := range map[string]Decision{"b.txt": Ask, "plain.txt": Allow} {
		v := plain.Decide(Request{Kind: Read, Path: path, Cwd: l.ws})
		if v.Decision != want {
			t.Errorf("read %s past the bound: %s (%s), want %s", path, v.Decision, v.Reason, want)
		}
		if want == Ask && !strings.Contains(v.Reason, "could not all look for") {
			t.Errorf("read %s past the bound: %s", path, v.Reason)
		}
		if v := plain.Decide(Request{Kind: Exec, Command: "cat " + path, Cwd: l.ws}); v.Decision != want {
			t.Errorf("cat %s past the bound: %s (%s), want %s", path, v.Decision, v.Reason, want)
		}
	}
	yolo, _ := NewEngine(Policy{Workspace: l.ws, Home: l.home, Mode: ModeYolo})
	ruled, _ := NewEngine(Policy{Workspace: l.ws, Home: l.home, Allow: []string{"Read(./b.txt)"}})
	for _, e := range []*Engine{yolo, ruled} {
		if v := e.Decide(Request{Kind: Read, Path: "b.txt", Cwd: l.ws}); v.Decision != Allow {
			t.Errorf("read b.txt past the bound: %s (%s), want allowed", v.Decision, v.Reason)
		}
	}
	if _, complete := plain.HardLinks([]string{filepath.Join(l.ws, "b.txt")}); complete {
		t.Error("HardLinks says its search past the bound was complete")
	}
}

// TestHardLinksForASearch: the grep tool's one search finds each linked file's other names and leaves
// files with one name out.
func TestHardLinksForASearch(t *testing.T) {
	l := linkPathLab(t)
	var paths []string
	for _, p := range []string{"hl", "b.txt", "plain.txt", "key.txt"} {
		paths = append(paths, filepath.Join(l.ws, p))
	}
	others, complete := l.engine().HardLinks(paths)
	if !complete {
		t.Fatal("incomplete search of a small workspace")
	}
	want := map[string][]string{
		"hl":      {filepath.Join(l.ws, ".env"), filepath.Join(l.ws, "docs", "notes.txt")},
		"b.txt":   {filepath.Join(l.ws, "a.txt")},
		"key.txt": {filepath.Join(l.home, ".ssh", "id_rsa")},
	}
	if len(others) != len(want) {
		t.Errorf("entries for %d files, want %d: %v", len(others), len(want), others)
	}
	for name, w := range want {
		got := slices.Sorted(slices.Values(others[filepath.Join(l.ws, name)]))
		if !slices.Equal(got, w) {
			t.Errorf("%s: other names %v, want %v", name, got, w)
		}
	}
}
