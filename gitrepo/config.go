package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/warden-cli/warden/ignore"
	"github.com/warden-cli/warden/safefile"
)

// Entry is one variable set in git's configuration.
type Entry struct {
	// File is the absolute path of the file that set it; empty when the environment did.
	File string
	// Env names the variable that set it when File is empty: GIT_CONFIG_COUNT (with GIT_CONFIG_KEY_n
	// and GIT_CONFIG_VALUE_n) or GIT_CONFIG_PARAMETERS, where `git -c` passes its settings.
	Env string
	// Line is the line of File the variable is on.
	Line int
	// Key is the variable's name as git compares it: section and name lower-cased, a subsection as
	// written ("diff.pdf.textconv", "includeif.gitdir:~/work/.path").
	Key string
	// Value is the value with quotes and escapes removed.
	Value string
	// NoValue is set for a variable given without `=`, which git reads as true.
	NoValue bool
}

// Section, Subsection and Name split the key: "filter.lfs.clean" is filter, lfs, clean.
func (e Entry) Section() string { s, _, _ := strings.Cut(e.Key, "."); return s }

// Subsection is the part of the key between the section and the name, or "".
func (e Entry) Subsection() string {
	first := strings.IndexByte(e.Key, '.')
	last := strings.LastIndexByte(e.Key, '.')
	if first < 0 || first == last {
		return ""
	}
	return e.Key[first+1 : last]
}

// Name is the last part of the key.
func (e Entry) Name() string { return e.Key[strings.LastIndexByte(e.Key, '.')+1:] }

// Bool reads the value as git reads a boolean: ok is false when it is not one.
func (e Entry) Bool() (v, ok bool) {
	if e.NoValue {
		return true, true
	}
	switch strings.ToLower(e.Value) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	if n, err := strconv.ParseInt(e.Value, 0, 64); err == nil {
		return n != 0, true
	}
	return false, false
}

// Config is every variable git reads for a repository, in git's order.
type Config struct {
	Entries []Entry
	// Includes are the files includes brought in, in the order they were read, each with the variable
	// that named it. A file git would print the variables of (`git config -l`) is one of them or a file
	// the chain starts from.
	Includes []Include
	// Problem says why the chain could not be read as git reads it (a file git would refuse, includes
	// nested too deep); it is empty when every file was read.
	Problem string
}

// Include is a file read because a variable named it.
type Include struct {
	// File is the included file's absolute path.
	File string
	// By is the include.path or includeIf.<condition>.path that named it.
	By Entry
}

// Files returns the files the entries come from, each once, in the order read.
func (c Config) Files() []string {
	var files []string
	seen := map[string]bool{}
	for _, e := range c.Entries {
		if e.File != "" && !seen[e.File] {
			seen[e.File] = true
			files = append(files, e.File)
		}
	}
	return files
}

// IncludedBy returns the variable whose include brought file in first, if an include did.
func (c Config) IncludedBy(file string) (Entry, bool) {
	for _, in := range c.Includes {
		if in.File == file {
			return in.By, true
		}
	}
	return Entry{}, false
}

// Last returns the last entry for key (the one git uses for a single-valued variable).
func (c Config) Last(key string) (Entry, bool) {
	for i := len(c.Entries) - 1; i >= 0; i-- {
		if c.Entries[i].Key == key {
			return c.Entries[i], true
		}
	}
	return Entry{}, false
}

// maxIncludeDepth is git's own bound on nested includes; beyond it git refuses to run.
const maxIncludeDepth = 10

// LoadConfig reads the configuration git uses in r (or, with r empty, outside any repository): the
// system file (GIT_CONFIG_SYSTEM, or /etc/gitconfig, unless GIT_CONFIG_NOSYSTEM), the global ones
// (GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config and ~/.gitconfig), the repository's config and
// config.worktree, then GIT_CONFIG_COUNT's variables and GIT_CONFIG_PARAMETERS's (`git -c`). Every include.path and includeIf.*.path is followed
// whatever its condition, since a condition may hold: the answer covers more than git reads, never less.
func LoadConfig(r Repo, env Env, home string) Config {
	if env == nil {
		env = OSEnv
	}
	l := &loader{home: home, includes: true}
	if v, _ := env("GIT_CONFIG_NOSYSTEM"); !truthy(v) {
		system := "/etc/gitconfig"
		if s, ok := env("GIT_CONFIG_SYSTEM"); ok {
			system = s
		}
		l.file(system, 0, nil)
	}
	if g, ok := env("GIT_CONFIG_GLOBAL"); ok {
		l.file(g, 0, nil)
	} else {
		xdg, _ := env("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			l.file(filepath.Join(xdg, "git", "config"), 0, nil)
		}
		if home != "" {
			l.file(filepath.Join(home, ".gitconfig"), 0, nil)
		}
	}
	if r.CommonDir != "" {
		l.file(filepath.Join(r.CommonDir, "config"), 0, nil)
	}
	if r.GitDir != "" {
		// Read only with extensions.worktreeConfig by git; read here whenever it exists.
		l.file(filepath.Join(r.GitDir, "config.worktree"), 0, nil)
	}
	if n, err := strconv.Atoi(lookup(env, "GIT_CONFIG_COUNT")); err == nil {
		for i := 0; i < n && i < 1000; i++ {
			key := lookup(env, "GIT_CONFIG_KEY_"+strconv.Itoa(i))
			if key == "" {
				continue
			}
			l.setting("GIT_CONFIG_COUNT", key, lookup(env, "GIT_CONFIG_VALUE_"+strconv.Itoa(i)), false)
		}
	}
	if params, ok := env("GIT_CONFIG_PARAMETERS"); ok {
		settings, err := ParseParameters(params)
		if err != nil && l.cfg.Problem == "" {
			l.cfg.Problem = "GIT_CONFIG_PARAMETERS " + err.Error()
		}
		for _, s := range settings {
			l.setting("GIT_CONFIG_PARAMETERS", s.Key, s.Value, s.NoValue)
		}
	}
	return l.cfg
}

