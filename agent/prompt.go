package agent

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

// PromptInfo is what the system prompt tells the model about where it works.
type PromptInfo struct {
	Cwd   string
	Tools *tools.Registry
	Now   time.Time
	// Instructions is the content of the project's instruction files, if any.
	Instructions string
	// SubAgent is set for a child agent started by the task tool.
	SubAgent bool
	// PlanMode is set when the session starts in plan mode: the prompt says what that means.
	PlanMode bool
}

// SystemPrompt builds the system prompt: who the model is working for, its tools, the working directory,
// the OS, the date, whether the directory is a git repository, and what to do when a call is denied.
func SystemPrompt(info PromptInfo) string {
	var b strings.Builder
	b.WriteString("You are Warden, a coding agent working in a developer's terminal. You help with software tasks by " +
		"reading code, running commands and editing files through your tools. Be concise: the person reads your answers " +
		"in a terminal. Prefer doing over describing; when you finish, say briefly what you did and what you found.\n\n")
	if info.SubAgent {
		b.WriteString("You are working as a sub-agent on one task given by the main agent, which sees only your final " +
			"answer. Do the task with your tools, then answer with a complete, compact report of what you found or did " +
			"(paths, line numbers, facts), without asking questions back.\n\n")
	}
	fmt.Fprintf(&b, "Working directory: %s\n", info.Cwd)
	fmt.Fprintf(&b, "Operating system: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "Date: %s\n", info.Now.Format("Monday 2 January 2006"))
	fmt.Fprintf(&b, "Git repository: %s\n\n", yesNo(isGitRepo(info.Cwd)))
	b.WriteString("Tools:\n")
	for _, t := range info.Tools.Tools() {
		first, _, _ := strings.Cut(t.Description(), "\n")
		fmt.Fprintf(&b, "- %s: %s\n", t.Name(), first)
	}
	b.WriteString("\nEach bash call runs in a fresh non-interactive shell: there is no stdin, no pager and no editor, " +
		"so use non-interactive flags (git commit -m, --yes, --no-pager). A `cd` carries over to the next call.\n\n" +
		"Permissions: read-only commands run at once. Anything else is shown to the person, who may allow or deny it, " +
		"and some calls are denied by policy. When a call is denied, do not retry it and do not try to reach the same " +
		"effect another way: continue with what you can do, or say what you need and why, and let the person decide.\n")
	if info.PlanMode {
		b.WriteString("\n" + planModeText + "\n")
	}
	if info.Instructions != "" {
		b.WriteString("\nProject instructions (from the repository):\n")
		b.WriteString(info.Instructions)
		b.WriteString("\n")
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// isGitRepo reports whether dir or one of its parents holds a .git entry.
func isGitRepo(dir string) bool {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// instructionFiles are read from the workspace root, in this order, into the system prompt. A project
// written for Claude Code has CLAUDE.md instead of AGENTS.md: it is read in its place.
var instructionFiles = []string{"AGENTS.md", "WARDEN.md"}

const claudeFile = "CLAUDE.md"

// maxInstructionBytes bounds each instruction file, so a huge file cannot crowd out the conversation.
const maxInstructionBytes = 32 << 10

// LoadInstructionFiles returns the project's instruction files, each under a heading with its name, and
// names the files it read. Each is read through the session's opener: a file that leads out of the
// workspace through a link (to a key in the home, say), into a secret place or to the kernel's files
// (/proc/self/environ) is refused, and the model never sees it. Missing files are skipped; a file that is
// refused or cannot be read is reported in warnings, never fatal.
func LoadInstructionFiles(o *safefile.Opener, workspace string) (text string, read, warnings []string) {
	names := instructionFiles
	if _, err := os.Stat(filepath.Join(workspace, "AGENTS.md")); os.IsNotExist(err) {
		names = append([]string{claudeFile}, names[1:]...)
	}
	var b strings.Builder
	for _, name := range names {
		path := filepath.Join(workspace, name)
		data, err := readInstructions(o, path)
		if os.IsNotExist(err) {
			continue
		}
		var refused *safefile.Refused
		if errors.As(err, &refused) {
			warnings = append(warnings, fmt.Sprintf("%v; the model works without it", err))
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("could not read %s: %v", path, err))
			continue
		}
		note := ""
		if len(data) > maxInstructionBytes {
			data = data[:maxInstructionBytes]
			note = fmt.Sprintf("\n[%s was cut at %d KB]", name, maxInstructionBytes>>10)
		}
		fmt.Fprintf(&b, "## %s\n%s%s\n", name, strings.TrimSpace(string(data)), note)
		read = append(read, name)
	}
	return strings.TrimSpace(b.String()), read, warnings
}

// readInstructions reads one instruction file through o, a byte more than is kept, so that a cut can be
// told.
func readInstructions(o *safefile.Opener, path string) ([]byte, error) {
	f, err := o.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxInstructionBytes+1))
}
