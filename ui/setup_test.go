package ui

import (
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
	"github.com/warden-cli/warden/tools/files"
)

// fullSetup is newSetup with every tool a session has (bash, files, todo_write), paths resolved as the
// wiring resolves them, and script in place of appScript.
func fullSetup(t *testing.T, script string) *setup {
	t.Helper()
	s := newSetup(t)
	sc, err := fakeapi.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	sc.Install(s.srv)
	home := t.TempDir()
	s.env.Resolve = func(cwd, p string) string { return permissions.ResolvePath(cwd, p, home) }
	s.env.Secret = func(p string) bool { return permissions.IsSecretPath(p, home) }
	s.reg = tools.NewRegistry(append(append(bash.NewTools(s.tasks), files.NewTools()...), tools.NewTodo())...)
	return s
}

// userMessages are the user messages the server received, each once, in order.
func userMessages(srv *fakeapi.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		for _, msg := range r.Messages {
			if msg.Role == "user" && !contains(out, msg.Content) {
				out = append(out, msg.Content)
			}
		}
	}
	return out
}
