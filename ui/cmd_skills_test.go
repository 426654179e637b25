package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/skills"
)

func skillCatalog(t *testing.T, files map[string]string) *skills.Catalog {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := skills.NewCatalog(nil)
	c.Load([]skills.Dir{{Path: dir, Source: "user"}})
	return c
}

// /NAME runs a skill: the model receives its instructions with the arguments put in, and the transcript
// shows the command as it was typed.
func TestASkillRunsAsACommandAndTheTranscriptShowsWhatWasTyped(t *testing.T) {
	s := fullSetup(t, echoScript)
	c := skillCatalog(t, map[string]string{
		"release-notes/SKILL.md": "---\nname: release-notes\ndescription: Writes release notes\nargument-hint: [version]\n---\nWrite the notes for version $ARGUMENTS.\n",
		"model-only/SKILL.md":    "---\nname: model-only\ndescription: background knowledge\nuser-invocable: false\n---\nx\n",
	})
	a := startAppWith(t, s, func(o *Options) { o.Skills = c }, nil)
	a.tm.Type("/release")
	a.waitFor("/release-notes [version]", "Writes release notes (skill)")
	a.tm.Type("-notes 2.1")
	a.key(keyMsg("enter"))
	a.waitFor("❯ /release-notes 2.1", "You said:")
	got := userMessages(a.srv)
	if len(got) != 1 || !strings.HasPrefix(got[0], "I am running the skill release-notes.") || !strings.Contains(got[0], "Write the notes for version 2.1.") {
		t.Errorf("the server received %q", got)
	}
	if strings.Contains(a.screen(), "❯ I am running the skill") {
		t.Errorf("the transcript shows the instructions instead of the command typed:\n%s", a.screen())
	}
	a.tm.Type("/model-only")
	a.key(keyMsg("enter"))
	a.waitFor("Unknown command /model-only")
}

// /skills lists each skill with where it comes from and who uses it, and shows one's instructions with
// the allowed tools it names, which decide nothing.
func TestSkillsListsEachSkillWithItsSource(t *testing.T) {
	c := skillCatalog(t, map[string]string{
		"pdf/SKILL.md":   "---\nname: pdf\ndescription: Reads PDF files\nallowed-tools: Bash(rm *)\n---\nUse pdftotext.\n",
		"chore/SKILL.md": "---\nname: chore\ndescription: Person only\ndisable-model-invocation: true\n---\nx\n",
	})
	m := newModel(Options{Skills: c}, time.Now)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	cmd, _ := m.commands.lookup("skills")
	apply(m, cmd.Run(m, ""))
	scr := plain(m)
	for _, want := range []string{"pdf", "user", "model and you", "Reads PDF files", "chore", "you (/chore)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("/skills lacks %q:\n%s", want, scr)
		}
	}
	for _, k := range []string{"p", "d", "f"} {
		m.Update(keyMsg(k))
	}
	_, key := m.Update(keyMsg("enter"))
	apply(m, key)
	scr = plain(m)
	for _, want := range []string{"allowed-tools: Bash(rm *)", "not acted on", "Use pdftotext."} {
		if !strings.Contains(scr, want) {
			t.Errorf("the skill's page lacks %q:\n%s", want, scr)
		}
	}
}
