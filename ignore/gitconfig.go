package ignore

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Git's configuration is read here only for the keys that decide what is ignored (core.excludesFile,
// core.ignoreCase), from the files git would read, in its order: system, global (XDG, then ~/.gitconfig),
// the repository's config and config.worktree, then GIT_CONFIG_COUNT/KEY_n/VALUE_n. include.path and
// includeIf (gitdir:, gitdir/i:, onbranch:) are followed; a condition Warden cannot evaluate
// (hasconfig:) is false. A file that does not parse stops being read where it breaks, keeping what came
// before, where git would refuse to run: an ignore rule is never worth failing a walk over.

// gitConfig is the part of git's configuration the ignore rules use.
type gitConfig struct {
	excludesFile    string
	excludesFileSet bool
	ignoreCase      bool
	worktreeConfig  bool
}

const maxIncludeDepth = 10

// loadGitConfig reads the configuration git would use in repo (or, with repo nil, outside any
// repository).
func loadGitConfig(repo *Repo) gitConfig {
	var c gitConfig
	set := func(key, value string) {
		switch key {
		case "core.excludesfile":
			c.excludesFile, c.excludesFileSet = value, true
		case "core.ignorecase":
			c.ignoreCase = parseBool(value)
		case "extensions.worktreeconfig":
			c.worktreeConfig = parseBool(value)
		}
	}
	r := configReader{repo: repo, set: set}
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" || !parseBool(os.Getenv("GIT_CONFIG_NOSYSTEM")) {
		system := os.Getenv("GIT_CONFIG_SYSTEM")
		if system == "" {
			system = "/etc/gitconfig"
		}
		r.file(system, 0)
	}
	if global, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if global != "" {
			r.file(global, 0)
		}
	} else {
		if x := xdgConfigHome(); x != "" {
			r.file(filepath.Join(x, "git", "config"), 0)
		}
		if home := os.Getenv("HOME"); home != "" {
			r.file(filepath.Join(home, ".gitconfig"), 0)
		}
	}
	if repo != nil {
		r.file(filepath.Join(repo.CommonDir, "config"), 0)
		if c.worktreeConfig {
			r.file(filepath.Join(repo.GitDir, "config.worktree"), 0)
		}
	}
	if n, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT")); err == nil {
		for i := range n {
			key := os.Getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if key != "" {
				set(canonicalKey(key), os.Getenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i)))
			}
		}
	}
	return c
}

// excludesPath is the file core.excludesFile names, with git's default when it is unset.
func (c gitConfig) excludesPath(top string) string {
	if !c.excludesFileSet {
		if x := xdgConfigHome(); x != "" {
			return filepath.Join(x, "git", "ignore")
		}
		return ""
	}
	p := expandHome(c.excludesFile)
	if p != "" && !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	return p
}

func xdgConfigHome() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x
	}
	if home := os.Getenv("HOME"); home != "" {
		return filepath.Join(home, ".config")
	}
	return ""
}

// expandHome expands a leading "~/" the way git expands its path values.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home := os.Getenv("HOME"); home != "" {
			return home + p[1:]
		}
	}
	return p
}

// canonicalKey lower-cases a key's section and name and keeps its subsection as written.
func canonicalKey(key string) string {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

func parseBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		return n != 0
	}
	return false
}

type configReader struct {
	repo *Repo
	set  func(key, value string)
}

// file reads one configuration file and the files it includes.
func (r *configReader) file(path string, depth int) {
	if depth > maxIncludeDepth {
		return
	}
	data, err := readLimited(path, false)
	if err != nil {
		return
	}
	_ = parseConfig(string(data), func(key, value string) {
		switch {
		case key == "include.path":
			r.include(path, value, depth)
		case strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
			if r.condition(path, key[len("includeif."):len(key)-len(".path")]) {
				r.include(path, value, depth)
			}
		default:
			r.set(key, value)
		}
	})
}

func (r *configReader) include(from, path string, depth int) {
	path = expandHome(path)
	if path == "" {
		return
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(from), path)
	}
	r.file(path, depth+1)
}

// condition evaluates an includeIf condition read from the file at from.
func (r *configReader) condition(from, cond string) bool {
	kind, pattern, ok := strings.Cut(cond, ":")
	if !ok || r.repo == nil {
		return false
	}
	switch kind {
	case "gitdir", "gitdir/i":
		fold := kind == "gitdir/i"
		pattern = expandHome(pattern)
		if strings.HasPrefix(pattern, "./") {
			pattern = filepath.Join(filepath.Dir(from), pattern[2:])
		} else if !filepath.IsAbs(pattern) {
			pattern = "**/" + pattern
		}
		if strings.HasSuffix(pattern, "/") {
			pattern += "**"
		}
		dirs := []string{r.repo.GitDir}
		if real, err := filepath.EvalSymlinks(r.repo.GitDir); err == nil && real != r.repo.GitDir {
			dirs = append(dirs, real)
		}
		for _, d := range dirs {
			if wildmatch(pattern, filepath.ToSlash(d), true, fold) {
				return true
			}
		}
	case "onbranch":
		branch := r.repo.branch()
		if branch == "" {
			return false
		}
		if strings.HasSuffix(pattern, "/") {
			pattern += "**"
		}
		return wildmatch(pattern, branch, true, false)
	}
	return false
}

