package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestPastedPathsAreReadAsTerminalsWriteThem(t *testing.T) {
	for paste, want := range map[string][]string{
		"/tmp/shot.png":                               {"/tmp/shot.png"},
		"  /tmp/shot.png \n":                          {"/tmp/shot.png"},
		"/tmp/a.png\n/tmp/b.png":                      nil, // lines: text
		`/Users/me/Desktop/Screen\ Shot\ 2026.png `:   {"/Users/me/Desktop/Screen Shot 2026.png"},
		`'/home/me/Pictures/Shot 1.png' '/tmp/b.jpg'`: {"/home/me/Pictures/Shot 1.png", "/tmp/b.jpg"},
		`"/tmp/a b.png"`:                              {"/tmp/a b.png"},
		"file:///home/me/My%20Shot.png":               {"/home/me/My Shot.png"},
		"~/shot.png":                                  {"~/shot.png"},
		"look at /tmp/shot.png":                       nil,
		"shot.png":                                    nil,
		"'/tmp/unclosed.png":                          nil,
		"file://server/share/x.png":                   nil,
		"":                                            nil,
	} {
		got, ok := pastedPaths(paste)
		if !reflect.DeepEqual(got, want) || ok != (want != nil) {
			t.Errorf("pastedPaths(%q) = %q, %v; want %q", paste, got, ok, want)
		}
	}
}

func TestAPastedPicturePathBecomesAMention(t *testing.T) {
	m, _ := newTestModel(t, 100, 24)
	ws := t.TempDir()
	m.opts.Workspace = ws
	elsewhere := t.TempDir()
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 40)
	for path, content := range map[string]string{
		filepath.Join(ws, "shots", "a.png"):         png,
		filepath.Join(elsewhere, "Screen Shot.png"): png,
		filepath.Join(elsewhere, "notes.png"):       "not a picture at all",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m.Update(tea.PasteMsg{Content: filepath.Join(ws, "shots", "a.png") + " " + strings.ReplaceAll(filepath.Join(elsewhere, "Screen Shot.png"), " ", `\ `)})
	want := `@shots/a.png @"` + filepath.Join(elsewhere, "Screen Shot.png") + `" `
	if got := m.input.Value(); got != want {
		t.Errorf("input = %q, want %q", got, want)
	}
	if got := m.mentions(m.input.Value()); len(got) != 2 {
		t.Errorf("mentions = %q", got)
	}
	// A path to something that is not a picture is pasted as the text it is.
	m.clearInput()
	m.Update(tea.PasteMsg{Content: filepath.Join(elsewhere, "notes.png")})
	if got := m.input.Value(); got != filepath.Join(elsewhere, "notes.png") {
		t.Errorf("input = %q", got)
	}
}
