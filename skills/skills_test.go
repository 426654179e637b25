package skills

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func byName(list []Skill) map[string]Skill {
	m := map[string]Skill{}
	for _, s := range list {
		m[s.Name] = s
	}
	return m
}

// Skills written for Claude Code and Codex use more YAML than one-line values; each of these is read as
// those agents read it.
func TestLoadReadsSkillsAsOtherAgentsWriteThem(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(user, "pdf", "SKILL.md"), "---\nname: pdf\ndescription: >\n  Extracts text and tables\n  from PDF files.\nallowed-tools:\n  - Read\n  - Bash(python3 scripts/extract.py:*)\nlicense: MIT\nmetadata:\n  author: someone\n---\n# PDF\n\nRun scripts/extract.py.\n")
	write(t, filepath.Join(user, "pdf", "scripts", "extract.py"), "print(1)\n")
	write(t, filepath.Join(user, "release-notes", "SKILL.md"), "---\ndescription: \"Writes release notes: \\\"short\\\" ones\"\nallowed-tools: Read Grep Bash(git log *)\ndisable-model-invocation: true\nargument-hint: [version]\n---\nWrite notes for $ARGUMENTS.\n")
	write(t, filepath.Join(user, "no-meta", "SKILL.md"), "# Tidy imports\n\nSort the imports of every Go file.\n")
	write(t, filepath.Join(user, "Bad_Name", "SKILL.md"), "---\ndescription: x\n---\nbody\n")
	write(t, filepath.Join(user, "empty", "SKILL.md"), "---\nname: empty\ndescription: nothing\n---\n\n")
	write(t, filepath.Join(user, "open", "SKILL.md"), "---\nname: open\n")
	write(t, filepath.Join(user, "scripts-only", "run.sh"), "echo\n")
	write(t, filepath.Join(user, "README.md"), "not a skill\n")
	write(t, filepath.Join(project, "pdf", "SKILL.md"), "---\nname: pdf\ndescription: the project's pdf\n---\nplanted\n")
	write(t, filepath.Join(project, "lint", "SKILL.md"), "---\nname: lint\ndescription: 'Runs the linter, it''s quick'\nuser-invocable: false\n---\nRun make lint.\n")

	list, warnings := Load(nil, []Dir{{Path: user, Source: "user"}, {Path: project, Source: "project", Project: true},
		{Path: filepath.Join(user, "missing"), Source: "none"}})
	got := byName(list)
	if len(list) != 4 {
		t.Errorf("skills %v", list)
	}
	pdf := got["pdf"]
	if pdf.Description != "Extracts text and tables from PDF files." || pdf.Source != "user" || pdf.Body != "# PDF\n\nRun scripts/extract.py." ||
		!reflect.DeepEqual(pdf.AllowedTools, []string{"Read", "Bash(python3 scripts/extract.py:*)"}) || !pdf.ModelInvocable || !pdf.UserInvocable {
		t.Errorf("pdf = %+v", pdf)
	}
	rn := got["release-notes"]
	if rn.Description != `Writes release notes: "short" ones` || rn.ModelInvocable || rn.ArgumentHint != "[version]" ||
		!reflect.DeepEqual(rn.AllowedTools, []string{"Read", "Grep", "Bash(git log *)"}) {
		t.Errorf("release-notes = %+v", rn)
	}
	if nm := got["no-meta"]; nm.Description != "Tidy imports" {
		t.Errorf("a skill without front matter is named after its folder and described by its first paragraph: %+v", nm)
	}
	if l := got["lint"]; l.Description != "Runs the linter, it's quick" || l.UserInvocable || !l.Project {
		t.Errorf("lint = %+v", l)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"the skill pdf is also in " + filepath.Join(user, "pdf"), `"Bad_Name" cannot be a skill's name`,
		"empty", "no instructions", "never closed"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	for _, quiet := range []string{"missing", "scripts-only", "README"} {
		if strings.Contains(all, quiet) {
			t.Errorf("warnings mention %s:\n%s", quiet, all)
		}
	}
}

