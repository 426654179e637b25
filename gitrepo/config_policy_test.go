package gitrepo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-cli/warden/safefile"
)

// gitList runs `git config --list` in dir with home as HOME and nothing of the machine's, and returns
// key=value lines in git's order.
func gitList(t *testing.T, dir, home string, env ...string) []string {
	t.Helper()
	cmd := exec.Command("git", "config", "--list", "-z")
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git config --list: %v: %s", err, errb.String())
	}
	var lines []string
	for _, item := range strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00") {
		k, v, ok := strings.Cut(item, "\n")
		if !ok {
			v = "true"
		}
		lines = append(lines, canonicalKey(k)+"="+v)
	}
	return lines
}

func entryLines(cfg Config) []string {
	var lines []string
	for _, e := range cfg.Entries {
		v := e.Value
		if e.NoValue {
			v = "true"
		}
		lines = append(lines, e.Key+"="+v)
	}
	return lines
}

func envOf(vars ...string) Env {
	return func(name string) (string, bool) {
		for _, v := range vars {
			if k, val, _ := strings.Cut(v, "="); k == name {
				return val, true
			}
		}
		if name == "GIT_CONFIG_NOSYSTEM" {
			return "1", true
		}
		return "", false
	}
}

// TestLoadAsGitReadsWhatGitReads: with the policy AsGit, the chain holds exactly what `git config --list`
// prints, in its order, for includes whose conditions hold and do not (gitdir: absolute, relative,
// `./`-relative, with a trailing slash, case-folded; onbranch: born, unborn, detached; hasconfig on a
// remote's URL; a condition git does not know), config.worktree with and without
// extensions.worktreeConfig, and includes from the environment.
func TestLoadAsGitReadsWhatGitReads(t *testing.T) {
	needGit(t)
	rd := NewReader()
	root := tempDir(t)
	home := filepath.Join(root, "home")
	repo := filepath.Join(root, "Work", "proj")
	write(t, filepath.Join(repo, "a.txt"), "a\n")
	git(t, root, "init", "-q", repo)
	inc := func(name, key string) string {
		p := filepath.Join(home, "inc", name)
		write(t, p, fmt.Sprintf("[t]\n\t%s = yes\n", key))
		return p
	}
	gitconfig := strings.Join([]string{
		"[core]\n\texcludesFile = ~/ign",
		fmt.Sprintf("[includeIf \"gitdir:%s/\"]\n\tpath = %s", repo, inc("abs", "gitdirAbs")),
		"[includeIf \"gitdir:proj/\"]\n\tpath = inc/rel",
		"[includeIf \"gitdir:~/nowhere/\"]\n\tpath = " + inc("no", "gitdirNo"),
		"[includeIf \"gitdir/i:" + strings.ToLower(filepath.Join(root, "work")) + "/**\"]\n\tpath = " + inc("fold", "gitdirFold"),
		"[includeIf \"gitdir:" + strings.ToLower(filepath.Join(root, "work")) + "/**\"]\n\tpath = " + inc("nofold", "gitdirNoFold"),
		"[includeIf \"onbranch:main\"]\n\tpath = " + inc("main", "onMain"),
		"[includeIf \"onbranch:feat/\"]\n\tpath = " + inc("feat", "onFeat"),
		"[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = " + inc("url", "hasURL"),
		"[includeIf \"hasconfig:remote.*.url:git@elsewhere:*\"]\n\tpath = " + inc("nourl", "hasNoURL"),
		"[includeIf \"nosuch:x\"]\n\tpath = " + inc("unknown", "unknown"),
		"[include]\n\tpath = ~/inc/plain",
	}, "\n") + "\n"
	write(t, filepath.Join(home, ".gitconfig"), gitconfig)
	write(t, filepath.Join(home, "inc", "rel"), "[t]\n\tgitdirRel = yes\n[include]\n\tpath = nested\n")
	write(t, filepath.Join(home, "inc", "nested"), "[t]\n\tnested = yes\n")
	write(t, filepath.Join(home, "inc", "plain"), "[t]\n\tplain = yes\n")
	// A `./` pattern is relative to the directory of the file it is in.
	write(t, filepath.Join(root, "Work", "dot.inc"), "[includeIf \"gitdir:./proj/\"]\n\tpath = "+inc("dot", "dotRel")+"\n")
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "[remote \"origin\"]\n\turl = https://example.com/x/y.git\n[include]\n\tpath = %s\n", filepath.Join(root, "Work", "dot.inc"))
	f.Close()
	write(t, filepath.Join(repo, ".git", "config.worktree"), "[t]\n\tworktree = yes\n")

	r, ok := rd.Find(repo, envOf(), nil)
	if !ok {
		t.Fatal("no repository")
	}
	compare := func(what string, env ...string) {
		t.Helper()
		want := gitList(t, repo, home, env...)
		cfg := rd.Load(r, LoadOptions{Env: envOf(env...), Home: home, Policy: AsGit})
		if cfg.Problem != "" {
			t.Errorf("%s: problem %s", what, cfg.Problem)
		}
		if got := entryLines(cfg); !slices.Equal(got, want) {
			t.Errorf("%s:\n got  %q\n want %q", what, got, want)
		}
	}
	compare("on main, unborn")
	git(t, repo, "add", "a.txt")
	git(t, repo, "commit", "-qm", "a")
	git(t, repo, "checkout", "-qb", "feat/x")
	compare("on feat/x")
	git(t, repo, "checkout", "-q", "--detach")
	compare("detached")
	git(t, repo, "config", "extensions.worktreeConfig", "true")
	compare("with extensions.worktreeConfig")
	compare("with an include from the environment", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=include.path",
		"GIT_CONFIG_VALUE_0="+filepath.Join(home, "inc", "plain"))

	// Everything reads every include whatever its condition, and config.worktree whenever it is there.
	all := rd.Load(r, LoadOptions{Env: envOf(), Home: home})
	for _, key := range []string{"t.gitdirno", "t.hasnourl", "t.unknown", "t.onfeat", "t.worktree"} {
		if _, ok := all.Last(key); !ok {
			t.Errorf("Everything left out %s", key)
		}
	}
}

