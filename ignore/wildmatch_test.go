package ignore

import "testing"

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		pathname      bool
		fold          bool
		want          bool
	}{
		{"foo", "foo", true, false, true},
		{"foo", "fo", true, false, false},
		{"f*", "foo", true, false, true},
		{"*", "a/b", true, false, false},
		{"*", "a/b", false, false, true},
		{"a/*", "a/b", true, false, true},
		{"a/*", "a/b/c", true, false, false},
		{"a/*/c", "a/b/c", true, false, true},
		{"a/*/c", "a/b/x/c", true, false, false},
		{"**/c", "c", true, false, true},
		{"**/c", "a/b/c", true, false, true},
		{"a/**", "a/b/c", true, false, true},
		{"a/**", "a", true, false, false},
		{"a/**/c", "a/c", true, false, true},
		{"a/**/c", "a/b/d/c", true, false, true},
		{"a**/c", "ab/c", true, false, true},
		{"a**/c", "a/b/c", true, false, false},
		{"a/**b", "a/xb", true, false, true},
		{"a/**b", "a/x/b", true, false, false},
		{"?", "/", true, false, false},
		{"?", "/", false, false, true},
		{"a?c", "abc", true, false, true},
		{"[abc]", "b", true, false, true},
		{"[!abc]", "b", true, false, false},
		{"[^abc]", "d", true, false, true},
		{"[a-c]x", "bx", true, false, true},
		{"[a-c]x", "dx", true, false, false},
		{"[]]", "]", true, false, true},
		{"[]-]", "-", true, false, true},
		{"[a-]", "-", true, false, true},
		{"[[:digit:]]", "5", true, false, true},
		{"[[:digit:]]", "x", true, false, false},
		{"[[:upper:]]", "a", true, true, true},
		{"[[:nope:]]", "a", true, false, false},
		{"[[:alpha:]", "a", true, false, false},
		{"[/]", "/", true, false, false},
		{"[/]", "/", false, false, true},
		{"[a", "a", true, false, false},
		{"a\\", "a", true, false, false},
		{"\\*", "*", true, false, true},
		{"\\*", "x", true, false, false},
		{"\\!x", "!x", true, false, true},
		{"FOO", "foo", true, true, true},
		{"[a]", "A", true, true, true},
		{"[A]", "A", true, true, false},
		{"[A-Z]", "q", true, true, true},
		{"*.[ch]", "x.h", true, false, true},
		{"*a*b*c*", "xaybzc", true, false, true},
		{"*a*b*c*", "xaybz", true, false, false},
		{"**/*.go", "a/b/c.go", true, false, true},
		{"**/*.go", "c.go", true, false, true},
		{"a/**/**/b", "a/b", true, false, true},
		{"a/**/**/b", "a/x/y/b", true, false, true},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text, tt.pathname, tt.fold); got != tt.want {
			t.Errorf("wildmatch(%q, %q, pathname=%v, fold=%v) = %v, want %v", tt.pattern, tt.text, tt.pathname, tt.fold, got, tt.want)
		}
	}
}

// A pattern made to make a naive backtracking matcher take exponential time finishes at once.
func TestWildmatchPathological(t *testing.T) {
	text := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"
	pattern := "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*ac"
	if wildmatch(pattern, text, true, false) {
		t.Fatal("matched")
	}
	deep := "**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/c"
	path := "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/b"
	if wildmatch(deep, path, true, false) {
		t.Fatal("matched")
	}
}

func TestParsePattern(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		glob    string
		negated bool
		dirOnly bool
		base    bool
	}{
		{"", false, "", false, false, false},
		{"# comment", false, "", false, false, false},
		{"\\#hash", true, "\\#hash", false, false, true},
		{"!keep", true, "keep", true, false, true},
		{"\\!bang", true, "\\!bang", false, false, true},
		{"build/", true, "build", false, true, true},
		{"/top", true, "top", false, false, false},
		{"a/b/", true, "a/b", false, true, false},
		{"trail   ", true, "trail", false, false, true},
		{"esc\\ ", true, "esc\\ ", false, false, true},
		{"esc\\  ", true, "esc\\ ", false, false, true},
		{"crlf\r", true, "crlf", false, false, true},
	}
	for _, tt := range tests {
		p, ok := ParsePattern(tt.line)
		if ok != tt.ok {
			t.Errorf("ParsePattern(%q) ok = %v", tt.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if p.glob != tt.glob || p.negated != tt.negated || p.dirOnly != tt.dirOnly || p.basename != tt.base {
			t.Errorf("ParsePattern(%q) = glob %q negated %v dirOnly %v basename %v", tt.line, p.glob, p.negated, p.dirOnly, p.basename)
		}
	}
}

func TestParseConfig(t *testing.T) {
	text := "\xef\xbb\xbf# comment\n[core]\n\texcludesFile = \"~/my ignore\" ; trailing\n\tignoreCase\n" +
		"[Include]\n\tpath = a\\\nb\n[includeIf \"gitdir:~/w/\"]\n\tpath = w.inc\n[sec.Sub] k = v  x  \n"
	var got []string
	if err := parseConfig([]byte(text), func(k, v string) { got = append(got, k+"="+v) }); err != nil {
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
	if err := parseConfig([]byte("[core\n"), func(string, string) {}); err == nil {
		t.Error("an unclosed section header parsed")
	}
}
