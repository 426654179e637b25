package permissions

import (
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"
)

// A developer's day in four repositories (Node, Python, Go, Rust): the commands an agent runs to find its
// way around, read code, look at history and check its work without changing anything. Each repository
// is real (git history, ignored dependencies with thousands of files, an ignored .env, an example env
// file), and every command below only reads. knownDayAsks are the few that still ask, each with the
// reason a person would accept.

// dayRepo is one repository of the day: its files, what git ignores, and the commands run in it.
type dayRepo struct {
	name  string
	files map[string]string
	// deps is a directory of installed dependencies (git-ignored) filled with this many files.
	deps  string
	ndeps int
	cmds  []string
}

var dayRepos = []dayRepo{
	{
		name: "node",
		files: map[string]string{
			"package.json":                    `{"name":"shop","version":"1.2.0","scripts":{"build":"tsc","test":"vitest"},"dependencies":{"react":"^18.2.0","zod":"^3.22.0"},"devDependencies":{"typescript":"^5.4.0","vitest":"^1.5.0"}}`,
			"package-lock.json":               `{"name":"shop","lockfileVersion":3}`,
			"tsconfig.json":                   `{"compilerOptions":{"strict":true,"outDir":"dist"}}`,
			"src/index.ts":                    "import { app } from './app'\napp.listen(3000) // TODO: port from env\n",
			"src/app.ts":                      "export const app = { listen(p: number) { console.log(p) } }\nexport function useCart() {}\n",
			"src/components/Cart.tsx":         "import React, { useEffect } from 'react'\nexport function Cart() { useEffect(() => {}); return null }\n",
			"src/lib/api.ts":                  "export async function fetchItems() { return [] } // TODO retry\n",
			"test/app.test.ts":                "import { app } from '../src/app'\n",
			"README.md":                       "# shop\n\nRun `npm test`.\n",
			".env":                            "STRIPE_KEY=sk_live_x\n",
			".env.example":                    "STRIPE_KEY=\n",
			".gitignore":                      "node_modules/\ndist/\n.env\ncoverage/\n",
			".github/workflows/ci.yml":        "on: push\njobs: {}\n",
			".eslintrc.json":                  `{"root":true}`,
			"node_modules/react/package.json": `{"name":"react","version":"18.2.0"}`,
			"node_modules/.bin/tsc":           "#!/bin/sh\n",
			"node_modules/some-lib/test/fixtures/server.key": "k\n",
			"dist/index.js": "x\n",
		},
		deps: "node_modules/pkgs", ndeps: 3000,
		cmds: []string{
			"git status", "git status --short", "git diff", "git diff --stat", "git diff --cached", "git diff HEAD~1",
			"git diff main...HEAD", "git log --oneline -10", "git log -p -3", "git log -p -1", "git show HEAD", "git show HEAD --stat",
			"git log --oneline --graph --all -20", "git branch -a", "git blame src/app.ts", "git log -p -- src/app.ts",
			"git diff HEAD~1 -- src", "git log --since='2 weeks ago' --oneline", "git grep -n TODO", "git grep -n useEffect -- src",
			"git show HEAD:package.json", "git diff --name-only HEAD~1", "git log --format='%h %an %s' -5", "git stash list",
			"git rev-parse --abbrev-ref HEAD", "git remote -v", "git tag -l", "git ls-files | wc -l", "git log -1 --stat",
			"cat package.json", "jq '.scripts' package.json", "jq -r '.dependencies | keys[]' package.json", "jq .version package.json",
			"cat tsconfig.json", "head -50 src/index.ts", "sed -n '1,80p' src/app.ts", "cat src/components/Cart.tsx",
			"wc -l src/*.ts", "wc -l $(git ls-files 'src/*.ts')", "ls", "ls -la", "ls src", "ls -R src", "tree -L 2 -I node_modules",
			"find src -name '*.ts' | head -20", "find . -name '*.test.ts' -not -path './node_modules/*'",
			"rg -n useEffect src", "rg -l TODO --type ts", "rg TODO", "rg -n 'export function' -g '*.ts'", "rg --files | head",
			"rg -c TODO src", "rg -n 'import .* from' src | head", "grep -rn TODO src", "grep -rn 'console.log' --include='*.ts' .",
			"grep -rn useCart --exclude-dir=node_modules .", "rg --files -g '*.json'", "rg -i 'fetchitems' src/lib",
			"cat .env.example", "cat README.md | head -40", "cat .github/workflows/ci.yml", "ls -la .github/workflows",
			"ls node_modules/.bin | head", "cat node_modules/react/package.json | jq .version", "du -sh node_modules",
			"ls node_modules | wc -l", "npm ls --depth=0", "npm ls react", "npm view react version", "npm outdated",
			"node --version", "npm --version", "tsc --version", "npx --version", "eslint src", "prettier --check src",
			"cat package-lock.json | jq .lockfileVersion", "find src -type f | xargs wc -l", "grep -c '' src/app.ts",
			"diff src/app.ts src/index.ts", "file src/app.ts", "stat package.json", "git log --oneline -- package.json",
			"rg -n 'TODO' --type-not md", "git diff --stat main...HEAD", "head -20 README.md; echo; head -10 package.json",
		},
	},
	{
		name: "python",
		files: map[string]string{
			"pyproject.toml":          "[project]\nname = \"billing\"\nversion = \"0.3.0\"\ndependencies = [\"requests\"]\n\n[tool.ruff]\nline-length = 100\n",
			"requirements.txt":        "requests==2.31.0\npydantic==2.6.0\n",
			"src/billing/__init__.py": "",
			"src/billing/core.py":     "import requests\n\ndef charge(amount):\n    # TODO: idempotency\n    return requests.post('x')\n",
			"src/billing/models.py":   "from pydantic import BaseModel\n\nclass Invoice(BaseModel):\n    total: int\n",
			"tests/test_core.py":      "from billing.core import charge\n\ndef test_charge():\n    pass\n",
			"README.md":               "# billing\n",
			".env":                    "DATABASE_URL=postgres://u:p@h/db\n",
			".env.sample":             "DATABASE_URL=\n",
			".gitignore":              ".venv/\n__pycache__/\n.env\n*.egg-info/\n.mypy_cache/\n",
			"Makefile":                "test:\n\tpytest\n",
			".venv/lib/python3.12/site-packages/requests/__init__.py": "x\n",
			".venv/lib/python3.12/site-packages/certifi/cacert.pem":   "x\n",
			".venv/bin/python":   "#!/bin/sh\n",
			".venv/bin/activate": "VIRTUAL_ENV=.venv\nexport PATH=\"$VIRTUAL_ENV/bin:$PATH\"\n",
		},
		deps: ".venv/lib/python3.12/site-packages/pkgs", ndeps: 3000,
		cmds: []string{
			"git status", "git diff", "git diff --cached", "git log --oneline -15", "git log -p -2", "git show HEAD",
			"git show HEAD~1 --stat", "git blame src/billing/core.py", "git log -p -- src/billing/core.py", "git diff HEAD~1 -- src",
			"git grep -n TODO", "git grep -n 'def ' -- '*.py'", "git branch", "git log --format='%h %s' -10", "git diff --stat",
			"cat pyproject.toml", "cat requirements.txt", "head -40 src/billing/core.py", "sed -n '1,60p' src/billing/models.py",
			"cat tests/test_core.py", "ls", "ls -la", "ls src/billing", "tree src", "tree -L 2 -I '.venv|__pycache__'",
			"find . -name '*.py' -not -path './.venv/*'", "find . -name '*.py' -not -path './.venv/*' | xargs wc -l",
			"find src -name '*.py' | xargs grep -n 'import'", "rg -n 'def ' src", "rg -n TODO", "rg -l requests --type py",
			"rg 'class .*BaseModel' -g '*.py'", "rg --files --type py", "grep -rn 'import requests' --include='*.py' .",
			"grep -rn charge src tests", "grep -rn TODO --include='*.py' --exclude-dir=.venv .", "wc -l src/billing/*.py",
			"python3 --version", "python --version", "pip list", "pip show requests", "pip --version", "pip config list", "pip debug",
			"ls .venv/bin", "ls .venv/lib/python3.12/site-packages | head", "du -sh .venv", "cat .env.sample",
			"ruff check src", "ruff check .", "ruff format --check .", "mypy src", "pytest --version", "cat Makefile",
			"grep -n '^test' Makefile", "cat README.md", "diff src/billing/core.py src/billing/models.py", "head -5 src/billing/*.py",
			"wc -l $(git ls-files '*.py')", "git ls-files src", "git log --oneline -- pyproject.toml", "rg -c import src",
			"awk '/^def /{print FILENAME\": \"$0}' src/billing/core.py", "grep -A3 'def charge' src/billing/core.py",
			"rg -n -A2 'def charge' src", "sort requirements.txt", "cut -d= -f1 requirements.txt", "git show HEAD:pyproject.toml",
			"git diff main...HEAD -- src", "rg -n 'requests' --type-not md", "jq -n '1+1'", "echo $VIRTUAL_ENV",
			"for f in src/billing/*.py; do echo \"== $f\"; head -3 \"$f\"; done", "ls tests && cat tests/test_core.py",
			"find tests -name 'test_*.py' | wc -l", "git log --stat -3", "rg -n 'BaseModel' src/billing/models.py",
		},
	},
	{
		name: "go",
		files: map[string]string{
			"go.mod":                       "module example.com/svc\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n",
			"go.sum":                       "golang.org/x/text v0.14.0 h1:x\n",
			"cmd/svc/main.go":              "package main\n\nfunc main() {} // TODO flags\n",
			"internal/store/store.go":      "package store\n\ntype Store struct{}\n\nfunc (s *Store) Get(k string) string { return k }\n",
			"internal/store/store_test.go": "package store\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {}\n",
			"internal/api/handler.go":      "package api\n\n// Handler serves requests. TODO auth\ntype Handler struct{}\n",
			"README.md":                    "# svc\n",
			"Makefile":                     "build:\n\tgo build ./...\n",
			".env":                         "API_TOKEN=t\n",
			".gitignore":                   "bin/\n.env\nvendor/\n",
			"bin/svc":                      "x\n",
			"vendor/modules.txt":           "# golang.org/x/text v0.14.0\n",
		},
		deps: "vendor/golang.org/x/text", ndeps: 3000,
		cmds: []string{
			"git status", "git diff", "git diff --cached", "git log --oneline -20", "git log -p -2", "git show HEAD",
			"git show --stat HEAD", "git blame internal/store/store.go", "git diff HEAD~1", "git diff main...HEAD",
			"git log -p -- internal/store", "git grep -n TODO", "git grep -n 'func ' -- '*.go'", "git log --format='%h %s' -10",
			"git branch -a", "git diff --stat HEAD~1", "go version", "go env", "go env GOPATH GOMODCACHE", "go env -json",
			"go list ./...", "go list -m all", "go list -json ./internal/store", "go list -f '{{.ImportPath}}' ./...",
			"go doc fmt.Println", "go doc -all ./internal/store", "go mod graph", "go mod graph | head", "go mod why golang.org/x/text",
			"go mod verify", "go mod edit -json", "go vet ./...", "gofmt -l .", "gofmt -d internal/store/store.go",
			"cat go.mod", "cat go.sum", "cat cmd/svc/main.go", "head -40 internal/store/store.go", "sed -n '1,50p' internal/api/handler.go",
			"ls", "ls -la", "ls internal", "tree", "tree -L 2", "find . -name '*.go' -not -path './vendor/*'",
			"find . -name '*_test.go' | wc -l", "find . -name '*.go' | xargs grep -n 'func main'", "rg -n 'func main' --type go",
			"rg -n TODO", "rg -l Store", "rg -n 'type .* struct' -g '*.go'", "rg --files --type go", "rg -c func internal",
			"grep -rn TODO --include='*.go' .", "grep -rn 'package ' internal", "wc -l $(git ls-files '*.go')", "wc -l internal/*/*.go",
			"cat Makefile", "cat README.md", "ls bin", "ls -la vendor", "cat vendor/modules.txt", "du -sh vendor",
			"go tool nm bin/svc", "git log --oneline -- go.mod", "git show HEAD:go.mod", "rg -n 'Get\\(' internal",
			"awk '/^func/' internal/store/store.go", "grep -n func internal/store/store.go", "diff internal/store/store.go internal/api/handler.go",
			"git ls-files | head -20", "git log -1 --format=%H", "git rev-parse HEAD", "git describe --tags --always",
			"go list -deps ./... | head", "go help build", "which go", "echo $GOPATH", "git diff --name-only main...HEAD",
		},
	},
	{
		name: "rust",
		files: map[string]string{
			"Cargo.toml":       "[package]\nname = \"cli\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
			"Cargo.lock":       "version = 3\n\n[[package]]\nname = \"cli\"\nversion = \"0.1.0\"\n",
			"src/main.rs":      "fn main() {\n    // TODO parse args\n    println!(\"hi\");\n}\n",
			"src/lib.rs":       "pub fn add(a: i32, b: i32) -> i32 { a + b }\n",
			"src/parse.rs":     "pub fn parse(s: &str) -> usize { s.len() } // unsafe? no\n",
			"tests/it.rs":      "#[test]\nfn it_works() {}\n",
			"README.md":        "# cli\n",
			".env":             "SECRET=1\n",
			".gitignore":       "/target\n.env\n",
			"target/debug/cli": "x\n",
		},
		deps: "target/debug/deps", ndeps: 3000,
		cmds: []string{
			"git status", "git diff", "git diff --cached", "git log --oneline -10", "git log -p -2", "git show HEAD",
			"git show HEAD --stat", "git blame src/main.rs", "git diff HEAD~1", "git diff main...HEAD", "git log -p -- src/lib.rs",
			"git grep -n TODO", "git grep -n 'fn ' -- '*.rs'", "git branch", "git log --format='%h %s' -5", "git diff --stat",
			"cat Cargo.toml", "cat Cargo.lock", "head -30 src/main.rs", "cat src/lib.rs", "sed -n '1,40p' src/parse.rs",
			"ls", "ls -la", "ls src", "tree -I target", "find src -name '*.rs'", "find . -name '*.rs' -not -path './target/*' | xargs wc -l",
			"rg -n 'fn main' --type rust", "rg -n TODO", "rg -l 'pub fn'", "rg -n 'unsafe' src", "rg --files --type rust",
			"rg -c fn src", "grep -rn 'pub fn' src", "grep -rn TODO --include='*.rs' .", "wc -l src/*.rs", "wc -l $(git ls-files '*.rs')",
			"cargo --version", "cargo -V", "rustc --version", "rustup --version", "rustup show", "cargo tree", "cargo tree --depth 1",
			"cargo metadata --no-deps --format-version 1", "cargo metadata --offline --format-version 1 | jq '.packages[].name'",
			"ls target", "ls target/debug | head", "du -sh target", "cat README.md", "cat tests/it.rs",
			"diff src/lib.rs src/parse.rs", "git log --oneline -- Cargo.toml", "git show HEAD:Cargo.toml", "grep -n version Cargo.toml",
			"awk -F' = ' '/^name/{print $2}' Cargo.toml", "rg -n -B2 -A2 'fn add' src", "git ls-files", "git log --stat -2",
			"git rev-parse --show-toplevel", "git log -1 --pretty=%s", "rg -n 'println' -g '*.rs'", "head -3 src/*.rs",
			"find . -name Cargo.toml -not -path './target/*'", "git diff --name-only HEAD~1", "cat .gitignore", "git status --porcelain",
		},
	},
}

