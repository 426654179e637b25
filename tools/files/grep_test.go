package files

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/permissions"
)

// hideRg leaves only git on PATH, so that grep has to use its Go searcher.
func hideRg(t *testing.T) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed for these tests:", err)
	}
	bin := t.TempDir()
	if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if _, err := exec.LookPath(rgProgram); err == nil {
		t.Fatal("rg is still on PATH")
	}
}

func needRg(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(rgProgram); err != nil {
		t.Fatal("rg is needed for this test (.ci/run installs ripgrep):", err)
	}
}

// grepCorpus is a workspace with the cases where two searchers could disagree.
func grepCorpus(t *testing.T) *fileHarness {
	h := newFileHarness(t)
	h.git("init", "-q")
	h.write(".gitignore", "ignored/\n*.tmp\n")
	h.write("main.go", "package main\n\nfunc main() {\n\tprintln(\"Needle\")\n}\n")
	h.write("lib/util.go", "package lib\n\n// needle in a comment\nfunc Needle() {}\n")
	h.write("lib/util_test.go", "package lib\n// NEEDLE test\n")
	h.write("docs/readme.md", "A needle\nno match here\nneedle at the end") // no final newline
	h.write("win.txt", "crlf needle\r\nneedle$\r\nlast\r\n")                // CRLF lines
	h.write("long.txt", "x "+strings.Repeat("é", 300)+" needle "+strings.Repeat("z", 6000)+"\n")
	h.write("mid.txt", strings.Repeat("a", 600)+" needle\n")                 // cut, but under rg's preview
	h.write("latin1.txt", "caf\xe9 needle\n")                                // invalid UTF-8
	h.write("image.bin", "needle\x00\x01\x02 needle\n")                      // binary: skipped
	h.write("late.dat", strings.Repeat("filler\n", 2000)+"needle\x00late\n") // NUL after the sniff: text
	h.write(".hidden/cfg", "needle hidden\n")
	h.write("ignored/x.go", "needle ignored\n")
	h.write("scratch.tmp", "needle ignored\n")
	h.write("odd:name -x.go", "needle with colon\n")
	h.write("-dash.go", "needle dash\n")
	h.write("many.txt", strings.Repeat("needle line\n", 300))
	return h
}

func TestGrepGivesTheSameResultsWithAndWithoutRg(t *testing.T) {
	queries := []map[string]any{
		{"pattern": "needle"},
		{"pattern": "needle", "ignore_case": true},
		{"pattern": "needle", "glob": "*.go"},
		{"pattern": "needle", "glob": "lib/**", "ignore_case": true},
		{"pattern": "needle$"},
		{"pattern": `needle\$`},
		{"pattern": "^func "},
		{"pattern": "Needle", "path": "lib"},
		{"pattern": "needle", "path": "main.go", "ignore_case": true},
		{"pattern": "needle", "path": "ignored"},
		{"pattern": "nothing matches this"},
		{"pattern": "-x"},
		{"pattern": `café|caf`},
		{"pattern": "needle", "glob": "*.txt"},
	}
	h := grepCorpus(t)
	needRg(t)
	withRg := make([]string, len(queries))
	for i, q := range queries {
		withRg[i] = h.ok("grep", q)
	}
	hideRg(t)
	for i, q := range queries {
		if got := h.ok("grep", q); got != withRg[i] {
			t.Errorf("grep %v differs without rg:\n--- rg\n%s\n--- Go\n%s", q, withRg[i], got)
		}
	}

	// What the shared output looks like.
	got := h.ok("grep", map[string]any{"pattern": "needle", "glob": "*.go", "ignore_case": true})
	want := "-dash.go:1:needle dash\n" +
		"lib/util.go:3:// needle in a comment\n" +
		"lib/util.go:4:func Needle() {}\n" +
		"lib/util_test.go:2:// NEEDLE test\n" +
		"main.go:4:\tprintln(\"Needle\")\n" +
		"odd:name -x.go:1:needle with colon\n" +
		"(6 matches in 5 files)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGrepSkipsBinaryIgnoredAndGitButNotHidden(t *testing.T) {
	h := grepCorpus(t)
	for _, rg := range []bool{true, false} {
		t.Run(fmt.Sprintf("rg=%v", rg), func(t *testing.T) {
			if !rg {
				hideRg(t)
			}
			got := h.ok("grep", map[string]any{"pattern": "needle", "glob": "!many.txt"})
			for _, not := range []string{"image.bin", "ignored/", "scratch.tmp", ".git/"} {
				if strings.Contains(got, not) {
					t.Errorf("grep searched %s:\n%s", not, got)
				}
			}
			mustContain(t, got, ".hidden/cfg:1:needle hidden\n", "late.dat:2001:needle\x00late\n",
				"win.txt:1:crlf needle\n", "win.txt:2:needle$\n", "docs/readme.md:3:needle at the end\n",
				"latin1.txt:1:caf\uFFFD needle\n", "mid.txt:1:"+strings.Repeat("a", 500)+" … [line cut]\n")
			if strings.Contains(got, "\r") {
				t.Errorf("output keeps carriage returns:\n%q", got)
			}
			// An ignored directory named as the path is searched.
			mustContain(t, h.ok("grep", map[string]any{"pattern": "needle", "path": "ignored"}),
				"x.go:1:needle ignored\n(1 match in 1 file; paths are relative to ignored)")
		})
	}
}