func lookup(env Env, name string) string { v, _ := env(name); return v }

func truthy(v string) bool {
	e := Entry{Value: v}
	b, ok := e.Bool()
	return ok && b
}

// isInclude reports whether a key names a file to include: include.path and includeif.COND.path.
func isInclude(key string) bool {
	return key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
}

// canonicalKey lower-cases a key's section and name, keeping the subsection as written.
func canonicalKey(key string) string {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	return p
}

// LoadFile reads one configuration file as `git config --file` reads it: alone, following its
// includes (all of them, whatever their condition) only when includes is set, as --includes asks.
func LoadFile(path string, includes bool, home string) Config {
	l := &loader{home: home, includes: includes}
	l.file(path, 0, nil)
	return l.cfg
}

// loader collects the entries of a configuration chain.
type loader struct {
	home string
	// includes is set when include.path and includeIf.*.path are followed.
	includes bool
	cfg      Config
}

// setting appends a variable the environment sets, named by the variable env, and what it includes.
// git refuses a relative include there, having no file to take it relative to.
func (l *loader) setting(env, key, value string, noValue bool) {
	e := Entry{Env: env, Key: canonicalKey(key), Value: value, NoValue: noValue}
	l.cfg.Entries = append(l.cfg.Entries, e)
	if !isInclude(e.Key) || noValue || value == "" {
		return
	}
	inc := expandHome(value, l.home)
	if !filepath.IsAbs(inc) {
		if l.cfg.Problem == "" {
			l.cfg.Problem = fmt.Sprintf("%s includes the relative path `%s`, which git refuses", env, value)
		}
		return
	}
	l.file(inc, 1, &e)
}

// file appends the entries of the file at path, and of the files it includes; by is the variable that
// included it, nil for a file the chain starts from. A missing file is skipped, as git skips it.
func (l *loader) file(path string, depth int, by *Entry) {
	if path == "" {
		return
	}
	if depth > maxIncludeDepth {
		if l.cfg.Problem == "" {
			l.cfg.Problem = fmt.Sprintf("includes nest more than %d deep at `%s`", maxIncludeDepth, path)
		}
		return
	}
	pf, ok := parsedFile(path)
	if !ok {
		return
	}
	if by != nil {
		l.cfg.Includes = append(l.cfg.Includes, Include{File: path, By: *by})
	}
	if pf.err != "" && l.cfg.Problem == "" {
		l.cfg.Problem = pf.err
	}
	for _, e := range pf.entries {
		l.cfg.Entries = append(l.cfg.Entries, e)
		if l.includes && isInclude(e.Key) && !e.NoValue && e.Value != "" {
			inc := expandHome(e.Value, l.home)
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(path), inc)
			}
			l.file(inc, depth+1, &e)
		}
	}
}

// parsed is one configuration file's entries, or why it does not parse.
type parsed struct {
	id      fileID
	entries []Entry
	err     string
}

var (
	parsedMu    sync.Mutex
	parsedCache = map[string]*parsed{}
)

// maxConfigSize bounds a configuration file Warden reads; a bigger one counts as unreadable.
const maxConfigSize = 4 << 20

// parsedFile returns the parsed content of the configuration file at path, from the cache when the file
// has not changed. ok is false when there is no such file.
func parsedFile(path string) (*parsed, bool) {
	id, ok := identify(path)
	if !ok {
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			// A FIFO or device: git would read it, and what comes out is anyone's guess.
			return &parsed{err: fmt.Sprintf("`%s` is not a regular file", path)}, true
		}
		return nil, false
	}
	parsedMu.Lock()
	p := parsedCache[path]
	parsedMu.Unlock()
	if p != nil && p.id == id {
		return p, true
	}
	p = &parsed{id: id}
	data, err := safefile.ReadRegular(path)
	switch {
	case err != nil:
		p.err = fmt.Sprintf("`%s` cannot be read: %v", path, err)
	case len(data) > maxConfigSize:
		p.err = fmt.Sprintf("`%s` is too big to read", path)
	default:
		if line, perr := ignore.ParseGitConfig(data, func(line int, key, value string, noValue bool) {
			p.entries = append(p.entries, Entry{File: path, Line: line, Key: key, Value: value, NoValue: noValue})
		}); perr != nil {
			p.err = fmt.Sprintf("`%s` does not parse at line %d: %v", path, line, perr)
		}
	}
	parsedMu.Lock()
	if len(parsedCache) > 4096 {
		clear(parsedCache)
	}
	parsedCache[path] = p
	parsedMu.Unlock()
	return p, true
}