// dayGeneral are commands about the machine an agent runs anywhere.
var dayGeneral = []string{
	"pwd", "whoami", "uname -a", "date", "date -u +%Y-%m-%dT%H:%M:%SZ", "echo $PATH", "echo $SHELL", "which node python3 go cargo",
	"env | grep -i proxy", "printenv HOME", "id", "hostname", "nproc", "uptime", "df -h", "free -m", "ps aux | grep node",
	"ps -ef | head", "ss -tlnp", "lsof -i :3000", "top -bn1 | head -20", "ip a", "ip route", "cat /etc/os-release", "lscpu | head",
	"ls ~", "ls -la /tmp | head", "command -v rg", "type git", "getconf ARG_MAX", "numfmt --to=iec 1048576", "dmesg | tail -5",
	"journalctl -n 20 --no-pager", "systemctl status docker", "docker ps", "docker images", "git --version", "rg --version",
	"jq --version", "tree --version",
}

// knownDayAsks are the commands of the day that ask, with the reason a person accepts.
var knownDayAsks = map[string]string{
	"node: grep -rn useCart --exclude-dir=node_modules .": "grep -r reads every file below `.`, the ignored .env among them",
}

// makeDayRepo builds a repository of the day below root, with two commits on main and one on a branch.
func makeDayRepo(t testing.TB, root string, r dayRepo) string {
	t.Helper()
	ws := filepath.Join(root, r.name)
	for f, c := range r.files {
		p := filepath.Join(ws, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < r.ndeps; i++ {
		dir := filepath.Join(ws, r.deps, fmt.Sprintf("p%d", i/500))
		if i%500 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("m%d.js", i)), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	git := func(args ...string) {
		cmd := osexec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
			"-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "first")
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# "+r.name+"\n\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "second")
	git("checkout", "-qb", "feature")
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# "+r.name+"\n\nfeature\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "feature")
	return ws
}

// TestDayInTheLife runs the day's commands through the engine in each repository, with the read-only
// jail on (Warden's default where a backend exists) and off, and measures the share that asks.
func TestDayInTheLife(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range dayRepos {
		total += len(r.cmds) + len(dayGeneral)
	}
	if total < 300 {
		t.Fatalf("%d commands in the day, want at least 300", total)
	}
	repos := make([]string, len(dayRepos))
	for i, r := range dayRepos {
		repos[i] = makeDayRepo(t, root, r)
	}
	for _, jail := range []bool{true, false} {
		asked := 0
		for i, r := range dayRepos {
			ws := repos[i]
			e, err := NewEngine(Policy{Workspace: ws, Home: home, ReadOnlyJail: jail})
			if err != nil {
				t.Fatal(err)
			}
			for _, cmd := range append(append([]string(nil), r.cmds...), dayGeneral...) {
				v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
				if v.Decision == Allow {
					continue
				}
				asked++
				key := r.name + ": " + cmd
				if _, known := knownDayAsks[key]; jail && !known {
					t.Errorf("%s asks: %s", key, v.Reason)
				} else if !jail {
					t.Logf("without the jail, %s asks: %s", key, v.Reason)
				}
			}
		}
		rate := float64(asked) / float64(total)
		t.Logf("over-ask rate (jail %v): %d of %d everyday commands ask (%.1f%%)", jail, asked, total, 100*rate)
		if jail && rate > 0.02 {
			t.Errorf("over-ask rate %.1f%% is above 2%%", 100*rate)
		}
	}
}
