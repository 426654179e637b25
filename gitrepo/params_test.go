package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseParametersAgreesWithGit gives git and ParseParameters the same GIT_CONFIG_PARAMETERS and wants
// the same settings from `git config -l`, or a refusal from both.
func TestParseParametersAgreesWithGit(t *testing.T) {
	needGit(t)
	dir := tempDir(t)
	cases := []string{
		`'a.b'='c'`,
		`'a.b=c' 'd.e'='f g'`,
		`'x.y'=`,
		`'x.y'`,
		`  'a.b'='x'`,
		`'a.b'='it'\''s'	'c.d'='bang'\!'x'  `,
		`'a.b'='c'x`,
		`'a.b'=c`,
		`'a.b`,
		`a.b=c`,
		`'a.b'x`,
		`'Core.Pager'='less' 'sec.Sub.Key'='v'`,
		``,
	}
	for _, c := range cases {
		cmd := exec.Command("git", "config", "-l")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir, "GIT_CONFIG_PARAMETERS="+c)
		out, gitErr := cmd.Output()
		settings, err := ParseParameters(c)
		if (err != nil) != (gitErr != nil) {
			t.Errorf("%q: error %v, git's %v (%s)", c, err, gitErr, out)
			continue
		}
		if err != nil {
			continue
		}
		var got []string
		for _, s := range settings {
			if s.NoValue {
				got = append(got, canonicalKey(s.Key))
				continue
			}
			got = append(got, canonicalKey(s.Key)+"="+s.Value)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(out) == 0 {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got  %q\n want %q", c, got, want)
		}
	}
}

// TestQuoteParameterReadsBack: a setting written as git writes `-c` reads back whole.
func TestQuoteParameterReadsBack(t *testing.T) {
	for _, s := range []Setting{{Key: "a.b", Value: "it's"}, {Key: "include.path", Value: "~/x y"}, {Key: "x.y", NoValue: true}} {
		got, err := ParseParameters(QuoteParameter(s.Key, s.Value, s.NoValue) + " " + QuoteParameter("z.z", "1", false))
		if err != nil || len(got) != 2 || got[0] != s {
			t.Errorf("%+v: read back %+v, %v", s, got, err)
		}
	}
}

// TestIncludesAreRecorded: each included file is listed with the variable that named it, from a file or
// from the command line, and a relative include on the command line is a problem, as git refuses it.
func TestIncludesAreRecorded(t *testing.T) {
	dir := tempDir(t)
	home := filepath.Join(dir, "home")
	write(t, filepath.Join(home, ".gitconfig"), "[include]\npath = a\n")
	write(t, filepath.Join(home, "a"), "[x]\ny = 1\n")
	write(t, filepath.Join(home, "b"), "[x]\nz = 2\n")
	env := func(params string) Env {
		return func(name string) (string, bool) {
			switch name {
			case "GIT_CONFIG_NOSYSTEM":
				return "1", true
			case "GIT_CONFIG_PARAMETERS":
				return params, true
			}
			return "", false
		}
	}
	cfg := loadConfig(Repo{}, env(QuoteParameter("include.path", "~/b", false)), home)
	if cfg.Problem != "" {
		t.Fatalf("problem: %s", cfg.Problem)
	}
	if by, ok := cfg.IncludedBy(filepath.Join(home, "a")); !ok || by.File != filepath.Join(home, ".gitconfig") || by.Key != "include.path" {
		t.Errorf("a: included by %+v %v", by, ok)
	}
	if by, ok := cfg.IncludedBy(filepath.Join(home, "b")); !ok || by.File != "" || by.Env != "GIT_CONFIG_PARAMETERS" {
		t.Errorf("b: included by %+v %v", by, ok)
	}
	if e, ok := cfg.Last("x.z"); !ok || e.Value != "2" {
		t.Errorf("x.z from the command line's include: %+v %v", e, ok)
	}
	want := []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, "a"), filepath.Join(home, "b")}
	if got := cfg.Files(); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if rel := loadConfig(Repo{}, env(QuoteParameter("include.path", "b", false)), home); !strings.Contains(rel.Problem, "relative") {
		t.Errorf("a relative include on the command line: problem %q", rel.Problem)
	}
	if bad := loadConfig(Repo{}, env("'a.b"), home); !strings.Contains(bad.Problem, "GIT_CONFIG_PARAMETERS") {
		t.Errorf("GIT_CONFIG_PARAMETERS that does not parse: problem %q", bad.Problem)
	}
}

// TestLoadFileFollowsIncludesOnlyWhenAsked: one file, as `git config -f` reads it, with and without
// --includes.
func TestLoadFileFollowsIncludesOnlyWhenAsked(t *testing.T) {
	dir := tempDir(t)
	write(t, filepath.Join(dir, "cfg"), "[include]\npath = inc\n[a]\nb = 1\n")
	write(t, filepath.Join(dir, "inc"), "[s]\nk = v\n")
	if got := NewReader().LoadFile(filepath.Join(dir, "cfg"), false, dir).Files(); !slices.Equal(got, []string{filepath.Join(dir, "cfg")}) {
		t.Errorf("without includes: files %q", got)
	}
	with := NewReader().LoadFile(filepath.Join(dir, "cfg"), true, dir)
	if e, ok := with.Last("s.k"); !ok || e.File != filepath.Join(dir, "inc") {
		t.Errorf("with includes: s.k %+v %v", e, ok)
	}
}