var errConfigSyntax = errors.New("bad config syntax")

// parseConfig calls visit with each key (section[.subsection].name, section and name lower-cased) and
// value in order. A key without "=" is a boolean true.
func parseConfig(text string, visit func(key, value string)) error {
	p := configParser{s: strings.TrimPrefix(text, "\xef\xbb\xbf")}
	section := ""
	for {
		p.skipSpace(true)
		if p.done() {
			return nil
		}
		switch c := p.peek(); {
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			s, err := p.header()
			if err != nil {
				return err
			}
			section = s
		case isAlpha(c):
			if section == "" {
				return errConfigSyntax
			}
			name, value, err := p.variable()
			if err != nil {
				return err
			}
			visit(section+"."+name, value)
		default:
			return errConfigSyntax
		}
	}
}

type configParser struct {
	s string
	i int
}

func (p *configParser) done() bool { return p.i >= len(p.s) }
func (p *configParser) peek() byte { return p.s[p.i] }

func (p *configParser) skipSpace(newlines bool) {
	for !p.done() {
		c := p.peek()
		if c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n') {
			p.i++
			continue
		}
		return
	}
}

func (p *configParser) skipLine() {
	for !p.done() && p.peek() != '\n' {
		p.i++
	}
}

// header reads "[section]", "[section "sub"]" or the old "[section.sub]".
func (p *configParser) header() (string, error) {
	p.i++
	start := p.i
	for !p.done() && (isAlpha(p.peek()) || isDigit(p.peek()) || p.peek() == '-' || p.peek() == '.') {
		p.i++
	}
	name := strings.ToLower(p.s[start:p.i])
	if p.done() {
		return "", errConfigSyntax
	}
	if p.peek() == ']' {
		p.i++
		if name == "" {
			return "", errConfigSyntax
		}
		return name, nil
	}
	if p.peek() != ' ' && p.peek() != '\t' {
		return "", errConfigSyntax
	}
	p.skipSpace(false)
	if p.done() || p.peek() != '"' {
		return "", errConfigSyntax
	}
	p.i++
	var sub strings.Builder
	for {
		if p.done() || p.peek() == '\n' {
			return "", errConfigSyntax
		}
		c := p.peek()
		p.i++
		if c == '"' {
			break
		}
		if c == '\\' {
			if p.done() || p.peek() == '\n' {
				return "", errConfigSyntax
			}
			c = p.peek()
			p.i++
		}
		sub.WriteByte(c)
	}
	if p.done() || p.peek() != ']' {
		return "", errConfigSyntax
	}
	p.i++
	return name + "." + sub.String(), nil
}

// variable reads "name", "name = value" up to the end of its (possibly continued) line.
func (p *configParser) variable() (string, string, error) {
	start := p.i
	for !p.done() && (isAlpha(p.peek()) || isDigit(p.peek()) || p.peek() == '-') {
		p.i++
	}
	name := strings.ToLower(p.s[start:p.i])
	p.skipSpace(false)
	if p.done() || p.peek() == '\n' || p.peek() == '#' || p.peek() == ';' {
		p.skipLine()
		return name, "true", nil
	}
	if p.peek() != '=' {
		return "", "", errConfigSyntax
	}
	p.i++
	value, err := p.value()
	return name, value, err
}

// value reads a value: quotes toggle, escapes \n \t \b \\ \" and a backslash before a newline are
// understood, a comment outside quotes ends it, and spaces outside quotes at either end are dropped.
func (p *configParser) value() (string, error) {
	var b strings.Builder
	quoted := false
	pendingSpace := 0
	started := false
	flushSpace := func() {
		if started {
			for ; pendingSpace > 0; pendingSpace-- {
				b.WriteByte(' ')
			}
		}
		pendingSpace = 0
	}
	for !p.done() {
		c := p.peek()
		p.i++
		switch {
		case c == '\n':
			if quoted {
				return "", errConfigSyntax
			}
			return b.String(), nil
		case !quoted && (c == ' ' || c == '\t' || c == '\r'):
			pendingSpace++
		case !quoted && (c == '#' || c == ';'):
			p.skipLine()
			return b.String(), nil
		case c == '"':
			flushSpace()
			started = true
			quoted = !quoted
		case c == '\\':
			if p.done() {
				return "", errConfigSyntax
			}
			e := p.peek()
			p.i++
			switch e {
			case '\n':
				continue
			case 'n':
				e = '\n'
			case 't':
				e = '\t'
			case 'b':
				e = '\b'
			case '\\', '"':
			default:
				return "", errConfigSyntax
			}
			flushSpace()
			started = true
			b.WriteByte(e)
		default:
			flushSpace()
			started = true
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", errConfigSyntax
	}
	return b.String(), nil
}
