package ignore

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-cli/warden/safefile"
)

// These tests build real repositories and compare every answer with git's own (`git check-ignore` and
// `git ls-files --others --exclude-standard`), so the matcher is held to what git does rather than to
// what its documentation says.

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (.ci/run installs it)")
	}
}

// isolate gives the test its own home and no system configuration, for git and for the matcher alike.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	t.Setenv("GIT_CONFIG_COUNT", "")
	return home
}

func git(t *testing.T, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		// check-ignore exits 1 when nothing is ignored.
		if ee, ok := err.(*exec.ExitError); !(ok && ee.ExitCode() == 1 && args[0] == "check-ignore") {
			t.Fatalf("git %v: %v\n%s", args, err, errb.String())
		}
	}
	return out.String()
}

// writeTree creates files; a path ending in "/" is an empty directory, "-> target" makes a symlink.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// allPaths lists every path below root except .git, with whether it is a directory.
func allPaths(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = d.IsDir()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compareWithGit checks Match for every path below root (a work tree or a directory inside one)
// against git check-ignore, and Walk against git ls-files (tracked and untracked files git does not ignore).
func compareWithGit(t *testing.T, root string) {
	t.Helper()
	m, err := ForDir(root)
	if err != nil {
		t.Fatal(err)
	}
	paths := allPaths(t, root)
	names := make([]string, 0, len(paths))
	for p := range paths {
		names = append(names, p)
	}
	slices.Sort(names)
	out := git(t, root, strings.Join(names, "\x00")+"\x00", "check-ignore", "--no-index", "--stdin", "-z")
	ignored := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			ignored[p] = true
		}
	}
	if os.Getenv("IGNORE_STATS") != "" {
		t.Logf("%d paths, %d ignored", len(names), len(ignored))
	}
	for _, p := range names {
		if got := m.Match(p, paths[p]); got != ignored[p] {
			t.Errorf("Match(%q, dir=%v) = %v, git check-ignore says %v", p, paths[p], got, ignored[p])
		}
	}

	var walked []string
	err = m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			walked = append(walked, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, p := range strings.Split(git(t, root, "", "ls-files", "--cached", "--others", "--exclude-standard", "-z"), "\x00") {
		if p != "" {
			listed = append(listed, p)
		}
	}
	slices.Sort(listed)
	slices.Sort(walked)
	if !slices.Equal(walked, listed) {
		t.Errorf("Walk listed %d files, git ls-files %d\nonly in Walk: %q\nonly in git: %q", len(walked), len(listed),
			minus(walked, listed), minus(listed, walked))
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	needGit(t)
	isolate(t)
	dir := t.TempDir()
	git(t, dir, "", "init", "-q", ".")
	writeTree(t, dir, files)
	return dir
}

func TestMatchesGit(t *testing.T) {
	cases := map[string]map[string]string{
		"basics": {
			".gitignore": "*.log\nbuild/\n/rootonly\ndoc/*.txt\n**/deep\na/**/b\nx/**\n!x/keep\n\\#hash\n\\!bang\n" +
				"space\\ \ntrail   \n[abc].c\n[!a-c].d\n[[:digit:]]*.n\n?.q\n# comment\n\n*.tmp/\n",
			"app.log": "", "src/app.log": "", "build/out": "", "src/build/out": "", "rootonly": "", "src/rootonly": "",
			"doc/a.txt": "", "doc/sub/a.txt": "", "src/doc/a.txt": "", "deep": "", "p/q/deep": "", "a/b": "", "a/m/n/b": "",
			"x/y": "", "x/keep": "", "x/z/keep": "", "#hash": "", "!bang": "", "space ": "", "trail": "", "a.c": "", "d.c": "",
			"x.d": "", "b.d": "", "1abc.n": "", "abc.n": "", "z.q": "", "zz.q": "", "file.tmp": "", "dir.tmp/f": "",
			"keep.txt": "", "src/main.go": "",
		},
		"negation and nesting": {
			".gitignore": "*.gen\n!keep.gen\nlogs/\n!logs/important\ncache/*\n!cache/.keep\n",
			"a.gen":      "", "keep.gen": "", "sub/keep.gen": "", "logs/important": "", "logs/other": "",
			"cache/.keep": "", "cache/data": "", "cache/sub/x": "",
			"sub/.gitignore": "!a.gen\n/local\nnested/\n*.md\n",
			"sub/a.gen":      "", "sub/b.gen": "", "sub/local": "", "sub/x/local": "", "sub/nested/f": "", "sub/README.md": "",
			"README.md": "", "sub/deeper/.gitignore": "!*.md\n", "sub/deeper/x.md": "", "sub/deeper/y.gen": "",
		},
		"directory only": {
			".gitignore": "out/\nlink/\nfile/\n/top/\n**/mid/**/\n",
			"out/a":      "", "x/out/b": "", "file": "", "link": "-> out", "top/a": "", "x/top/a": "", "mid/a/b/c": "",
			"q/mid/r/s": "", "mid/file": "",
		},
		"double star": {
			".gitignore": "**/foo\nabc/**\na/**/z\n**/q/**\nlib**/x\nm/**n\n",
			"foo":        "", "a/foo": "", "a/b/foo/c": "", "abc/1": "", "abc/2/3": "", "xabc/1": "", "a/z": "", "a/b/c/z": "",
			"b/a/z": "", "q/1": "", "r/q/2/3": "", "lib/x": "", "libs/x": "", "lib/s/x": "", "m/n": "", "m/an": "", "m/a/n": "",
		},
		"classes and escapes": {
			".gitignore": "[[:upper:]]*\n\\[x]\n*\\*\nq[]]\nr[-a]\n\\ lead\ntab\t\n",
			"Upper":      "", "lower": "", "[x]": "", "x": "", "star*": "", "q]": "", "r-": "", "ra": "", " lead": "", "tab\t": "",
		},
		"crlf and bom": {
			".gitignore": "\xef\xbb\xbfbom.txt\r\ncrlf.txt\r\nplain.txt\n",
			"bom.txt":    "", "crlf.txt": "", "plain.txt": "", "other.txt": "",
		},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			compareWithGit(t, newRepo(t, files))
		})
	}
}

