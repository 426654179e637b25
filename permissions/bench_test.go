package permissions

import (
	"os"
	"path/filepath"
	"testing"
)

// typicalCommands are what agents run most, measured by BenchmarkClassify.
var typicalCommands = []string{
	"git status", "git diff HEAD~1 -- src", "ls -la", "grep -rn 'func main' --include='*.go' . | head -20",
	"cat src/main.go", "find . -name '*.go' -not -path './vendor/*' | xargs wc -l", "go test ./... 2>&1 | tail -30",
	"cd src && sed -n '1,80p' main.go", "npm run build && npm test", "rm -rf build && mkdir build",
	"bash -c 'git log --oneline | head -5'", "for f in a b c; do echo $f; done",
}

func BenchmarkClassify(b *testing.B) {
	ws, home := fixture(b)
	// The context an engine gives, as every classification in a session gets it.
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		b.Fatal(err)
	}
	ctx := e.Context(ws)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range typicalCommands {
			Classify(c, ctx)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(typicalCommands)), "ns/command")
}

func BenchmarkDecide(b *testing.B) {
	ws, home := fixture(b)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Allow: []string{"Bash(go test:*)", "Bash(npm run build:*)"}, Deny: []string{"Bash(rm -rf /:*)", "Read(./.env)"}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, c := range typicalCommands {
			e.Decide(Request{Kind: Exec, Command: c, Cwd: ws})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(typicalCommands)), "ns/command")
}

// BenchmarkDecidePath: a file tool's read of a file with one name costs a stat more than its rules; one
// with another name costs a search of the workspace's cached listing.
func BenchmarkDecidePath(b *testing.B) {
	ws, home := fixture(b)
	e, err := NewEngine(Policy{Workspace: ws, Home: home, Deny: []string{"Read(./.env)"}})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.Link(filepath.Join(ws, "src", "main.go"), filepath.Join(ws, "main-link.go")); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"README.md", "main-link.go"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				e.Decide(Request{Kind: Read, Path: name, Cwd: ws})
			}
		})
	}
}
