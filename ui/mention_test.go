package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mentionScript answers a prompt with attachments: the fake server counts the attachments' turn as the
// rule's first step, so the answer is the second.
const mentionScript = `{"rules": [{"steps": [{"text": "not reached"}, {"text": "You said: {{prompt}}"}]}]}`

// A sent @mention attaches the file: the model's first request holds its content as a read_file result.
func TestAppMentionAttachesTheFile(t *testing.T) {
	s := fullSetup(t, mentionScript)
	a := startAppWith(t, s, nil, nil)
	a.prompt("summarise @hello.txt, and @missing.txt")
	a.waitFor("read_file", "You said:")
	reqs := a.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	var read bool
	for _, msg := range reqs[0].Messages {
		if msg.Role == "tool" && strings.Contains(msg.Content, "hi") && strings.Contains(msg.Content, "whole file") {
			read = true
		}
	}
	if !read {
		t.Errorf("the first request lacks hello.txt: %+v", reqs[0].Messages)
	}
	a.waitFor("@missing.txt is not a file: sent as text")
}

// A mentioned secret asks before it is read, as read_file does; denied, it is not sent.
func TestAppMentionOfASecretAsks(t *testing.T) {
	s := fullSetup(t, mentionScript)
	if err := os.WriteFile(filepath.Join(s.dir, ".env"), []byte("TOKEN=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := startAppWith(t, s, nil, nil)
	a.prompt("check @.env")
	a.waitFor("Allow read_file?", ".env", "y allow once")
	a.typeKey('n')
	a.waitFor("You said:")
	for _, r := range a.srv.Requests() {
		if strings.Contains(string(r.Raw), "hunter2") {
			t.Fatal("the secret reached the model")
		}
	}
}

func TestMentionsParsesQuotesAndPunctuation(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	dir := t.TempDir()
	m.opts.Workspace = dir
	for _, name := range []string{"a.go", "my notes.txt", "end."} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "src"), 0o755)
	got := m.mentions(`see @a.go, @"my notes.txt" and @end. also @src and mail x@a.go`)
	want := []string{filepath.Join(dir, "a.go"), filepath.Join(dir, "my notes.txt"), filepath.Join(dir, "end.")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("mentions = %q", got)
	}
	if s := plain(m); !strings.Contains(s, "@src is a directory") {
		t.Errorf("no note about the directory:\n%s", s)
	}
}

// @ opens the menu on the workspace's files, leaving out what git ignores; Tab takes the file, a folder
// opens on its contents, and the mention is sent with the prompt.
func TestAppAtCompletesFilesHonouringGitignore(t *testing.T) {
	s := fullSetup(t, mentionScript)
	for name, text := range map[string]string{".gitignore": "build/\n*.log\n", "src/parser.go": "package src\n",
		"src/parser_test.go": "package src\n", "build/parser.go": "x\n", "parser.log": "x\n"} {
		p := filepath.Join(s.dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	a := startAppWith(t, s, nil, nil)
	a.tm.Type("explain @pars")
	scr := a.waitFor("src/parser.go", "src/parser_test.go", "tab or enter take")
	if strings.Contains(scr, "build/parser.go") || strings.Contains(scr, "parser.log") {
		t.Fatalf("ignored files are offered:\n%s", scr)
	}
	a.key(keyMsg("tab"))
	a.waitFor("❯ explain @src/parser.go")
	a.tm.Type("and @sr")
	a.waitFor("src/", "folder")
	a.key(keyMsg("enter"))
	a.waitFor("❯ explain @src/parser.go and @src/", "src/parser_test.go")
	a.key(keyMsg("esc"))
	a.tm.Type(" too")
	a.key(keyMsg("enter"))
	a.waitFor("You said:")
	reqs := a.srv.Requests()
	if !strings.Contains(string(reqs[0].Raw), "package src") {
		t.Errorf("the mentioned file was not attached: %s", reqs[0].Raw)
	}
}