// TestHasconfigRefusesAURLUnderAnIncludeIf: git refuses a remote's URL set in a file an includeIf brought
// in once a hasconfig condition is in use; the chain says so.
func TestHasconfigRefusesAURLUnderAnIncludeIf(t *testing.T) {
	needGit(t)
	rd := NewReader()
	root := tempDir(t)
	home := filepath.Join(root, "home")
	repo := filepath.Join(root, "proj")
	git(t, root, "init", "-q", repo)
	write(t, filepath.Join(home, ".gitconfig"), "[includeIf \"gitdir:"+repo+"/\"]\n\tpath = ~/remote.inc\n"+
		"[includeIf \"hasconfig:remote.*.url:https://**\"]\n\tpath = ~/url.inc\n")
	write(t, filepath.Join(home, "remote.inc"), "[remote \"o\"]\n\turl = https://example.com/r.git\n")
	write(t, filepath.Join(home, "url.inc"), "[t]\n\tk = v\n")
	cmd := exec.Command("git", "config", "--list")
	cmd.Dir = repo
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git read it: %s", out)
	}
	r, _ := rd.Find(repo, envOf(), nil)
	if cfg := rd.Load(r, LoadOptions{Env: envOf(), Home: home, Policy: AsGit}); !strings.Contains(cfg.Problem, "hasconfig") {
		t.Errorf("problem %q, want one naming the hasconfig rule", cfg.Problem)
	}
}

// TestConfigLinkedOutIsNotRead: a repository's config, or a file it includes, that is a link to a key
// or to /proc/self/environ is refused by the Opener; the problem names the file and the link, never what
// the file holds.
func TestConfigLinkedOutIsNotRead(t *testing.T) {
	needGit(t)
	rd := NewReader()
	root := tempDir(t)
	home := filepath.Join(root, "home")
	ws := filepath.Join(root, "ws")
	git(t, root, "init", "-q", ws)
	// A key that git's parser would read as a variable, so that only the Opener keeps it out.
	write(t, filepath.Join(home, ".ssh", "id_rsa"), "[core]\n\tpager = SECRET-KEY-MATERIAL\n")
	secret := func(p string) bool { return strings.HasPrefix(p, filepath.Join(home, ".ssh")+"/") }
	open := safefile.NewOpener([]string{ws}, secret, 0)
	for name, setup := range map[string]func(){
		"config linked to a key": func() {
			os.Remove(filepath.Join(ws, ".git", "config"))
			if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, ".git", "config")); err != nil {
				t.Fatal(err)
			}
		},
		"config linked to /proc/self/environ": func() {
			os.Remove(filepath.Join(ws, ".git", "config"))
			if err := os.Symlink("/proc/self/environ", filepath.Join(ws, ".git", "config")); err != nil {
				t.Fatal(err)
			}
		},
		"an include of a key": func() {
			os.Remove(filepath.Join(ws, ".git", "config"))
			write(t, filepath.Join(ws, ".git", "config"), "[include]\n\tpath = "+filepath.Join(home, ".ssh", "id_rsa")+"\n")
		},
		"an include linked to a key": func() {
			os.Remove(filepath.Join(ws, ".git", "config"))
			write(t, filepath.Join(ws, ".git", "config"), "[include]\n\tpath = ../inc\n")
			os.Remove(filepath.Join(ws, ".git", "..", "inc"))
			if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "inc")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			setup()
			r, ok := rd.Find(ws, envOf(), nil)
			if !ok {
				t.Fatal("no repository")
			}
			for _, policy := range []Policy{AsGit, Everything} {
				cfg := rd.Load(r, LoadOptions{Env: envOf(), Home: home, Policy: policy, Open: open})
				if _, ok := cfg.Last("core.pager"); ok || strings.Contains(fmt.Sprint(cfg), "SECRET") || !strings.Contains(cfg.Problem, "was not read") {
					t.Errorf("policy %d: %+v", policy, cfg)
				}
			}
			if name == "config linked to /proc/self/environ" {
				// Without the caller's Opener, the repository's own files still may not lead out.
				if cfg := rd.Load(r, LoadOptions{Env: envOf(), Home: home}); !strings.Contains(cfg.Problem, "was not read") {
					t.Errorf("the default opener read it: %+v", cfg)
				}
			}
		})
	}
}
