package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// configOf is the XDG_CONFIG_HOME of a run.
func configOf(r *invocation) string {
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			return v
		}
	}
	panic("no XDG_CONFIG_HOME in the run's environment")
}

// writeSkill writes dir/NAME/SKILL.md with the description and body given.
func writeSkill(t *testing.T, dir, name, description, body string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, name, "SKILL.md"), "---\nname: "+name+"\ndescription: "+description+"\n---\n"+body+"\n")
}

// skillDescription is the description of the skill tool in a request, "" when it was not offered.
func skillDescription(req fakeapi.Request) string {
	for _, tl := range req.Tools {
		if tl.Function.Name == "skill" {
			return tl.Function.Description
		}
	}
	return ""
}

// The person's skills (Warden's folder and Claude Code's) are offered by name and description in the
// first request, and their instructions are not; a skill call returns the instructions and the folder's
// files.
func TestASkillsDescriptionIsOfferedAndItsBodyComesOnlyWhenUsed(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "skill", `{"name":"pdf-tables"}`), fakeapi.Text("done"))
	r := newRun(t)
	mine := filepath.Join(configOf(r), "warden", "skills")
	writeSkill(t, mine, "pdf-tables", "Extracts tables from PDF files. Use for any PDF.", "BODY-MARKER-7: run scripts/extract.py on the file.")
	writeFile(t, filepath.Join(mine, "pdf-tables", "scripts", "extract.py"), "print('tables')\n")
	writeSkill(t, filepath.Join(homeOf(r), ".claude", "skills"), "commit-style", "Writes commit messages the team's way.", "BODY-MARKER-8")
	out, stderr, code := r.exec("-p", "tables please", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	reqs := server.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	desc := skillDescription(reqs[0])
	for _, want := range []string{"- pdf-tables: Extracts tables from PDF files. Use for any PDF.", "- commit-style: Writes commit messages the team's way."} {
		if !strings.Contains(desc, want) {
			t.Errorf("the skill tool's description lacks %q:\n%s", want, desc)
		}
	}
	if raw := string(reqs[0].Raw); strings.Contains(raw, "BODY-MARKER") {
		t.Errorf("the first request holds a skill's instructions:\n%s", raw)
	}
	var result string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && m.ToolCallID == "c1" {
			result = m.Content
		}
	}
	for _, want := range []string{"BODY-MARKER-7: run scripts/extract.py on the file.", filepath.Join(mine, "pdf-tables", "SKILL.md"),
		"- " + filepath.Join("scripts", "extract.py")} {
		if !strings.Contains(result, want) {
			t.Errorf("the skill call's result lacks %q:\n%s", want, result)
		}
	}
	if strings.Contains(result, "BODY-MARKER-8") {
		t.Errorf("the call returned another skill's instructions:\n%s", result)
	}
	for _, ev := range events(t, out) {
		if ev["type"] == "permission" && ev["id"] == "c1" && ev["decision"] != "allow" {
			t.Errorf("the skill call was not allowed: %v", ev)
		}
	}
}

// A repository's skills are the words of whoever can change it, followed by the model: like its
// commands, they are offered only in a trusted workspace, and until then the person is told they wait.
func TestAProjectSkillWaitsForTrust(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	r := newRun(t)
	writeSkill(t, filepath.Join(r.workspace, ".claude", "skills"), "deploy", "PROJECT-SKILL deploys the service.", "kubectl apply")
	writeSkill(t, filepath.Join(r.workspace, ".warden", "skills"), "seed", "PROJECT-SEED fills the database.", "make seed")

	server.Reply(fakeapi.Text("untrusted"))
	_, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	first := server.Requests()[0]
	if strings.Contains(string(first.Raw), "PROJECT-") {
		t.Errorf("an untrusted workspace's skill reached the model:\n%s", skillDescription(first))
	}
	if !strings.Contains(stderr, "skills") || !strings.Contains(stderr, "deploy") || !strings.Contains(stderr, "seed") || !strings.Contains(stderr, "--trust") {
		t.Errorf("stderr does not say the project's skills wait:\n%s", stderr)
	}

	server.Reply(fakeapi.Text("trusted"))
	_, stderr, code = r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m", "--trust")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := server.Requests()
	desc := skillDescription(reqs[len(reqs)-1])
	if !strings.Contains(desc, "- deploy: PROJECT-SKILL deploys the service.") || !strings.Contains(desc, "- seed: PROJECT-SEED fills the database.") {
		t.Errorf("a trusted workspace's skills were not offered:\n%s", desc)
	}
}

// A repository whose skill folder is a link to a folder of the home offers nothing of it, even trusted,
// and the person is told which folder was left out; its other skills are offered.
func TestASkillFolderLinkedOutOfTheWorkspaceIsRefusedWithAWarning(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("done"))
	r := newRun(t)
	home := homeOf(r)
	writeSkill(t, filepath.Join(home, "dotfiles", "skills"), "notes", "PLANTED-DESCRIPTION from the home", "PLANTED-BODY")
	cloneWith(t, r, map[string]string{".claude/skills/notes": "../../../../dotfiles/skills/notes"})
	writeSkill(t, filepath.Join(r.workspace, ".claude", "skills"), "fine", "FINE-SKILL stays in the workspace.", "ok")
	_, stderr, code := r.exec("-p", "hi", "--base-url", server.URL(), "--model", "m", "--trust")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := filepath.Join(r.workspace, ".claude", "skills", "notes") + " was not read: it is a link to " + filepath.Join(home, "dotfiles", "skills", "notes")
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
	if raw := string(server.Requests()[0].Raw); strings.Contains(raw, "PLANTED") {
		t.Errorf("the request holds the home's skill:\n%s", raw)
	}
	if desc := skillDescription(server.Requests()[0]); !strings.Contains(desc, "- fine: FINE-SKILL stays in the workspace.") {
		t.Errorf("the skill inside the workspace was not offered:\n%s", desc)
	}
	if _, err := os.Stat(filepath.Join(r.workspace, ".claude", "skills", "notes", "SKILL.md")); err != nil {
		t.Fatalf("the link does not lead to the skill, so the test proves nothing: %v", err)
	}
}

// A skill's allowed-tools is what Claude Code lets run unasked while the skill is in use; Warden never
// acts on it: after the model loads the skill, a command it names still goes through the rules (denied
// headless, where it would ask).
func TestASkillsAllowedToolsLetNothingRunUnasked(t *testing.T) {
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("c1", "skill", `{"name":"marker"}`),
		fakeapi.ToolCall("c2", "bash", `{"command":"touch made-by-skill"}`), fakeapi.Text("done"))
	r := newRun(t)
	writeFile(t, filepath.Join(configOf(r), "warden", "skills", "marker", "SKILL.md"),
		"---\nname: marker\ndescription: Leaves a marker.\nallowed-tools: Bash(touch *) Bash\n---\nRun touch made-by-skill.\n")
	out, stderr, code := r.exec("-p", "mark it", "--base-url", server.URL(), "--model", "m", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range events(t, out) {
		if ev["type"] == "permission" && ev["id"] == "c2" && ev["decision"] != "deny" {
			t.Errorf("the skill's allowed-tools let the command run: %v", ev)
		}
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "made-by-skill")); err == nil {
		t.Error("the command ran")
	}
}
