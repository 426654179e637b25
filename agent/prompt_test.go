package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

func TestSystemPromptSaysWhereAndWhatAndHowToTakeDenials(t *testing.T) {
	ws := t.TempDir()
	os.Mkdir(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Run make test before committing.\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "WARDEN.md"), []byte(strings.Repeat("x", maxInstructionBytes+10)), 0o644)
	instr, _, warn := LoadInstructionFiles(safefile.NewOpener([]string{ws}, nil, 0), ws)
	if len(warn) != 0 {
		t.Fatal(warn)
	}
	p := SystemPrompt(PromptInfo{Cwd: ws, Tools: tools.NewRegistry(echoTool()), Now: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), Instructions: instr})
	for _, want := range []string{"Working directory: " + ws, "Operating system: linux", "Saturday 21 November 2026",
		"Git repository: yes", "- echo: Echo text back.", "When a call is denied, do not retry it",
		"## AGENTS.md\nRun make test before committing.", "[WARDEN.md was cut at 32 KB]"} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, p)
		}
	}
	if p2 := SystemPrompt(PromptInfo{Cwd: t.TempDir(), Tools: tools.NewRegistry(), Now: time.Now()}); !strings.Contains(p2, "Git repository: no") {
		t.Errorf("non-git directory: %s", p2)
	}
}

// A project written for Claude Code gets its CLAUDE.md read when it has no AGENTS.md, and only then.
func TestClaudeMDStandsInForAgentsMD(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "CLAUDE.md"), []byte("use tabs"), 0o644)
	text, read, _ := LoadInstructionFiles(safefile.NewOpener([]string{ws}, nil, 0), ws)
	if !strings.Contains(text, "## CLAUDE.md\nuse tabs") || len(read) != 1 || read[0] != "CLAUDE.md" {
		t.Errorf("without AGENTS.md: %q %v", text, read)
	}
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("use spaces"), 0o644)
	text, read, _ = LoadInstructionFiles(safefile.NewOpener([]string{ws}, nil, 0), ws)
	if strings.Contains(text, "use tabs") || len(read) != 1 || read[0] != "AGENTS.md" {
		t.Errorf("with AGENTS.md: %q %v", text, read)
	}
}

// A repository chooses what its instruction files are: one that is a link to a key in the home, or to
// Warden's own environment under /proc, is refused with a warning naming it, and nothing of it reaches
// the prompt.
func TestInstructionFilesThatLeadOutOfTheWorkspaceAreRefused(t *testing.T) {
	root := t.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "home", "src", "proj")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("PLANTED-PRIVATE-KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_PLANTED_VARIABLE", "PLANTED-ENVIRONMENT")
	os.Symlink("../../.ssh/id_rsa", filepath.Join(ws, "AGENTS.md"))
	os.Symlink("/proc/self/environ", filepath.Join(ws, "WARDEN.md"))
	o := safefile.NewOpener([]string{ws}, func(p string) bool { return permissions.IsSecretPath(p, home) }, 0)
	text, read, warnings := LoadInstructionFiles(o, ws)
	if strings.Contains(text, "PLANTED") || len(read) != 0 {
		t.Fatalf("the prompt got %q from %v", text, read)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{"AGENTS.md was not read: it is a link to " + filepath.Join(home, ".ssh", "id_rsa"),
		"WARDEN.md was not read: it is a link to /proc/"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", warnings, want)
		}
	}
	if len(warnings) != 2 {
		t.Errorf("%d warnings, want one for each file: %q", len(warnings), warnings)
	}
}