func TestInfoExcludeAndExcludesFile(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"a.one": "", "a.two": "", "a.three": "", "keep.three": "", "a.four": "", "sub/a.two": "",
		".gitignore": "!keep.three\n",
	})
	home := os.Getenv("HOME")
	writeTree(t, dir, map[string]string{".git/info/exclude": "*.one\n!a.three\n"})
	writeTree(t, home, map[string]string{
		".gitconfig":         "[core]\n\texcludesFile = ~/my-ignore\n[include]\n\tpath = more.inc\n",
		"my-ignore":          "*.two\n*.three\n",
		"more.inc":           "[core]\n\tignoreCase = false\n",
		".config/git/ignore": "*.four\n",
	})
	compareWithGit(t, dir)
	m, _ := ForDir(dir)
	if !m.Match("a.two", false) || m.Match("a.three", false) || m.Match("a.four", false) {
		t.Error("excludesFile or info/exclude not applied as expected")
	}

	// Without core.excludesFile, git reads $XDG_CONFIG_HOME/git/ignore.
	if err := os.Remove(filepath.Join(home, ".gitconfig")); err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir)
	if m, _ := ForDir(dir); !m.Match("a.four", false) {
		t.Error("the default excludes file was not read")
	}
}

func TestIncludeIfGitdir(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.x": "", "a.y": ""})
	home := os.Getenv("HOME")
	writeTree(t, home, map[string]string{
		".gitconfig": fmt.Sprintf("[includeIf \"gitdir:%s/\"]\n\tpath = ~/inc\n[includeIf \"gitdir:/nowhere/\"]\n\tpath = ~/other\n", dir),
		"inc":        "[core]\n\texcludesFile = ~/ign\n",
		"other":      "[core]\n\texcludesFile = ~/wrong\n",
		"ign":        "*.x\n",
		"wrong":      "*.y\n",
	})
	compareWithGit(t, dir)
	if m, _ := ForDir(dir); !m.Match("a.x", false) || m.Match("a.y", false) {
		t.Error("includeIf gitdir was not followed as git does")
	}
}

func TestIgnoreCase(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitignore": "*.LOG\nBuild/\n[a-c]*.z\n", "x.log": "", "build/y": "", "B.z": "", "d.z": ""})
	git(t, dir, "", "config", "core.ignoreCase", "true")
	compareWithGit(t, dir)
	if m, _ := ForDir(dir); !m.Match("x.log", false) {
		t.Error("core.ignoreCase was not honoured")
	}
}

// A .gitignore that is a symbolic link is not read, as git refuses to follow it.
func TestSymlinkedGitignoreIsNotRead(t *testing.T) {
	dir := newRepo(t, map[string]string{"rules": "*.x\n", "sub/.gitignore": "-> ../rules", "sub/a.x": "", "a.x": ""})
	compareWithGit(t, dir)
}

// A matcher rooted in a subdirectory applies the .gitignore files above it, from the work tree's top.
func TestRootBelowTop(t *testing.T) {
	dir := newRepo(t, map[string]string{
		".gitignore": "*.o\n/sub/gen/\nsub/only\n", "sub/a.o": "", "sub/gen/x": "", "sub/only": "", "sub/keep": "",
		"sub/.gitignore": "!b.o\n", "sub/b.o": "", "sub/deeper/c.o": "",
	})
	root := filepath.Join(dir, "sub")
	m, err := ForDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{"a.o": true, "gen": true, "gen/x": true, "only": true, "keep": false, "b.o": false, "deeper/c.o": true} {
		if got := m.Match(path, path == "gen"); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
	compareWithGit(t, root)
}

// A linked work tree reads info/exclude from the repository it belongs to.
func TestLinkedWorktree(t *testing.T) {
	dir := newRepo(t, map[string]string{"f": ""})
	git(t, dir, "", "-c", "user.name=t", "-c", "user.email=t@t", "add", "f")
	git(t, dir, "", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "", "worktree", "add", "-q", wt)
	writeTree(t, dir, map[string]string{".git/info/exclude": "*.ex\n"})
	writeTree(t, wt, map[string]string{"a.ex": "", "b": ""})
	repo, ok := FindRepo(wt, nil, nil)
	if !ok || repo.Top != wt || repo.CommonDir != filepath.Join(dir, ".git") {
		t.Fatalf("FindRepo(%s) = %+v, %v", wt, repo, ok)
	}
	compareWithGit(t, wt)
}

// Outside a repository the tree's .gitignore files still apply.
func TestOutsideRepository(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".gitignore": "node_modules/\n*.pyc\n", "node_modules/x/y": "", "a.pyc": "", "a.py": ""})
	m, err := ForDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		got = append(got, rel)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "a.py"}; !slices.Equal(got, want) {
		t.Errorf("Walk = %q, want %q", got, want)
	}
}