func TestGrepCapsMatchesAndCountsTheRest(t *testing.T) {
	h := grepCorpus(t)
	for _, rg := range []bool{true, false} {
		t.Run(fmt.Sprintf("rg=%v", rg), func(t *testing.T) {
			if !rg {
				hideRg(t)
			}
			got := h.ok("grep", map[string]any{"pattern": "needle line", "path": "many.txt"})
			lines := strings.Split(got, "\n")
			if len(lines) != grepMaxResults+1 || lines[0] != "many.txt:1:needle line" || lines[199] != "many.txt:200:needle line" {
				t.Errorf("%d lines: first %q, last %q", len(lines), lines[0], lines[len(lines)-2])
			}
			mustContain(t, got, "(200 of 300 matches shown, in 1 file; 100 more not shown")
		})
	}
}

func TestGrepRefusesBadPatternsAndPaths(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	mustContain(t, h.fails("grep", map[string]any{"pattern": "a("}), "not a valid regular expression")
	mustContain(t, h.fails("grep", map[string]any{"pattern": "a", "glob": "[x"}), "not a valid pattern")
	mustContain(t, h.fails("grep", map[string]any{"pattern": "a", "path": "missing"}), "cannot search missing")
	mustContain(t, h.fails("grep", map[string]any{"pattern": ""}), "pattern is empty")
}

// Not parallel: it points rgProgram, which every grep reads, elsewhere.
func TestGrepFallsBackWhenRgCannotRun(t *testing.T) {
	h := newFileHarness(t)
	h.write("a.txt", "needle\n")
	saved := rgProgram
	t.Cleanup(func() { rgProgram = saved })
	rgProgram = "warden-no-such-rg"
	mustContain(t, h.ok("grep", map[string]any{"pattern": "needle"}), "a.txt:1:needle\n(1 match in 1 file)")
	// A pattern Go accepts and rg refuses (\Q…\E) is still answered, by the Go searcher.
	rgProgram = saved
	needRg(t)
	mustContain(t, h.ok("grep", map[string]any{"pattern": `\Qneedle\E`}), "a.txt:1:needle\n")
}

func TestGrepOverADirectoryLeavesSecretsOut(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.env.Secret = func(p string) bool { return permissions.IsSecretPath(p, h.home) }
	h.write(".env", "API_KEY=sk-live-123\n")
	h.write("config/prod.pem", "API_KEY in a key file\n")
	h.write("app.go", "key := os.Getenv(\"API_KEY\")\n")
	got := h.ok("grep", map[string]any{"pattern": "API_KEY"})
	if strings.Contains(got, "sk-live") || strings.Contains(got, "prod.pem") {
		t.Errorf("a directory search printed a secret file:\n%s", got)
	}
	mustContain(t, got, "app.go:1:", "2 files that may hold secrets were not searched")
	// Named on its own, the file was the engine's to decide; grep then searches it.
	mustContain(t, h.ok("grep", map[string]any{"pattern": "API_KEY", "path": ".env"}), "sk-live-123")
}

