package permissions

import (
	"path/filepath"
	"strings"
)

// Read deny and ask rules keep paths from being read unasked; the read-only jail, where commands judged
// read-only run unasked, must keep them out too, since its programs read files no command names (a C
// compiler's #include under go vet). Each hidden path is a mask made before the jail starts, so the jail
// needs the paths, not only a judge of them (SearchRule).

// ReadRuleRoots are where the paths of the Read deny and ask rules in force begin: a rule's path up to
// its first wildcard, or the whole path when it has none, as written and with its links resolved
// (rule_links.go). Everything SearchRule finds a rule for is at or
// below one of them.
func (e *Engine) ReadRuleRoots() []string {
	var out []string
	for _, r := range e.readRules() {
		for _, glob := range r.globs() {
			root := globRoot(glob)
			if root != "" && !containsString(out, root) {
				out = append(out, root)
			}
		}
	}
	return out
}

func (e *Engine) readRules() []Rule {
	s := e.snapshot()
	var out []Rule
	for _, list := range [][]Rule{s.deny, s.ask} {
		for _, r := range list {
			if r.Tool == "Read" && r.pathGlob != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

// globRoot returns the directory (or file) a compiled path pattern starts from: its components before
// the first one holding a wildcard, unescaped.
func globRoot(glob string) string {
	var kept []string
	for _, c := range strings.Split(glob, "/") {
		if hasWildcard(c) {
			break
		}
		kept = append(kept, unescapeGlob(c))
	}
	root := strings.Join(kept, "/")
	if root == "" && strings.HasPrefix(glob, "/") {
		return "/"
	}
	if !filepath.IsAbs(root) {
		return ""
	}
	return filepath.Clean(root)
}

// hasWildcard reports whether a pattern component has an unescaped wildcard.
func hasWildcard(c string) bool {
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '\\':
			i++
		case '*', '?', '[', '{':
			return true
		}
	}
	return false
}

func unescapeGlob(c string) string {
	if !strings.Contains(c, `\`) {
		return c
	}
	var b strings.Builder
	for i := 0; i < len(c); i++ {
		if c[i] == '\\' && i+1 < len(c) {
			i++
		}
		b.WriteByte(c[i])
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
