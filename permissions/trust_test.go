package permissions

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// trustLab is a workspace and home for live tests: commands are decided by an engine and run with bash
// in an environment like the one Warden gives commands, and programs the vectors plant write a marker.
type trustLab struct {
	t                testing.TB
	ws, home, marker string
	// mark is a program that records that it ran; markCat also passes its file or input through, for a
	// textconv or a clean filter.
	mark, markCat string
	env           map[string]string
}

func newTrustLab(t testing.TB) *trustLab {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	l := &trustLab{t: t, ws: filepath.Join(root, "ws"), home: filepath.Join(root, "home"), marker: filepath.Join(root, "marker")}
	l.mark, l.markCat = filepath.Join(root, "bin", "mark"), filepath.Join(root, "bin", "markcat")
	l.write(l.mark, fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s\nexit 0\n", l.marker))
	l.write(l.markCat, fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s\nif [ -n \"$1\" ] && [ -f \"$1\" ]; then cat \"$1\"; else cat; fi\n", l.marker))
	for _, p := range []string{l.mark, l.markCat} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(l.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(l.home, 0o755); err != nil {
		t.Fatal(err)
	}
	// Go writes telemetry counters below the home directory, from a process that outlives the command,
	// unless told not to.
	l.write(filepath.Join(l.home, ".config", "go", "telemetry", "mode"), "off 2000-01-01\n")
	realHome, _ := os.UserHomeDir()
	l.env = map[string]string{
		"HOME": l.home, "PATH": os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM": "1", "GIT_PAGER": "cat", "PAGER": "cat",
		"GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_PARAMETERS": "'safe.bareRepository'='explicit'", "LANG": "C",
		"RUSTUP_HOME": filepath.Join(realHome, ".rustup"), "CARGO_HOME": filepath.Join(realHome, ".cargo"),
		"GOTOOLCHAIN": "local", "GOTELEMETRY": "off", "npm_config_update_notifier": "false",
	}
	return l
}

func (l *trustLab) write(path, content string) {
	l.t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.ws, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		l.t.Fatal(err)
	}
}

// sh runs a set-up command in dir (relative to the workspace).
func (l *trustLab) sh(dir, cmd string) string {
	l.t.Helper()
	out, err := l.run(dir, cmd)
	if err != nil {
		l.t.Fatalf("%s: %v: %s", cmd, err, out)
	}
	return out
}

func (l *trustLab) run(dir, cmd string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := osexec.CommandContext(ctx, "bash", "-c", cmd)
	c.Dir = filepath.Join(l.ws, dir)
	for k, v := range l.env {
		c.Env = append(c.Env, k+"="+v)
	}
	c.Env = append(c.Env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := c.CombinedOutput()
	return string(out), err
}

// repo makes a git repository at dir (relative to the workspace) with a.txt committed, then changed in
// the work tree so that diffs have something to show.
func (l *trustLab) repo(dir string) {
	l.t.Helper()
	l.write(filepath.Join(l.ws, dir, "a.txt"), "one\n")
	l.sh(dir, "git init -q -b main . && git add -A && git commit -qm one && echo two >> a.txt && git commit -qam two && echo three >> a.txt")
}

func (l *trustLab) engine() *Engine {
	l.t.Helper()
	e, err := NewEngine(Policy{Workspace: l.ws, Home: l.home, Env: func(n string) (string, bool) {
		v, ok := l.env[n]
		return v, ok
	}})
	if err != nil {
		l.t.Fatal(err)
	}
	return e
}

func (l *trustLab) ran() bool {
	_, err := os.Stat(l.marker)
	return err == nil
}

// vector is a planted configuration and the commands it makes run a program.
type vector struct {
	name  string
	setup func(l *trustLab)
	// cmds must ask, with a reason holding every one of want, and, run, must leave the marker (the
	// vector is live) unless listed in quiet.
	cmds  []string
	want  []string
	quiet []string
	// leak, when set, is text that running the first command prints instead of a marker.
	leak string
	// each is run before every command, to put back what the one before changed.
	each string
	// skip names a program the vector needs.
	skip string
}

// includeIfSecret is a repository whose .git/config includes ~/.pypirc under an includeIf condition
// that holds there (WS stands for the workspace).
func includeIfSecret(cond string) vector {
	return vector{name: "an include of a secret under includeIf " + cond, setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, ".pypirc"), "[pypi]\n\tpassword = pypi-LEAKED\n")
		l.sh("", "git config remote.origin.url https://example.com/x")
		l.sh("", fmt.Sprintf("git config 'includeIf.%s.path' ~/.pypirc", strings.ReplaceAll(cond, "WS", l.ws)))
	}, cmds: []string{"git var -l", "git config --show-origin -l", "git config --get-regexp pypi"},
		want: []string{"`~/.pypirc`", "secrets", "`.git/config` includes it"}, leak: "pypi-LEAKED"}
}

