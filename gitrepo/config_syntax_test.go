package gitrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseConfigAgreesWithGit reads awkward configuration files with ParseConfig and with `git config
// --list`, and wants the same variables and values, or an error from both.
func TestParseConfigAgreesWithGit(t *testing.T) {
	needGit(t)
	cases := []string{
		"[core]\n\tfsmonitor = ./x\n",
		"[core] fsmonitor = ./x",
		"[Core]\nFSMonitor=./x",
		"[diff \"pdf\"]\ntextconv = pdftotext",
		"[diff \"P\\\"D\\\\F\"]\ntextconv = a",
		"[diff.PDF]\ntextconv = a",
		"[filter \"lfs\"]\n  clean = git-lfs clean -- %f\n  smudge = \"git-lfs smudge\" -- %f\n  process = git-lfs filter-process\n  required",
		"[a]\nb = one \\\n two",
		"[a]\nb = \"quoted # not a comment\" ; comment",
		"[a]\nb = x\\ty\\nz\\\\w\\\"",
		"[a]\nb = x    y\t\tz   ",
		"[a]\nb",
		"[a]\nb = \n",
		"[a]\r\nb = c\r\n",
		"\ufeff[a]\nb = c",
		"# comment\n; another\n[a] ; c\nb = c # c",
		"[a]\nb = \"unterminated",
		"[a]\nb = bad \\q escape",
		"b = no section",
		"[a\nb = c",
		"[a \"sub]\nb = c",
		"[a]\n1b = c",
		"[a]\nb c",
		"[a]\nb-c = d",
		"[a \"x\"] b = c\n[d] e",
		"[a]b=c",
		"[a]\nb = c\"d\"e",
		"[include]\npath = other",
		"[a]\nb = \"\"",
		"[]\nb = c",
		"[a \"\\x\"]\nb = c",
		"[a]\nb = c\\",
	}
	dir := t.TempDir()
	for i, c := range cases {
		f := filepath.Join(dir, fmt.Sprintf("c%d", i))
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "--file", f, "--no-includes", "--list", "-z")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, gitErr := cmd.Output()
		var want []string
		for _, item := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if item == "" {
				continue
			}
			k, v, ok := strings.Cut(item, "\n")
			if !ok {
				want = append(want, k+"<true>")
				continue
			}
			want = append(want, canonicalKey(k)+"="+v)
		}
		var got []string
		_, err := ParseConfig([]byte(c), func(line int, key, value string, noValue bool) {
			if noValue {
				got = append(got, key+"<true>")
				return
			}
			got = append(got, key+"="+value)
		})
		if (err != nil) != (gitErr != nil) {
			t.Errorf("%q: parse error %v, git's error %v (%s)", c, err, gitErr, out)
			continue
		}
		if err == nil && !slices.Equal(got, want) {
			t.Errorf("%q:\n got  %q\n want %q", c, got, want)
		}
	}
}

// FuzzParseConfig: no input makes the parser panic or loop, and a variable's key always has a name.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"[core]\n\tfsmonitor = x\n", "[a \"b\\\"c\"] d = \"e\\\\\" ; f\n", "[a.B]c", "\ufeff[a]\r\nb=c\\\n d", "[a]\nb = \"x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseConfig(data, func(line int, key, value string, noValue bool) {
			if key == "" || line < 1 {
				t.Fatalf("variable with key %q at line %d", key, line)
			}
		})
	})
}

func TestParseConfigReadsValues(t *testing.T) {
	text := "\xef\xbb\xbf# comment\n[core]\n\texcludesFile = \"~/my ignore\" ; trailing\n\tignoreCase\n" +
		"[Include]\n\tpath = a\\\nb\n[includeIf \"gitdir:~/w/\"]\n\tpath = w.inc\n[sec.Sub] k = v  x  \n"
	var got []string
	if _, err := ParseConfig([]byte(text), func(_ int, k, v string, noValue bool) {
		if noValue {
			v = "true"
		}
		got = append(got, k+"="+v)
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"core.excludesfile=~/my ignore", "core.ignorecase=true", "include.path=ab",
		"includeif.gitdir:~/w/.path=w.inc", "sec.sub.k=v  x"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: got %q, want %q", i, got[i], want[i])
		}
	}
	if _, err := ParseConfig([]byte("[core\n"), func(int, string, string, bool) {}); err == nil {
		t.Error("an unclosed section header parsed")
	}
}
