package gitrepo

import (
	"cmp"
	"fmt"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

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

// Policy says which of the files a configuration names are read.
type Policy int

const (
	// Everything reads every file git may read: each include.path and includeIf.*.path whatever its
	// condition, and config.worktree whenever it exists. A judgement of what git's configuration makes
	// git run needs it: a condition may hold by the time git runs, so the answer covers more than git
	// reads, never less.
	Everything Policy = iota
	// AsGit reads what git reads now: an includeIf only when its condition holds as git evaluates it
	// (gitdir:, gitdir/i:, onbranch: and hasconfig:remote.*.url:; git takes any other condition for
	// false), and config.worktree only when the repository's own config sets extensions.worktreeConfig.
	// A reader of a setting's value needs it (core.excludesFile, core.ignoreCase).
	AsGit
)

// LoadOptions say how Load reads a configuration chain.
type LoadOptions struct {
	// Env is the environment git would run with; nil is the process's.
	Env Env
	// Home is where `~` leads and where the global files are (~/.gitconfig, ~/.config/git/config);
	// empty reads no global file but the one GIT_CONFIG_GLOBAL names.
	Home string
	// Policy says which includes and which config.worktree are read.
	Policy Policy
	// Open opens every file of the chain. A repository can make its config, or a file it includes, a
	// link to a key or to /proc/self/environ, and a value read from it may end up in a message the model
	// reads: the caller's Opener, which knows the workspace and the secret places, refuses such files.
	// nil opens them with links kept inside the repository's own directories, and regular files only.
	Open *safefile.Opener
}

// Load reads the configuration git uses in r (or, with r empty, outside any repository), in git's order:
// the system file (GIT_CONFIG_SYSTEM, or /etc/gitconfig, unless GIT_CONFIG_NOSYSTEM), the global ones
// (GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config and ~/.gitconfig), the repository's config and
// config.worktree, then GIT_CONFIG_COUNT's variables and GIT_CONFIG_PARAMETERS's (`git -c`), each file
// followed by what it includes where it includes it. A file that is missing is skipped, as git skips it;
// one git would refuse (it does not parse, it cannot be read, the Opener refused it) is read as far as
// it parses and named in Config.Problem.
func (rd *Reader) Load(r Repo, o LoadOptions) Config {
	if o.Env == nil {
		o.Env = OSEnv
	}
	key := rd.opener(r, o.Open)
	open := key
	if o.Open != nil {
		open = o.Open.WithMaxSize(maxConfigSize)
	}
	l := &loader{rd: rd, repo: r, env: o.Env, home: o.Home, policy: o.Policy, includes: true, open: open, key: key}
	if o.Policy == AsGit {
		// git reads the whole chain once to learn the remotes' URLs before it evaluates the first
		// hasconfig:remote.*.url condition, following those includes unconditionally in that pass.
		l.collecting = true
		l.chain()
		if !l.sawHasconfig {
			return l.cfg
		}
		first := l.cfg
		if l.urlUnderCondition {
			// git refuses: a URL there could decide the very condition that brought it in.
			first.Problem = cmp.Or(first.Problem, "a remote's URL is set in a file an includeIf brings in, "+
				"which git refuses once a hasconfig:remote.*.url condition is in use")
		}
		l = &loader{rd: rd, repo: r, env: o.Env, home: o.Home, policy: o.Policy, includes: true, open: open, key: key,
			remoteURLs: remoteURLs(first.Entries)}
		l.chain()
		if first.Problem != "" && l.cfg.Problem == "" {
			l.cfg.Problem = first.Problem
		}
		return l.cfg
	}
	l.chain()
	return l.cfg
}

// chain reads the files and variables of the configuration in git's order.
func (l *loader) chain() {
	env := l.env
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
		if xdg == "" && l.home != "" {
			xdg = filepath.Join(l.home, ".config")
		}
		if xdg != "" {
			l.file(filepath.Join(xdg, "git", "config"), 0, nil)
		}
		if l.home != "" {
			l.file(filepath.Join(l.home, ".gitconfig"), 0, nil)
		}
	}
	r := l.repo
	if r.CommonDir != "" {
		l.file(filepath.Join(r.CommonDir, "config"), 0, nil)
	}
	if r.GitDir != "" && (l.policy == Everything || l.worktreeConfig()) {
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
		if err != nil {
			l.problem("GIT_CONFIG_PARAMETERS " + err.Error())
		}
		for _, s := range settings {
			l.setting("GIT_CONFIG_PARAMETERS", s.Key, s.Value, s.NoValue)
		}
	}
}