func plantConfig(dir, key, value string) func(l *trustLab) {
	return func(l *trustLab) {
		l.repo(dir)
		v := strings.ReplaceAll(strings.ReplaceAll(value, "MARKCAT", l.markCat), "MARK", l.mark)
		l.sh(dir, fmt.Sprintf("git config %s %q", key, v))
	}
}

var trustVectors = []vector{
	{name: "fsmonitor", setup: plantConfig("", "core.fsmonitor", "MARK"),
		cmds: []string{"git status", "git diff", "git blame a.txt", "git ls-files", "git grep one", "git -C . status", "git diff --stat"},
		want: []string{"`.git/config`", "core.fsmonitor"}},
	{name: "fsmonitor in a nested repository", setup: func(l *trustLab) {
		l.repo("")
		plantConfig("vendor/x", "core.fsmonitor", "MARK")(l)
	}, cmds: []string{"git -C vendor/x status", "cd vendor/x && git status", "cd vendor && git -C x diff", "git -C vendor/x/ ls-files"},
		want: []string{"`vendor/x/.git/config`", "core.fsmonitor", "runs a program on `git"}},
	{name: "diff.external", setup: plantConfig("", "diff.external", "MARK"), cmds: []string{"git diff", "git diff HEAD"},
		want: []string{"`.git/config`", "diff.external"}},
	{name: "diff driver command", setup: func(l *trustLab) {
		plantConfig("", "diff.x.command", "MARK")(l)
		l.write(".gitattributes", "*.txt diff=x\n")
	}, cmds: []string{"git diff"}, want: []string{"diff.x.command"}},
	{name: "textconv", setup: func(l *trustLab) {
		plantConfig("", "diff.x.textconv", "MARKCAT")(l)
		l.write(".gitattributes", "*.txt diff=x\n")
	}, cmds: []string{"git log -p", "git show", "git diff", "git blame a.txt", "git log -S one", "git show HEAD~1 --word-diff"},
		want: []string{"diff.x.textconv"}},
	{name: "clean filter", setup: func(l *trustLab) {
		plantConfig("", "filter.x.clean", "MARKCAT")(l)
		l.write(".gitattributes", "*.txt filter=x\n")
		l.sh("", "git checkout a.txt")
	}, cmds: []string{"git status", "git diff"}, want: []string{"filter.x.clean"},
		// Same size, another time: git must read the file through the filter to compare it.
		each: `touch -d "@$((978307200 + RANDOM))" a.txt`},
	{name: "gpg under log.showSignature", setup: func(l *trustLab) {
		l.repo("")
		// A commit carrying a signature, so that checking it runs gpg.program.
		l.sh("", `git cat-file commit HEAD | sed '/^committer /a gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----' > /tmp/c.$$ && git update-ref HEAD $(git hash-object -t commit -w /tmp/c.$$) && rm /tmp/c.$$`)
		l.sh("", "git config log.showSignature true && git config gpg.program "+l.mark)
	}, cmds: []string{"git log", "git show", "git log --oneline -1"}, want: []string{"gpg.program", "signatures"}},
	{name: "gpg with --show-signature", setup: func(l *trustLab) {
		l.repo("")
		l.sh("", `git cat-file commit HEAD | sed '/^committer /a gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----' > /tmp/c.$$ && git update-ref HEAD $(git hash-object -t commit -w /tmp/c.$$) && rm /tmp/c.$$`)
		l.sh("", "git config gpg.program "+l.mark)
	}, cmds: []string{"git log --show-signature", "git log --format='%G?' -1"}, want: []string{"gpg.program"}},
	{name: "gpg under format.pretty", setup: func(l *trustLab) {
		l.repo("")
		l.sh("", `git cat-file commit HEAD | sed '/^committer /a gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----' > /tmp/c.$$ && git update-ref HEAD $(git hash-object -t commit -w /tmp/c.$$) && rm /tmp/c.$$`)
		l.sh("", "git config format.pretty '%h %G? %s' && git config gpg.program "+l.mark)
	}, cmds: []string{"git log", "git show"}, want: []string{"gpg.program", "signatures"}},
	{name: "gpg under a pretty alias", setup: func(l *trustLab) {
		l.repo("")
		l.sh("", `git cat-file commit HEAD | sed '/^committer /a gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----' > /tmp/c.$$ && git update-ref HEAD $(git hash-object -t commit -w /tmp/c.$$) && rm /tmp/c.$$`)
		l.sh("", "git config pretty.sig '%G?' && git config gpg.program "+l.mark)
	}, cmds: []string{"git log --pretty=sig", "git log --format=sig -1", "git show --format=sig"}, want: []string{"gpg.program", "signatures"}},
	{name: "post-index-change hook", setup: func(l *trustLab) {
		l.repo("")
		l.write(".git/hooks/post-index-change", "#!/bin/sh\n"+l.mark+"\n")
		os.Chmod(filepath.Join(l.ws, ".git/hooks/post-index-change"), 0o755)
		l.sh("", "git checkout a.txt")
	}, cmds: []string{"git status"}, want: []string{"`.git/hooks/post-index-change`", "refreshes the index"},
		// The same content with another time: git refreshes the entry and writes the index.
		each: `touch -d "@$((978307200 + RANDOM))" a.txt`},
	{name: "hooks path", setup: func(l *trustLab) {
		l.repo("")
		l.write("hooks/post-index-change", "#!/bin/sh\n"+l.mark+"\n")
		os.Chmod(filepath.Join(l.ws, "hooks/post-index-change"), 0o755)
		l.sh("", "git config core.hooksPath hooks && git checkout a.txt")
	}, cmds: []string{"git status"}, want: []string{"`hooks/post-index-change`"}, each: `touch -d "@$((978307200 + RANDOM))" a.txt`},
	{name: "include.path to a tracked file", setup: func(l *trustLab) {
		l.repo("")
		l.write("tools/gitconfig", "[core]\n\tfsmonitor = "+l.mark+"\n")
		l.sh("", "git config include.path ../tools/gitconfig")
	}, cmds: []string{"git status"}, want: []string{"`tools/gitconfig`", "core.fsmonitor"}},
	{name: "includeIf", setup: func(l *trustLab) {
		l.repo("")
		l.write("x.cfg", "[diff]\n\texternal = "+l.mark+"\n")
		l.sh("", `git config 'includeIf.gitdir:**.path' ../x.cfg`)
	}, cmds: []string{"git diff"}, want: []string{"`x.cfg`", "diff.external"}},
	{name: "section and variable on one line", setup: func(l *trustLab) {
		l.repo("")
		l.sh("", fmt.Sprintf(`printf '[core] fsmonitor = "%s"\n' >> .git/config`, l.mark))
	}, cmds: []string{"git status"}, want: []string{"core.fsmonitor"}},
	{name: "submodule", setup: func(l *trustLab) {
		l.repo("")
		l.repo("../sub")
		l.sh("", "git -c protocol.file.allow=always submodule add -q ../sub m && git commit -qm sub")
		l.sh("m", "git config core.fsmonitor "+l.mark)
	}, cmds: []string{"git status", "git diff"}, want: []string{"in the submodule `m`", "core.fsmonitor"}},
	{name: "linked work tree's config.worktree", setup: func(l *trustLab) {
		l.repo("main")
		l.sh("main", "git config extensions.worktreeConfig true && git worktree add -q ../wt && cd ../wt && git config --worktree core.fsmonitor "+l.mark)
	}, cmds: []string{"cd wt && git status"}, want: []string{"config.worktree", "core.fsmonitor"}},
	{name: "global configuration", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, ".gitconfig"), "[diff]\n\texternal = "+l.mark+"\n")
	}, cmds: []string{"git diff"}, want: []string{"`~/.gitconfig`", "diff.external"}},
	{name: "GIT_CONFIG_GLOBAL", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, "other.cfg"), "[diff \"x\"]\n\ttextconv = "+l.markCat+"\n")
		l.write(".gitattributes", "*.txt diff=x\n")
		l.env["GIT_CONFIG_GLOBAL"] = filepath.Join(l.home, "other.cfg")
	}, cmds: []string{"git log -p", "git show"}, want: []string{"`~/other.cfg`", "textconv"}},
	{name: "core.worktree elsewhere", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, "keys", "a.txt"), "SECRET-ELSEWHERE\n")
		l.sh("", "git config core.worktree "+filepath.Join(l.home, "keys"))
	}, cmds: []string{"git diff"}, want: []string{"core.worktree"}, leak: "SECRET-ELSEWHERE"},
	{name: "an include of a secret", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, ".pypirc"), "[pypi]\n\tusername = __token__\n\tpassword = pypi-LEAKED\n")
		l.sh("", "git config include.path "+filepath.Join(l.home, ".pypirc"))
	}, cmds: []string{"git config -l", "git config --get pypi.password"}, want: []string{"`~/.pypirc`", "secrets"}, leak: "pypi-LEAKED"},
	{name: "an include of a secret in a named file", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, ".pypirc"), "[pypi]\n\tpassword = pypi-LEAKED\n")
		l.write("cfg", "[include]\n\tpath = "+filepath.Join(l.home, ".pypirc")+"\n")
	}, cmds: []string{"git config --includes -f cfg -l"}, want: []string{"--includes"}, leak: "pypi-LEAKED"},
	includeIfSecret("gitdir:WS/"), includeIfSecret("onbranch:main"), includeIfSecret("hasconfig:remote.*.url:https://example.com/**"),
	{name: "an include of a secret in a blob", setup: func(l *trustLab) {
		l.repo("")
		l.write(filepath.Join(l.home, ".pypirc"), "[pypi]\n\tpassword = pypi-LEAKED\n")
		l.write("cfg", "[include]\n\tpath = "+filepath.Join(l.home, ".pypirc")+"\n")
		l.sh("", "git add cfg && git commit -qm cfg")
	}, cmds: []string{"git config --blob HEAD:cfg -l", "git config --blob HEAD:cfg --includes --get pypi.password"}, want: []string{"--blob", "--no-includes"}, leak: "pypi-LEAKED"},
	{name: "configuration that does not parse", setup: func(l *trustLab) {
		l.repo("")
		l.sh("", `printf '[core]\n\tfsmonitor = "unterminated\n' >> .git/config`)
	}, cmds: []string{"git status", "git log"}, want: []string{"cannot be read as git reads it"}, quiet: []string{"git status", "git log"}},
	{name: "partial clone fetching through remote.origin.uploadpack", setup: func(l *trustLab) {
		l.repo("../src")
		l.sh("", fmt.Sprintf("git -C ../src config uploadpack.allowFilter true && git clone -q --no-local --filter=blob:none file://%s/../src . 2>/dev/null && git config remote.origin.uploadpack '%s; git-upload-pack'", l.ws, l.mark))
	}, cmds: []string{"git show HEAD~1:a.txt", "git log -p"}, want: []string{"partial clone", "remote.origin.promisor"},
		// The first fetches what the second would.
		quiet: []string{"git log -p"}},
	{name: "rust-toolchain.toml path", skip: "rustup", setup: func(l *trustLab) {
		for _, p := range []string{"tc/bin/rustc", "tc/bin/cargo"} {
			l.write(p, "#!/bin/sh\n"+l.mark+"\necho fake 1.0\n")
			os.Chmod(filepath.Join(l.ws, p), 0o755)
		}
		l.write("rust-toolchain.toml", "[toolchain]\npath = \""+filepath.Join(l.ws, "tc")+"\"\n")
	}, cmds: []string{"rustc --version", "cargo -V", "cargo --version"}, want: []string{"`rust-toolchain.toml`", "`path`"}},
	{name: "legacy rust-toolchain naming an uninstalled channel", skip: "rustup", setup: func(l *trustLab) {
		l.write("sub/rust-toolchain", "1.2.3\n")
	}, cmds: []string{"cd sub && rustc --version"}, want: []string{"`sub/rust-toolchain`", "1.2.3", "not installed"}, quiet: []string{"cd sub && rustc --version"}},
	{name: ".npmrc git", skip: "npm", setup: func(l *trustLab) {
		l.write("package.json", `{"name":"p","version":"1.0.0"}`)
		l.write(".npmrc", "git="+l.mark+"\n")
	}, cmds: []string{"npm view git+file:///nonexistent/x.git version"}, want: []string{"`.npmrc`", "`git`"}},
	{name: "go.mod toolchain under GOTOOLCHAIN=auto", setup: func(l *trustLab) {
		l.write("go.mod", "module x\n\ngo 1.21\n\ntoolchain go1.999.0\n")
		l.env["GOTOOLCHAIN"] = "auto"
	}, cmds: []string{"go version", "go list ./...", "go env GOPATH"}, want: []string{"`go.mod`", "go1.999.0"}, quiet: []string{"go version", "go list ./...", "go env GOPATH"}},
	{name: "ripgrep configuration", setup: func(l *trustLab) {
		l.write("a.txt", "needle\n")
		l.write(filepath.Join(l.home, ".ripgreprc"), "--pre="+l.mark+"\n")
		l.env["RIPGREP_CONFIG_PATH"] = filepath.Join(l.home, ".ripgreprc")
	}, cmds: []string{"rg needle", "rg -n needle a.txt"}, want: []string{"RIPGREP_CONFIG_PATH", "--pre"}, skip: "rg"},
	{name: "a program on PATH inside the workspace", setup: func(l *trustLab) {
		l.write("node_modules/.bin/cat", "#!/bin/sh\n"+l.mark+"\n")
		os.Chmod(filepath.Join(l.ws, "node_modules/.bin/cat"), 0o755)
		l.write("a.txt", "a\n")
		l.env["PATH"] = filepath.Join(l.ws, "node_modules/.bin") + ":" + os.Getenv("PATH")
	}, cmds: []string{"cat a.txt", "timeout 5 cat a.txt"}, want: []string{"`node_modules/.bin/cat`", "in the workspace"}},
	{name: "maven's .mvn/jvm.config", setup: func(l *trustLab) {
		l.write(".mvn/jvm.config", "-javaagent:agent.jar\n")
		l.write("sub/pom.xml", "<project/>\n")
	}, cmds: []string{"mvn -v", "cd sub && mvn --version"}, want: []string{"`.mvn/jvm.config`"}, quiet: []string{"mvn -v", "cd sub && mvn --version"}},
	{name: "yarnPath", setup: func(l *trustLab) {
		l.write(".yarnrc.yml", "yarnPath: .yarn/releases/yarn.cjs\n")
	}, cmds: []string{"yarn --version"}, want: []string{"`.yarnrc.yml`"}, quiet: []string{"yarn --version"}},
	{name: "packageManager", setup: func(l *trustLab) {
		l.write("package.json", `{"packageManager":"pnpm@9.0.0"}`)
	}, cmds: []string{"pnpm --version", "yarn --version"}, want: []string{"`package.json`", "pnpm@9.0.0"}, quiet: []string{"pnpm --version", "yarn --version"}},
	{name: "cargo rustc-wrapper", skip: "cargo", setup: cargoProject("[build]\nrustc-wrapper = \"MARK\"\n"),
		cmds: []string{"cargo metadata --offline --format-version 1", "cargo tree --frozen", "cargo fetch --offline",
			"cargo update --offline", "cd src && cargo tree --frozen", "cargo --frozen tree"},
		want: []string{"`.cargo/config.toml`", "`rustc-wrapper`"}},
	{name: "cargo build.rustc", skip: "cargo", setup: cargoProject("build.rustc = \"MARK\"\n"),
		cmds: []string{"cargo metadata --offline", "cargo tree --frozen"}, want: []string{"`.cargo/config.toml`", "`rustc`"}},
	{name: "cargo alias", skip: "cargo", setup: cargoProject("[alias]\nlint = \"run --quiet --offline\"\n"),
		cmds: []string{"cargo lint"}, want: []string{"`.cargo/config.toml`", "alias `lint`"}},
	{name: "CARGO_HOME's rustc-wrapper", skip: "cargo", setup: func(l *trustLab) {
		cargoProject("")(l)
		l.write(filepath.Join(l.home, "cargo", "config.toml"), "[build]\nrustc-wrapper = \""+l.mark+"\"\n")
		l.env["CARGO_HOME"] = filepath.Join(l.home, "cargo")
	}, cmds: []string{"cargo tree --frozen"}, want: []string{"`rustc-wrapper`"}},
	{name: "docker compose .env", setup: func(l *trustLab) {
		l.write("compose.yaml", "services: {}\n")
		l.write(".env", "DOCKER_HOST=ssh://elsewhere\n")
	}, cmds: []string{"docker compose ps"}, want: []string{"`.env`", "DOCKER_HOST"}, quiet: []string{"docker compose ps"}},
}

