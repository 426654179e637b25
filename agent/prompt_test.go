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
