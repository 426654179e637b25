package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Each settings file the load reads is held to the same strict keys; a mistake names the file it is in.
// In the person's own files it stops the load; in the project's shared file it is a warning, and the file
// is left out.
func TestStrictKeysInEverySettingsFile(t *testing.T) {
	cases := []struct {
		name, content string
		want          []string
	}{
		{"duplicate key names both lines",
			"{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm:*)\"],\n    \"allow\": [],\n    \"deny\": []\n  }\n}",
			[]string{":5:5: \"deny\" is given twice in permissions, on lines 3 and 5"}},
		{"duplicate at the top level",
			"{\"model\": \"a\",\n\"model\": \"b\"}",
			[]string{":2:1: \"model\" is given twice, on lines 1 and 2"}},
		{"duplicate inside a list of objects is still found",
			"{\"bash\": {\"limits\": {\"memory_mb\": 1,\n \"memory_mb\": 2}}}",
			[]string{"\"memory_mb\" is given twice in bash.limits, on lines 1 and 2"}},
		{"a key in the wrong case is unknown",
			"{\"permissions\": {\n  \"Deny\": [\"Bash(rm:*)\"]}}",
			[]string{":2:3: unknown setting \"Deny\" in permissions; did you mean `deny`? (keys are case-sensitive)"}},
		{"a misspelt key names the nearest",
			"{\"modle\": \"x\"}",
			[]string{"unknown setting \"modle\"; did you mean `model`?"}},
		{"a nested misspelling names the nearest in its object",
			"{\"bash\": {\"timeout\": 5}}",
			[]string{"unknown setting \"timeout\" in bash; did you mean `timeout_ms`?"}},
		{"nothing near lists the keys",
			"{\"ui\": {\"colours\": \"dark\"}}",
			[]string{"unknown setting \"colours\" in ui; the keys here are mouse, notifications, theme, transcript_on_exit"}},
	}
	places := map[string]func(f *fixture) string{
		"user":    func(f *fixture) string { return f.user },
		"project": func(f *fixture) string { return filepath.Join(f.ws, ".warden", "settings.json") },
		"local":   func(f *fixture) string { return filepath.Join(f.ws, ".warden", "settings.local.json") },
	}
	for _, tc := range cases {
		for place, file := range places {
			t.Run(tc.name+"/"+place, func(t *testing.T) {
				f := newFixture(t)
				path := file(f)
				f.write(t, path, tc.content)
				cfg, err := f.load(t, Overrides{})
				if place != "user" {
					// A file in the workspace is left out with a warning: the repository may have
					// committed it (settings.local.json too), and it must not stop Warden.
					err = leftOut(t, cfg, err, path)
				}
				if err == nil {
					t.Fatalf("no error for %q", tc.content)
				}
				if !strings.HasPrefix(err.Error(), path+":") {
					t.Errorf("error does not name %s: %v", path, err)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
			})
		}
	}
}

func TestDuplicateKeysInFreeFormObjectsAreErrors(t *testing.T) {
	// Keys of a map may be anything, but a name given twice still loses one value.
	f := newFixture(t)
	f.write(t, f.user, "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}, \"sandbox\": {\"writable\": [\"/a\"]},\n\"bash\": {\"env\": [\"X\"]},\n\"bash\": {}}")
	_, err := f.load(t, Overrides{})
	if err == nil || !strings.Contains(err.Error(), "\"bash\" is given twice, on lines 2 and 3") {
		t.Errorf("err = %v", err)
	}
}

func TestByteOrderMarkIsSkipped(t *testing.T) {
	for _, content := range []string{"\uFEFF{\"model\": \"m\"}", "\uFEFF\n{\n\"model\": \"m\"}\n"} {
		f := newFixture(t)
		f.write(t, filepath.Join(f.ws, ".warden", "settings.json"), content)
		cfg, err := f.load(t, Overrides{})
		if err != nil {
			t.Fatalf("%q: %v", content, err)
		}
		if cfg.Model != "m" {
			t.Errorf("%q: model %q", content, cfg.Model)
		}
	}
	// Positions after a mark still count from the first character a person sees.
	f := newFixture(t)
	f.write(t, f.user, "\uFEFF{\"model\": 5}")
	if _, err := f.load(t, Overrides{}); err == nil || !strings.Contains(err.Error(), ":1:12:") {
		t.Errorf("err = %v", err)
	}
}

func TestCorrectSettingsStillLoad(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.user, `{"model":"m","permissions":{"mode":"plan","allow":["Bash(ls)"],"deny":["Bash(rm:*)"],"ask":[],"additional_directories":[]},
"bash":{"timeout_ms":1000,"max_timeout_ms":2000,"max_output_chars":10,"env":[],"auto_background_after_ms":0,"limits":{"memory_mb":1,"processes":2,"cpu_seconds":3,"file_size_mb":4}},
"sandbox":{"enabled":false,"network":false,"writable":[],"auto_allow":false},"ui":{"theme":"dark","transcript_on_exit":true,"mouse":true,"notifications":"bell"},"context_window":1,"max_steps":2,"base_url":"http://x","api_key_env":"K"}`)
	if _, err := f.load(t, Overrides{}); err != nil {
		t.Fatal(err)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"deny", "deny", 0}, {"modle", "model", 1}, {"alow", "allow", 1}, {"timeout", "timeout_ms", 3}, {"abc", "", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// leftOut checks that a load went on without the project's file at path, warning once with what is wrong
// with it, and returns the warning as an error to judge its words.
func leftOut(t *testing.T, cfg *Config, err error, path string) error {
	t.Helper()
	if err != nil {
		t.Fatalf("the project's file stopped the load: %v", err)
	}
	var said []string
	for _, w := range cfg.Warnings {
		if strings.HasPrefix(w, path+":") {
			said = append(said, w)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "Warden goes on without this file") {
		t.Fatalf("warnings %q; want one naming %s and saying Warden goes on without it", cfg.Warnings, path)
	}
	if slices.Contains(cfg.Files, path) {
		t.Errorf("%s was applied although it does not check", path)
	}
	return errors.New(said[0])
}