// Random patterns against random paths, compared with git: what the hand-written cases miss.
func TestRandomPatternsMatchGit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "b", "ab", "x.go", "y.txt", "*", "**", "?", "[ab]", "[!a]", "*.go", "a*", "*b", "a**",
		"**b", "[[:alpha:]]*", "\\a", "a?", "*.*"}
	names := []string{"a", "b", "ab", "ba", "x.go", "y.txt", "aa.go", "b.txt"}
	rounds := 16
	if n, err := strconv.Atoi(os.Getenv("IGNORE_ROUNDS")); err == nil {
		rounds = n
	}
	for round := range rounds {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			var ig strings.Builder
			for range 6 {
				var segs []string
				for range 1 + rng.IntN(3) {
					segs = append(segs, parts[rng.IntN(len(parts))])
				}
				line := strings.Join(segs, "/")
				switch rng.IntN(4) {
				case 0:
					line = "/" + line
				case 1:
					line += "/"
				}
				if rng.IntN(3) == 0 {
					line = "!" + line
				}
				ig.WriteString(line + "\n")
			}
			files := map[string]string{".gitignore": ig.String()}
			var sub strings.Builder
			for range 3 {
				line := parts[rng.IntN(len(parts))]
				if rng.IntN(2) == 0 {
					line = "!" + line
				}
				sub.WriteString(line + "\n")
			}
			subDir := names[rng.IntN(len(names))]
			files[subDir+"/.gitignore"] = sub.String()
			for range 40 {
				var segs []string
				for range 1 + rng.IntN(4) {
					segs = append(segs, names[rng.IntN(len(names))])
				}
				files[strings.Join(segs, "/")] = ""
			}
			// A path that is both a file and a directory's name cannot exist: keep the deeper one.
			for p := range files {
				for q := range files {
					if strings.HasPrefix(q, p+"/") {
						delete(files, p)
					}
				}
			}
			dir := newRepo(t, files)
			compareWithGit(t, dir)
			if t.Failed() {
				t.Logf(".gitignore:\n%s%s/.gitignore:\n%s", ig.String(), subDir, sub.String())
			}
		})
	}
}

// An includeIf on a remote's URL is followed when a remote matches, as git does.
func TestIncludeIfHasconfig(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.x": "", "a.y": ""})
	git(t, dir, "", "remote", "add", "origin", "https://example.com/team/repo.git")
	home := os.Getenv("HOME")
	writeTree(t, home, map[string]string{
		".gitconfig": "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = ~/inc\n" +
			"[includeIf \"hasconfig:remote.*.url:git@elsewhere:**\"]\n\tpath = ~/other\n",
		"inc":   "[core]\n\texcludesFile = ~/ign\n",
		"other": "[core]\n\tignoreCase = true\n",
		"ign":   "*.x\n",
	})
	compareWithGit(t, dir)
	if m, _ := ForDir(dir); !m.Match("a.x", false) || m.Match("a.y", false) || m.Match("A.X", false) {
		t.Error("includeIf hasconfig was not followed as git does")
	}
}

// A repository's rules that lead to a secret place are not read: what is ignored shows in what a search
// lists, and a key's lines as patterns would let a model guess them file by file.
func TestRulesLinkedToASecretAreNotRead(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "", "b.txt": ""})
	home := os.Getenv("HOME")
	writeTree(t, home, map[string]string{".ssh/id_rsa": "a.txt\n", ".ssh/other": "b.txt\n"})
	os.Remove(filepath.Join(dir, ".git", "info", "exclude"))
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(dir, ".git", "info", "exclude")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "", "config", "core.excludesFile", filepath.Join(home, ".ssh", "other"))
	secret := func(p string) bool { return strings.HasPrefix(p, filepath.Join(home, ".ssh")+"/") }
	m, err := ForDirWith(dir, safefile.NewOpener([]string{dir}, secret, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Match("a.txt", false) || m.Match("b.txt", false) {
		t.Error("rules were read from a secret place")
	}
	// Without an Opener of the caller's, a link out of the work tree is still not followed.
	if m, _ := ForDir(dir); m.Match("a.txt", false) {
		t.Error("info/exclude was read through a link out of the work tree")
	}
}
