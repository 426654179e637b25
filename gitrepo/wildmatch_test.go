package gitrepo

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
		if got := Wildmatch(tt.pattern, tt.text, tt.pathname, tt.fold); got != tt.want {
			t.Errorf("Wildmatch(%q, %q, pathname=%v, fold=%v) = %v, want %v", tt.pattern, tt.text, tt.pathname, tt.fold, got, tt.want)
		}
	}
}

// A pattern made to make a naive backtracking matcher take exponential time finishes at once.
func TestWildmatchPathological(t *testing.T) {
	text := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"
	pattern := "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*ac"
	if Wildmatch(pattern, text, true, false) {
		t.Fatal("matched")
	}
	deep := "**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/c"
	path := "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/b"
	if Wildmatch(deep, path, true, false) {
		t.Fatal("matched")
	}
}
