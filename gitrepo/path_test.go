package gitrepo

import "testing"

// TestValidPathIsGitsVerifyPath: the paths git refuses to check out (its own t/t1014, t7415 cases among
// them) are refused, the ordinary ones kept.
func TestValidPathIsGitsVerifyPath(t *testing.T) {
	const file, dir, link = 0o100644, 0o040000, 0o120000
	for _, c := range []struct {
		path string
		mode uint32
		ok   bool
	}{
		{"a", file, true}, {"a/b/c.go", file, true}, {".gitignore", file, true}, {".github/x", file, true},
		{"a/.gitx", file, true}, {"a/..b", file, true}, {"a/.b", file, true}, {"git~2", file, true},
		{"a\\b", file, true}, {"...", file, true},
		{"", file, false}, {"/etc/passwd", file, false}, {"../home-secret", file, false}, {"a/../../x", file, false},
		{"a/..", file, false}, {"./a", file, false}, {"a/./b", file, false}, {"a//b", file, false},
		{"a/", file, false}, {"a/", dir, true},
		{".git", file, false}, {".git/config", file, false}, {"sub/.git/hooks/x", file, false},
		{".GIT/config", file, false}, {".Git", link, false}, {"a/.git", file, false},
		{".git ", file, false}, {".git.", file, false}, {".git. . ", file, false}, {".git::$INDEX_ALLOCATION/x", file, false},
		{"git~1/config", file, false}, {"GIT~1", file, false}, {"a\\.git\\config", file, false}, {"a\\git~1", file, false},
	} {
		if got := ValidPath(c.path, c.mode); got != c.ok {
			t.Errorf("ValidPath(%q, %o) = %v, want %v", c.path, c.mode, got, c.ok)
		}
	}
}
