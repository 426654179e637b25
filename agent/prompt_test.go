package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

func TestSystemPromptSaysWhereAndWhatAndHowToTakeDenials(t *testing.T) {
	ws := t.TempDir()
	os.Mkdir(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Run make test before committing.\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "WARDEN.md"), []byte(strings.Repeat("x", maxInstructionBytes+10)), 0o644)
	instr, warn := LoadInstructions(ws)
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
	text, read, _ := LoadInstructionFiles(ws)
	if !strings.Contains(text, "## CLAUDE.md\nuse tabs") || len(read) != 1 || read[0] != "CLAUDE.md" {
		t.Errorf("without AGENTS.md: %q %v", text, read)
	}
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("use spaces"), 0o644)
	text, read, _ = LoadInstructionFiles(ws)
	if strings.Contains(text, "use tabs") || len(read) != 1 || read[0] != "AGENTS.md" {
		t.Errorf("with AGENTS.md: %q %v", text, read)
	}
}
