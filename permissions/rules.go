package permissions

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Rule is one parsed permission rule: `Bash`, `Bash(git status)`, `Bash(npm run test:*)`,
// `Read(./src/**)`, `Edit(~/notes/*)`, `Write(//tmp/out)`.
type Rule struct {
	// Raw is the rule as the person wrote it.
	Raw string
	// Tool is "Bash", "Read", "Edit" or "Write".
	Tool string
	// Pattern is the text inside the parentheses; empty for a bare tool name.
	Pattern string

	any    bool
	prefix bool
	// words is the Bash pattern split into its literal text around `*` wildcards.
	glob string
	// pathGlob is the absolute doublestar pattern of a path rule, built by compile.
	pathGlob string
	// linkGlob is, for a deny or ask rule, pathGlob with the symbolic links of its literal start
	// resolved, or "" when that is pathGlob (rule_links.go).
	linkGlob string
	// shape is a Bash rule read the way deny and ask rules match commands (rulematch.go), built by
	// compile.
	shape *shape
	// host is a WebFetch rule's host, canonical; prefix then says it names the host's subdomains (webfetch.go).
	host string
}

// ParseRule parses the rule syntax of DESIGN.md §5. Path patterns are kept as written; they are made
// absolute against a workspace and home when an Engine is built.
func ParseRule(s string) (Rule, error) {
	raw := s
	s = strings.TrimSpace(s)
	if s == "" {
		return Rule{}, errors.New("empty rule")
	}
	if cc := controlIn(s); cc != "" {
		return Rule{}, fmt.Errorf("rule %q contains the control character %s", raw, cc)
	}
	tool, pattern := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Rule{}, fmt.Errorf("rule %q: missing closing parenthesis", raw)
		}
		tool, pattern = s[:i], s[i+1:len(s)-1]
	}
	if isMCPRuleName(s) {
		return parseMCPRule(raw, s)
	}
	if tool == webFetchTool {
		return parseWebFetchRule(raw, pattern, !strings.Contains(s, "("))
	}
	r := Rule{Raw: raw, Tool: tool, Pattern: pattern}
	switch tool {
	case "Bash":
		p := strings.TrimSpace(pattern)
		if p == "" || p == "*" || p == ":*" {
			r.any = true
			return r, nil
		}
		switch {
		case strings.HasSuffix(p, ":*"):
			r.prefix, p = true, strings.TrimSpace(strings.TrimSuffix(p, ":*"))
		case strings.HasSuffix(p, " *"):
			r.prefix, p = true, strings.TrimSpace(strings.TrimSuffix(p, " *"))
		}
		if p == "" {
			return Rule{}, fmt.Errorf("rule %q: empty command pattern", raw)
		}
		r.glob = strings.Join(strings.Fields(p), " ")
		return r, nil
	case "Read", "Edit", "Write":
		p := strings.TrimSpace(pattern)
		if p == "" {
			return Rule{}, fmt.Errorf("rule %q: %s needs a path pattern, like %s(./src/**)", raw, tool, tool)
		}
		if !doublestar.ValidatePattern(strings.TrimPrefix(strings.TrimPrefix(p, "~/"), "//")) {
			return Rule{}, fmt.Errorf("rule %q: bad path pattern", raw)
		}
		r.Pattern = p
		return r, nil
	}
	return Rule{}, fmt.Errorf("rule %q: unknown tool %q (use Bash, Read, Edit, Write, WebFetch or mcp__SERVER__TOOL)", raw, tool)
}

// compile makes a path rule's pattern absolute: `//x` is absolute, `~/x` is in home, anything else is
// relative to the workspace. The roots are resolved like any path, so that rules and paths agree.
func (r *Rule) compile(workspace, home string) {
	if r.Tool == "Bash" {
		r.compileBash(home)
		return
	}
	if isMCPRuleName(r.Tool) || r.Tool == webFetchTool {
		return
	}
	p := r.Pattern
	var root string
	switch {
	case strings.HasPrefix(p, "//"):
		root, p = "/", p[2:]
	case p == "~" || strings.HasPrefix(p, "~/"):
		root, p = home, strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/")
	default:
		root, p = workspace, strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	if root == "" {
		r.pathGlob = ""
		return
	}
	root = ResolvePath("/", root, home)
	r.pathGlob = escapeGlob(root)
	if p != "" {
		r.pathGlob = strings.TrimSuffix(r.pathGlob, "/") + "/" + p
	}
}

// compileBash makes `~`, `$HOME` and `${HOME}` in a Bash rule the home directory, as they are in the
// command's words, and reads the rule's shape.
func (r *Rule) compileBash(home string) {
	if r.any {
		return
	}
	words := strings.Split(r.glob, " ")
	for i, w := range words {
		if home == "" {
			break
		}
		for _, h := range []string{"${HOME}", "$HOME", "~"} {
			if rest, ok := strings.CutPrefix(w, h); ok && (rest == "" || rest[0] == '/') {
				words[i] = strings.TrimSuffix(home, "/") + rest
				break
			}
		}
	}
	r.glob = strings.Join(words, " ")
	sh := readShape(words)
	r.shape = &sh
}

func escapeGlob(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]{}\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// matchPath reports whether a path rule covers abs (resolved): the pattern, as written or with its links
// resolved, matches the path or one of its parent directories, since a rule naming a directory covers
// what is inside.
func (r *Rule) matchPath(abs string) bool {
	if r.pathGlob == "" || !filepath.IsAbs(abs) {
		return false
	}
	for p := abs; ; p = filepath.Dir(p) {
		if ok, _ := doublestar.Match(r.pathGlob, p); ok {
			return true
		}
		if r.linkGlob != "" {
			if ok, _ := doublestar.Match(r.linkGlob, p); ok {
				return true
			}
		}
		if p == "/" || p == "." {
			return false
		}
	}
}

// matchArgs reports whether a Bash rule matches an argument vector: joined by single spaces, the words
// must equal the pattern (exact rules) or begin with it followed by a space or the end (prefix rules),
// with `*` matching any run of characters.
func (r *Rule) matchArgs(args []string) bool {
	if r.Tool != "Bash" {
		return false
	}
	if r.any {
		return true
	}
	if len(args) == 0 {
		return false
	}
	s := strings.Join(args, " ")
	if !r.prefix {
		return wildcard(r.glob, s)
	}
	if wildcard(r.glob, s) {
		return true
	}
	// The prefix must end at a word boundary: `git status:*` does not match `git statusx`.
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && wildcard(r.glob, s[:i]) {
			return true
		}
	}
	return false
}

// wildcard matches s against a pattern where `*` is any run of characters and everything else is literal.
func wildcard(pattern, s string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == s
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, last)
}

// literalWords is how many leading words of the pattern are free of wildcards: the words a rule needs
// to see exactly before it may allow.
func (r *Rule) literalWords() int {
	n := 0
	for _, w := range strings.Split(r.glob, " ") {
		if strings.Contains(w, "*") {
			break
		}
		n++
	}
	return n
}