// cargoProject makes a Rust package with its Cargo.lock whose main runs the marker, then writes config
// (MARK standing for the marker) as its .cargo/config.toml.
func cargoProject(config string) func(l *trustLab) {
	return func(l *trustLab) {
		l.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n")
		l.write("src/main.rs", fmt.Sprintf("fn main() { let _ = std::process::Command::new(%q).status(); }\n", l.mark))
		l.sh("", "cargo generate-lockfile --offline")
		if config != "" {
			l.write(".cargo/config.toml", strings.ReplaceAll(config, "MARK", l.mark))
		}
	}
}

// TestProgramsJudgedWithTheFilesTheyTrust plants each vector in a fresh workspace, and checks that the
// commands it affects ask with a reason naming the file and the key, and that each is live: run as
// Warden would run it, it leaves the marker (or prints what it should not). Then, with nothing planted,
// the same commands are allowed and leave no marker.
func TestProgramsJudgedWithTheFilesTheyTrust(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, v := range trustVectors {
		t.Run(v.name, func(t *testing.T) {
			if v.skip != "" {
				if _, err := osexec.LookPath(v.skip); err != nil {
					t.Skipf("%s is not installed", v.skip)
				}
			}
			l := newTrustLab(t)
			v.setup(l)
			e := l.engine()
			for _, cmd := range v.cmds {
				d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws})
				if d.Decision != Ask {
					t.Errorf("%q: %s (%s), want ask", cmd, d.Decision, d.Reason)
				}
				for _, w := range v.want {
					if !strings.Contains(d.Reason, w) {
						t.Errorf("%q: reason %q does not say %q", cmd, d.Reason, w)
					}
				}
				if slices.Contains(v.quiet, cmd) {
					continue
				}
				if v.each != "" {
					l.sh("", v.each)
				}
				os.Remove(l.marker)
				out, _ := l.run("", cmd)
				if v.leak != "" {
					if !strings.Contains(out, v.leak) {
						t.Errorf("%q run: the vector is not live: %q not printed (%s)", cmd, v.leak, out)
					}
					continue
				}
				if !l.ran() {
					t.Errorf("%q run: the vector is not live, no marker (%s)", cmd, out)
				}
			}
		})
	}
}