// A Read deny rule naming a directory through a symbolic link (cfg -> real; ext -> a directory outside
// the workspace) keeps the files it leads to out of a search, whichever name the search reaches them by:
// the engine's SearchRule judges the resolved path against the rule's own links resolved as well.
func TestGrepLeavesOutWhatARuleNamesThroughALink(t *testing.T) {
	for _, rg := range []bool{true, false} {
		t.Run(map[bool]string{true: "rg", false: "go"}[rg], func(t *testing.T) {
			if rg {
				needRg(t)
			} else {
				hideRg(t)
			}
			h := newFileHarness(t)
			outside := permissions.ResolvePath("/", t.TempDir(), "")
			h.write("real/prod.yml", "MARKER-IN\n")
			h.write("notes.md", "MARKER is a word\n")
			if err := os.WriteFile(filepath.Join(outside, "key.txt"), []byte("MARKER-OUT\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("real", h.path("cfg")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, h.path("ext")); err != nil {
				t.Fatal(err)
			}
			e, err := permissions.NewEngine(permissions.Policy{Workspace: h.ws, Home: h.home,
				Deny: []string{"Read(./cfg/**)", "Read(./ext/**)"}})
			if err != nil {
				t.Fatal(err)
			}
			h.env.SearchRule, h.env.HardLinks = e.SearchRule, e.HardLinks
			for _, c := range []struct {
				path string
				kept []string
			}{
				{"", []string{"notes.md:1:MARKER is a word", "`Read(./cfg/**)` denies reading it"}},
				{"cfg", []string{"`Read(./cfg/**)` denies reading it"}},
				{"real", []string{"`Read(./cfg/**)` denies reading it"}},
				{"ext", []string{"`Read(./ext/**)` denies reading it"}},
				{outside, []string{"`Read(./ext/**)` denies reading it"}},
			} {
				args := map[string]any{"pattern": "MARKER"}
				if c.path != "" {
					args["path"] = c.path
				}
				got := h.ok("grep", args)
				if strings.Contains(got, "MARKER-IN") || strings.Contains(got, "MARKER-OUT") {
					t.Errorf("grep in %q printed a file a rule denies through a link:\n%s", c.path, got)
				}
				mustContain(t, got, c.kept...)
			}
		})
	}
}

// A program's configuration holding a credential (a .yarnrc.yml with a token, a bare repository's config
// with an extraHeader, a .gitconfig with a remote password), which read_file and cat ask about, is left
// out of a directory search too, while such files without one are searched.
func TestGrepOverADirectoryLeavesOutConfigurationHoldingACredential(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.env.Secret = func(p string) bool { return permissions.IsSecretPath(p, h.home) }
	h.write(".yarnrc.yml", "npmAuthToken: MARK-yarn-0123456789\n")
	h.write("fixture.git/config", "[http \"https://x.example/\"]\n\textraheader = AUTHORIZATION: basic MARK-header-0123456789\n")
	h.write(".gitconfig", "[remote \"origin\"]\n\turl = https://u:MARK-password-0123@example.com/r.git\n")
	h.write("clean/.yarnrc.yml", "npmAuthToken: \"${NPM_TOKEN}\" # MARK-clean\n")
	h.write("notes.txt", "MARK-notes\n")
	got := h.ok("grep", map[string]any{"pattern": "MARK"})
	for _, leak := range []string{"MARK-yarn", "MARK-header", "MARK-password"} {
		if strings.Contains(got, leak) {
			t.Errorf("the search printed %s:\n%s", leak, got)
		}
	}
	mustContain(t, got, "notes.txt:1:MARK-notes", "clean/.yarnrc.yml:1:", "3 files that may hold secrets were not searched")
}