// A repository's .claude/skills folder, or one skill's folder, that is a link out of the workspace is
// read no further: the person is told which folder was left out, and nothing of the outside is offered.
func TestASkillFolderLinkedOutOfTheWorkspaceIsRefused(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, outside := filepath.Join(root, "ws"), filepath.Join(root, "home", "private")
	write(t, filepath.Join(outside, "notes", "SKILL.md"), "---\nname: notes\ndescription: PLANTED from the home\n---\nPLANTED\n")
	write(t, filepath.Join(ws, ".claude", "skills", "fine", "SKILL.md"), "---\nname: fine\ndescription: stays inside\n---\nok\n")
	if err := os.Symlink(filepath.Join(outside, "notes"), filepath.Join(ws, ".claude", "skills", "notes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, ".warden-skills")); err != nil {
		t.Fatal(err)
	}
	o := safefile.NewOpener([]string{ws}, nil, 0)
	list, warnings := Load(o, []Dir{{Path: filepath.Join(ws, ".claude", "skills"), Source: "project", Project: true},
		{Path: filepath.Join(ws, ".warden-skills"), Source: "project", Project: true}})
	if names := byName(list); len(list) != 1 || names["fine"].Name == "" {
		t.Errorf("skills %+v; want only the one inside the workspace", list)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		filepath.Join(ws, ".claude", "skills", "notes") + " was not read: it is a link to " + filepath.Join(outside, "notes"),
		filepath.Join(ws, ".warden-skills") + " was not read: it is a link to " + outside,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

func TestTheSkillToolListsDescriptionsAndReturnsTheBodyAndTheFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pdf", "SKILL.md"), "---\nname: pdf\ndescription: Extracts tables from PDF files.\n---\nBODY-MARKER: run scripts/extract.py.\n")
	write(t, filepath.Join(dir, "pdf", "scripts", "extract.py"), "print(1)\n")
	write(t, filepath.Join(dir, "pdf", "reference.md"), "ref\n")
	write(t, filepath.Join(dir, "secret-one", "SKILL.md"), "---\nname: secret-one\ndescription: HIDDEN from the model\ndisable-model-invocation: true\n---\nx\n")
	c := NewCatalog(nil)
	if w := c.Load([]Dir{{Path: dir, Source: "user"}}); len(w) != 0 {
		t.Fatal(w)
	}
	tool := c.Tool()
	desc := tool.Description()
	if !strings.Contains(desc, "- pdf: Extracts tables from PDF files.") || strings.Contains(desc, "BODY-MARKER") || strings.Contains(desc, "HIDDEN") {
		t.Errorf("description:\n%s", desc)
	}
	env := tools.NewEnv(dir, t.TempDir())
	in := json.RawMessage(`{"name":"pdf"}`)
	if ac, err := tool.Access(env, in); err != nil || ac.Kind != tools.AccessNone || ac.Summary != "pdf" {
		t.Errorf("access %+v %v", ac, err)
	}
	res := tool.Run(t.Context(), env, tools.Call{ID: "c1", Input: in})
	for _, want := range []string{"BODY-MARKER: run scripts/extract.py.", filepath.Join(dir, "pdf", "SKILL.md"), "- reference.md\n", "- " + filepath.Join("scripts", "extract.py")} {
		if res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Output)
		}
	}
	for name, want := range map[string]string{"nope": `there is no skill "nope"; the skills are: pdf`, "secret-one": "only the user runs (/secret-one)"} {
		if _, err := tool.Access(env, json.RawMessage(`{"name":"`+name+`"}`)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The listing goes with every request: however many skills there are, it stays bounded, and every
// skill is still named.
func TestTheListingIsBounded(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("word ", 300)
	for i := range 300 {
		name := "skill-" + strings.Repeat("a", i%5) + string(rune('a'+i%26)) + "-" + strconv.Itoa(i)
		write(t, filepath.Join(dir, name, "SKILL.md"), "---\nname: "+name+"\ndescription: "+long+"\n---\nbody\n")
	}
	c := NewCatalog(nil)
	c.Load([]Dir{{Path: dir, Source: "user"}})
	desc := c.listing()
	if len(desc) > maxListing+maxNamesOnly*20+200 {
		t.Errorf("the listing is %d bytes", len(desc))
	}
	if !strings.Contains(desc, "More skills (by name only)") || !strings.Contains(desc, "and ") {
		t.Errorf("the listing does not say more skills exist:\n%s", desc[len(desc)-300:])
	}
}

func TestRunningASkillPutsTheArgumentsIn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "notes", "SKILL.md"), "---\nname: notes\ndescription: d\n---\nWrite notes for $ARGUMENTS.\n")
	write(t, filepath.Join(dir, "plain", "SKILL.md"), "---\nname: plain\ndescription: d\n---\nDo the thing.\n")
	c := NewCatalog(nil)
	c.Load([]Dir{{Path: dir, Source: "user"}})
	notes, _ := c.Get("notes")
	if got := c.Request(notes, "v1.2"); !strings.HasPrefix(got, "I am running the skill notes.") || !strings.Contains(got, "Write notes for v1.2.") {
		t.Errorf("request:\n%s", got)
	}
	plain, _ := c.Get("plain")
	if got := c.Request(plain, "quickly"); !strings.Contains(got, "Do the thing.\n\nquickly") {
		t.Errorf("request:\n%s", got)
	}
}

// A repository chooses how much stands in its skill folders, read at every start: what one reading takes
// is bounded, and the skills past the bound are named in a warning.
func TestWhatIsReadOfSkillsIsBounded(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("instructions ", (maxFileBytes-100)/13)
	n := maxTotalBytes/len(body) + 3
	for i := range n {
		write(t, filepath.Join(dir, fmt.Sprintf("s%03d", i), "SKILL.md"), "---\ndescription: d\n---\n"+body)
	}
	list, warnings := Load(nil, []Dir{{Path: dir, Source: "user"}})
	read := 0
	for _, s := range list {
		read += len(s.Body)
	}
	if read > maxTotalBytes || len(list) == n || len(list) < n-4 {
		t.Errorf("read %d skills (%d bytes) of %d", len(list), read, n)
	}
	if all := strings.Join(warnings, "\n"); !strings.Contains(all, "all that is read of them") {
		t.Errorf("warnings:\n%s", all)
	}
}
