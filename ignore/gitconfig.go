package ignore

import (
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
	_ = parseConfig(data, func(key, value string) {
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

// parseConfig calls visit with each key and value in order, a key without "=" having the value "true".
func parseConfig(data []byte, visit func(key, value string)) error {
	_, err := ParseGitConfig(data, func(_ int, key, value string, noValue bool) {
		if noValue {
			value = "true"
		}
		visit(key, value)
	})
	return err
}