// TestCleanRepositoriesRunAtOnce: with nothing planted, the commands the vectors affect only read, and
// running them leaves no marker.
func TestCleanRepositoriesRunAtOnce(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newTrustLab(t)
	l.repo("")
	l.repo("vendor/x")
	l.write("package.json", `{"name":"p","version":"1.0.0"}`)
	l.write("go.mod", "module x\n\ngo 1.21\n")
	e := l.engine()
	cmds := []string{"git status", "git diff", "git log -p", "git show", "git blame a.txt", "git ls-files", "git -C vendor/x status",
		"cd vendor/x && git diff", "git log --oneline", "git diff --cached", "git grep one", "rustc --version", "cargo -V", "go version",
		"cat a.txt"}
	for _, cmd := range cmds {
		d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws})
		if d.Decision != Allow {
			t.Errorf("%q in a clean repository: %s (%s)", cmd, d.Decision, d.Reason)
		}
	}
	os.Remove(l.marker)
	for _, cmd := range cmds {
		l.run("", cmd)
	}
	if l.ran() {
		t.Errorf("a marker appeared in a clean workspace")
	}
}

// TestProjectCodeRunsOnlyInTheJail: tools whose only risk is running project code ask without the
// read-only jail and run at once inside it; their writing forms ask either way.
// TestCargoRewritesAStaleLock: with a path dependency added to Cargo.toml, `cargo tree` really rewrites
// Cargo.lock; outside the jail it asks, and `--frozen` (which fails instead) runs at once.
func TestCargoRewritesAStaleLock(t *testing.T) {
	if _, err := osexec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed")
	}
	l := newTrustLab(t)
	l.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n")
	l.write("src/main.rs", "fn main() {}\n")
	l.write("dep/Cargo.toml", "[package]\nname = \"dep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
	l.write("dep/src/lib.rs", "\n")
	l.sh("", "cargo generate-lockfile --offline")
	l.write("Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n[dependencies]\ndep = { path = \"dep\" }\n")
	before, _ := os.ReadFile(filepath.Join(l.ws, "Cargo.lock"))
	e := l.engine()
	for cmd, want := range map[string]Decision{"cargo tree": Ask, "cargo tree --locked": Ask, "cargo metadata --offline": Ask,
		"cargo tree --frozen": Allow, "cargo metadata --no-deps": Allow} {
		if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws}); v.Decision != want {
			t.Errorf("%q: %s (%s), want %s", cmd, v.Decision, v.Reason, want)
		}
	}
	l.run("", "cargo tree --frozen")
	if after, _ := os.ReadFile(filepath.Join(l.ws, "Cargo.lock")); string(after) != string(before) {
		t.Fatalf("cargo tree --frozen wrote Cargo.lock")
	}
	l.run("", "cargo tree")
	if after, _ := os.ReadFile(filepath.Join(l.ws, "Cargo.lock")); string(after) == string(before) {
		t.Fatalf("cargo tree did not rewrite the stale Cargo.lock: the vector is not live")
	}
}

func TestProjectCodeRunsOnlyInTheJail(t *testing.T) {
	ws, home := fixture(t)
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]bool{"eslint .": true, "eslint src --max-warnings 0": true, "prettier --check .": true, "mypy src": true,
		"go vet ./...": true, "pytest --version": true, "eslint --fix .": false, "prettier --write .": false,
		"mypy --install-types": false, "go vet -vettool=/tmp/x ./...": false, "eslint --cache .": false,
		// ruff writes fixes its configuration asks for, and its cache; cargo rewrites a stale Cargo.lock.
		"ruff check": true, "ruff format --check .": true, "ruff check --fix": false, "cargo metadata --offline": true}
	for jail := range 2 {
		e.SetReadOnlyJail(jail == 1)
		for cmd, readOnlyInJail := range cmds {
			want := Ask
			if jail == 1 && readOnlyInJail {
				want = Allow
			}
			if v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws}); v.Decision != want {
				t.Errorf("%q (jail %v): %s (%s), want %s", cmd, jail == 1, v.Decision, v.Reason, want)
			}
		}
	}
}