// worktreeConfig reports whether git reads config.worktree: extensions.worktreeConfig set in the
// repository's own config file, which git reads alone, without its includes, to learn the repository's
// format.
func (l *loader) worktreeConfig() bool {
	pf, ok := l.parsed(filepath.Join(l.repo.CommonDir, "config"))
	if !ok {
		return false
	}
	on := false
	for _, e := range pf.entries {
		if e.Key == "extensions.worktreeconfig" {
			on, _ = e.Bool()
		}
	}
	return on
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

// ExpandPath expands a leading `~` (home) or `~user` the way git expands its path values (its
// interpolate_path). A user that does not exist leaves the path as it is, which names no file.
func ExpandPath(p, home string) string {
	if !strings.HasPrefix(p, "~") {
		return p
	}
	name, rest, _ := strings.Cut(p[1:], "/")
	if name == "" {
		if home == "" {
			return p
		}
		return filepath.Join(home, rest)
	}
	u, err := user.Lookup(name)
	if err != nil || u.HomeDir == "" {
		return p
	}
	return filepath.Join(u.HomeDir, rest)
}

// LoadFile reads one configuration file as `git config --file` reads it: alone, following its
// includes (all of them, whatever their condition) only when includes is set, as --includes asks.
func (rd *Reader) LoadFile(path string, includes bool, home string) Config {
	o := rd.Opener(Repo{})
	l := &loader{rd: rd, home: home, env: OSEnv, includes: includes, open: o, key: o}
	l.file(path, 0, nil)
	return l.cfg
}

// loader collects the entries of a configuration chain.
type loader struct {
	// rd remembers the files parsed.
	rd     *Reader
	repo   Repo
	env    Env
	home   string
	policy Policy
	// includes is set when include.path and includeIf.*.path are followed at all.
	includes bool
	// open opens the files; key is the Opener the caller gave (or the default one), which the Reader
	// records with each file it parsed.
	open, key *safefile.Opener
	cfg       Config

	// collecting is set for AsGit's first pass, which learns the remotes' URLs: every hasconfig
	// condition holds in it, and sawHasconfig says whether one was met.
	collecting, sawHasconfig bool
	// remoteURLs are the URLs hasconfig:remote.*.url conditions match, learnt in the first pass.
	remoteURLs []string
	// conditional counts the files being read that an includeIf brought in, and urlUnderCondition says
	// one of them set a remote's URL, which git refuses once a hasconfig condition is in use.
	conditional       int
	urlUnderCondition bool
}

func (l *loader) problem(p string) {
	if l.cfg.Problem == "" {
		l.cfg.Problem = p
	}
}

// setting appends a variable the environment sets, named by the variable env, and what it includes.
// git refuses a relative include there, having no file to take it relative to.
func (l *loader) setting(env, key, value string, noValue bool) {
	e := Entry{Env: env, Key: canonicalKey(key), Value: value, NoValue: noValue}
	l.add(e)
	if !l.includes || !isInclude(e.Key) || noValue || value == "" || !l.holds(e, "") {
		return
	}
	inc := ExpandPath(value, l.home)
	if !filepath.IsAbs(inc) {
		l.problem(fmt.Sprintf("%s includes the relative path `%s`, which git refuses", env, value))
		return
	}
	l.include(inc, 1, e)
}

// file appends the entries of the file at path, and of the files it includes; by is the variable that
// included it, nil for a file the chain starts from. A missing file is skipped, as git skips it.
func (l *loader) file(path string, depth int, by *Entry) {
	if path == "" {
		return
	}
	if depth > maxIncludeDepth {
		l.problem(fmt.Sprintf("includes nest more than %d deep at `%s`", maxIncludeDepth, path))
		return
	}
	pf, ok := l.parsed(path)
	if !ok {
		return
	}
	if by != nil {
		l.cfg.Includes = append(l.cfg.Includes, Include{File: path, By: *by})
	}
	if pf.err != "" {
		l.problem(pf.err)
	}
	for _, e := range pf.entries {
		l.add(e)
		if l.includes && isInclude(e.Key) && !e.NoValue && e.Value != "" && l.holds(e, path) {
			inc := ExpandPath(e.Value, l.home)
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(path), inc)
			}
			l.include(inc, depth+1, e)
		}
	}
}

// include reads the file an include variable names.
func (l *loader) include(path string, depth int, by Entry) {
	conditional := by.Key != "include.path"
	if conditional {
		l.conditional++
		defer func() { l.conditional-- }()
	}
	l.file(path, depth, &by)
}

// add appends an entry, and notes a remote's URL set under an includeIf in the pass that learns the URLs.
func (l *loader) add(e Entry) {
	l.cfg.Entries = append(l.cfg.Entries, e)
	if l.collecting && l.conditional > 0 && isRemoteURL(e) {
		l.urlUnderCondition = true
	}
}

func isRemoteURL(e Entry) bool {
	return e.Section() == "remote" && e.Subsection() != "" && e.Name() == "url"
}

// remoteURLs are the values of remote.*.url, which hasconfig:remote.*.url conditions match.
func remoteURLs(entries []Entry) []string {
	var urls []string
	for _, e := range entries {
		if isRemoteURL(e) && !e.NoValue {
			urls = append(urls, e.Value)
		}
	}
	return urls
}
