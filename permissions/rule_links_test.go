package permissions

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// linkedRuleFixture is a workspace whose rules name directories and files through symbolic links:
// cfg -> real (inside), ext -> a directory outside the workspace, one.yml -> open/one.yml.
func linkedRuleFixture(t *testing.T) (ws, outside string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, outside = filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for _, f := range []string{"ws/real/prod.yml", "ws/open/one.yml", "ws/real/dev.yml", "ws/open/readme.md", "outside/key.txt"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("MARKER\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"cfg": "real", "ext": outside, "one.yml": "open/one.yml"} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}

// A rule naming a path through a symbolic link covers what the link leads to, as the kernel would open
// it: the file tools, the grep tool's search filter and the shell classifier all resolve the paths they
// judge, so a rule matched only as written let `cfg/prod.yml` (resolved to real/prod.yml) through.
func TestRulesNamingLinksCoverTheirTargets(t *testing.T) {
	ws, outside := linkedRuleFixture(t)
	for _, kind := range []Decision{Deny, Ask} {
		rules := []string{"Read(./cfg/**)", "Read(./ext/**)", "Read(./one.yml)", "Edit(./cfg/**)", "Write(./ext)"}
		p := Policy{Workspace: ws, Home: filepath.Join(ws, "..", "home")}
		if kind == Deny {
			p.Deny = rules
		} else {
			p.Ask = rules
		}
		e, err := NewEngine(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			req  Request
			want Decision
			rule string
		}{
			{Request{Kind: Read, Path: "cfg/prod.yml"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Read, Path: "real/prod.yml"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Read, Path: "cfg"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Read, Path: "ext/key.txt"}, kind, "Read(./ext/**)"},
			{Request{Kind: Read, Path: filepath.Join(outside, "key.txt")}, kind, "Read(./ext/**)"},
			{Request{Kind: Read, Path: "open/one.yml"}, kind, "Read(./one.yml)"},
			{Request{Kind: Read, Path: "one.yml"}, kind, "Read(./one.yml)"},
			{Request{Kind: Edit, Path: "real/dev.yml"}, kind, "Edit(./cfg/**)"},
			{Request{Kind: Write, Path: filepath.Join(outside, "new.txt")}, kind, "Write(./ext)"},
			{Request{Kind: Exec, Command: "cat cfg/prod.yml"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Exec, Command: "cat real/prod.yml"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Exec, Command: "cat " + filepath.Join(outside, "key.txt")}, kind, "Read(./ext/**)"},
			{Request{Kind: Exec, Command: "grep -r MARKER real"}, kind, "Read(./cfg/**)"},
			{Request{Kind: Exec, Command: "head open/one.yml"}, kind, "Read(./one.yml)"},
			// What no rule names through any link stays as it was.
			{Request{Kind: Read, Path: "open/readme.md"}, Allow, ""},
			{Request{Kind: Exec, Command: "cat open/readme.md"}, Allow, ""},
		} {
			c.req.Cwd = ws
			v := e.Decide(c.req)
			if v.Decision != c.want || v.Rule != c.rule {
				t.Errorf("%s rules, %+v: %s by %q (%s), want %s by %q", kind, c.req, v.Decision, v.Rule, v.Reason, c.want, c.rule)
			}
		}
		// The grep tool leaves a file out of a directory's search by SearchRule, on the file's resolved path.
		for _, c := range []struct{ path, rule string }{
			{filepath.Join(ws, "real", "prod.yml"), "Read(./cfg/**)"},
			{filepath.Join(ws, "cfg", "prod.yml"), "Read(./cfg/**)"},
			{filepath.Join(outside, "key.txt"), "Read(./ext/**)"},
			{filepath.Join(ws, "open", "one.yml"), "Read(./one.yml)"},
			{filepath.Join(ws, "open", "readme.md"), ""},
		} {
			rule, ask := e.SearchRule(c.path)
			if rule != c.rule || rule != "" && ask != (kind == Ask) {
				t.Errorf("%s rules: SearchRule(%s) = %q, ask %v; want %q", kind, c.path, rule, ask, c.rule)
			}
		}
		// The read-only jail masks what SearchRule finds below these roots, so the targets are among them.
		roots := e.ReadRuleRoots()
		for _, want := range []string{filepath.Join(ws, "cfg"), filepath.Join(ws, "real"), outside, filepath.Join(ws, "open", "one.yml")} {
			if !slices.Contains(roots, want) {
				t.Errorf("%s rules: ReadRuleRoots() = %q, missing %s", kind, roots, want)
			}
		}
	}
}

// Only the literal start of a pattern is resolved: a link met below a wildcard is not, and a pattern
// with no link in it gets no second form.
func TestRuleLinkFormIsItsLiteralStartResolved(t *testing.T) {
	ws, outside := linkedRuleFixture(t)
	for _, c := range []struct{ pattern, want string }{
		{"./cfg/**", escapeGlob(ws) + "/real/**"},
		{"./cfg/*.yml", escapeGlob(ws) + "/real/*.yml"},
		{"./cfg", escapeGlob(ws) + "/real"},
		{"./ext/**/*.txt", escapeGlob(outside) + "/**/*.txt"},
		{"./one.yml", escapeGlob(ws) + "/open/one.yml"},
		{"./real/**", ""},
		{"./*/prod.yml", ""},
		{"//**", ""},
		{"./missing/**", ""},
	} {
		r, err := ParseRule("Read(" + c.pattern + ")")
		if err != nil {
			t.Fatal(err)
		}
		r.compile(ws, "")
		r.resolveLinks()
		if r.linkGlob != c.want {
			t.Errorf("Read(%s): link form %q, want %q", c.pattern, r.linkGlob, c.want)
		}
	}
}

// An allow rule naming a link allows what is read under the link's name only, as before: a link never
// makes Warden let more through.
func TestAllowRuleNamingALinkAllowsNoMore(t *testing.T) {
	ws, outside := linkedRuleFixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: filepath.Join(ws, "..", "home"), Allow: []string{"Read(./ext/**)", "Edit(./cfg/**)"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []Request{{Kind: Read, Path: "ext/key.txt"}, {Kind: Read, Path: filepath.Join(outside, "key.txt")}, {Kind: Edit, Path: "cfg/prod.yml"}} {
		req.Cwd = ws
		if v := e.Decide(req); v.Decision != Ask {
			t.Errorf("%+v: %s by %q (%s), want ask", req, v.Decision, v.Rule, v.Reason)
		}
	}
}
