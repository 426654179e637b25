package permissions

import (
	osexec "os/exec"
	"path/filepath"
	"testing"
)

// The day again, with the deny rules people write: no push, no reading the .env, no changing CI. Deny rules
// are a promise in every mode (promise.go, shell/unseen.go), and keeping it must not cost the day: the
// read-only commands are decided as without rules, and of the changes an agent makes in yolo mode, or under
// allow rules for the usual programs, only those whose effect Warden cannot see ask.

var dayDenyRules = []string{"Bash(git push:*)", "Bash(curl:*)", "Read(./.env)", "Edit(./.github/**)"}

// dayChanges are everyday commands that change things, per repository.
var dayChanges = map[string][]string{
	"node": {
		"npm install", "npm test", "npm run build", "npm test -- --watch=false 2>&1 | tail -20", "npx prettier --write src",
		"npx eslint --fix src", "mkdir -p src/utils", "touch src/utils/index.ts", "rm -rf dist && npm run build",
		"cat > src/utils/math.ts <<'EOF'\nexport const add = (a: number, b: number) => a + b\nEOF",
		"sed -i 's/3000/8080/' src/index.ts", "cp .env.example .env.test", "mv src/lib/api.ts src/lib/client.ts",
		"npm install zod@latest", "echo 'coverage/' >> .gitignore", "node src/index.ts",
	},
	"python": {
		"pip install -r requirements.txt", "python3 -m pytest -q", "pytest", "ruff check --fix .", "ruff format .",
		"python3 -m venv .venv", "source .venv/bin/activate", "python3 src/billing/core.py", "mypy src", "make test",
		"mkdir -p src/billing/adapters && touch src/billing/adapters/__init__.py",
		"sed -i 's/requests==2.31.0/requests==2.32.0/' requirements.txt", "PYTHONDONTWRITEBYTECODE=1 pytest -q",
	},
	"go": {
		"go build ./...", "go test ./...", "go test -run TestStore ./internal/store", "go mod tidy", "go get golang.org/x/text@latest",
		"gofmt -w internal/store/store.go", "go build -o bin/svc ./cmd/svc", "go generate ./...", "go vet ./... && go test ./...",
		"make build", "CGO_ENABLED=0 go build ./...", "go run ./cmd/svc", "mkdir -p internal/cache",
		"cat > internal/cache/cache.go <<'EOF'\npackage cache\nEOF", "rm -f bin/svc", "go test -count=1 -race ./... 2>&1 | tail",
		"go build -o bin/svc ./cmd/svc && ./bin/svc --help",
	},
	"rust": {
		"cargo build", "cargo test", "cargo fmt", "cargo clippy", "cargo add serde", "cargo run", "rm -rf target/debug/incremental",
		"cargo build --release 2>&1 | tail -5",
	},
}

// dayGit are the git changes of the day, run in every repository.
var dayGit = []string{
	"git add -A", "git add .", "git add src", "git commit -m 'fix: the parser'", "git commit -am 'fix'",
	"git commit -m \"$(cat <<'EOF'\nfeat: a cart\n\nAdds the cart.\nEOF\n)\"", "git add -A && git commit -m 'wip'",
	"git checkout -b feature/x", "git switch -c feature/y", "git stash", "git stash pop", "git checkout main",
	"git merge feature", "git rebase main", "git reset --soft HEAD~1", "git restore README.md", "git pull --rebase",
	"git tag v1.0.0", "git branch -d old", "git fetch origin",
}

// knownUnseenDayAsks are the day's changes that ask under the deny rules in yolo mode, and why a person
// accepts it.
var knownUnseenDayAsks = map[string]string{
	"go: go build -o bin/svc ./cmd/svc && ./bin/svc --help": "runs a program the same command builds",
	"python: ruff check --fix .":                            "may rewrite any file below `.`, where Edit(./.github/**) governs",
	"python: ruff format .":                                 "may rewrite any file below `.`, where Edit(./.github/**) governs",
}

// knownGitWriteAsks are git commands that may write any file of the work tree, which Edit(./.github/**)
// governs: which files they change depends on what the branches and the stash hold.
var knownGitWriteAsks = map[string]bool{
	"git stash": true, "git stash pop": true, "git checkout main": true, "git merge feature": true, "git rebase main": true,
	"git pull --rebase": true,
}

// TestDayUnderDenyRules runs the day's read-only commands and its changes with deny rules in force and
// measures what asks.
func TestDayUnderDenyRules(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	reads, readAsks, changes, changeAsks, gitAsks, ruled, ruledAsks := 0, 0, 0, 0, 0, 0, 0
	for _, r := range dayRepos {
		ws := makeDayRepo(t, root, r)
		decide := func(p Policy, cmd string) Verdict {
			p.Workspace, p.Home, p.Deny, p.ReadOnlyJail = ws, home, dayDenyRules, true
			e, err := NewEngine(p)
			if err != nil {
				t.Fatal(err)
			}
			return e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		}
		for _, cmd := range append(append([]string(nil), r.cmds...), dayGeneral...) {
			reads++
			if v := decide(Policy{}, cmd); v.Decision != Allow {
				readAsks++
				if _, known := knownDayAsks[r.name+": "+cmd]; !known {
					t.Errorf("%s: %s asks under deny rules: %s", r.name, cmd, v.Reason)
				}
			}
		}
		for _, cmd := range dayChanges[r.name] {
			changes++
			if v := decide(Policy{Mode: ModeYolo}, cmd); v.Decision != Allow {
				changeAsks++
				t.Logf("%s: %s asks: %s", r.name, cmd, v.Reason)
				if _, known := knownUnseenDayAsks[r.name+": "+cmd]; !known {
					t.Errorf("%s: %s asks in yolo mode under deny rules: %s", r.name, cmd, v.Reason)
				}
			}
		}
		for _, cmd := range dayGit {
			changes++
			if v := decide(Policy{Mode: ModeYolo}, cmd); v.Decision != Allow {
				changeAsks++
				gitAsks++
				if !knownGitWriteAsks[cmd] {
					t.Errorf("%s: %s asks in yolo mode under deny rules: %s", r.name, cmd, v.Reason)
				}
			}
		}
		// The usual allow rules: a commit and the tests run without asking.
		allow := []string{"Bash(git add:*)", "Bash(git commit:*)", "Bash(npm test:*)", "Bash(go test:*)", "Bash(cargo test:*)", "Bash(pytest:*)"}
		for _, cmd := range []string{"git add -A && git commit -m 'wip'", "git commit -m \"$(cat <<'EOF'\nfix: x\n\nWhy.\nEOF\n)\"",
			"git add src && git commit -m x", "npm test", "go test ./...", "cargo test", "pytest -q"} {
			ruled++
			if v := decide(Policy{Allow: allow}, cmd); v.Decision != Allow {
				ruledAsks++
				t.Logf("%s: %s under %q asks: %s", r.name, cmd, allow, v.Reason)
			}
		}
	}
	t.Logf("under %q: %d of %d read-only commands ask; in yolo mode %d of %d changes ask (%d of them git writing the work tree); under allow rules %d of %d",
		dayDenyRules, readAsks, reads, changeAsks, changes, gitAsks, ruledAsks, ruled)
	if ruledAsks > 0 {
		t.Errorf("%d commits or test runs allowed by rules ask under deny rules", ruledAsks)
	}
}
