package secrets

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/safefile"
)

// startupNames are the files shells (and the session) read when they start, where people keep
// `export GITHUB_TOKEN=...`: bash's, zsh's, ksh's, csh's, fish's (config.fish and fish_variables, where
// `set -Ux` keeps values), nushell's, xonsh's, the dotfiles conventions that split them (.exports,
// .extra, .aliases), and the system's (/etc/profile, /etc/bash.bashrc, /etc/zsh/zshenv, /etc/environment,
// ~/.pam_environment).
var startupNames = setOf(".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".bash_aliases",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
	".xonshrc", ".exports", ".extra", ".aliases", ".functions", "config.fish", "fish_variables", "env.nu",
	"config.nu", ".pam_environment", "profile", "bash.bashrc", "environment",
	// As dotfiles repositories name them before linking them into the home (~/dotfiles/bashrc), and as
	// /etc/zsh names its own.
	"bashrc", "bash_profile", "bash_login", "bash_aliases", "zshrc", "zshenv", "zprofile", "zlogin", "kshrc",
	"cshrc", "tcshrc")

// startupDirs are directories whose files a start-up file sources (~/.bashrc.d, /etc/profile.d, fish's
// conf.d, oh-my-zsh's custom, systemd's environment.d).
var startupDirs = setOf(".bashrc.d", ".zshrc.d", "profile.d", "conf.d", "custom", "environment.d")

// StartupFile reports whether path is a shell start-up file by its name: one of startupNames (also with
// a .local suffix, as in .zshrc.local), or a file in one of startupDirs, or a copy of one of these
// (decorations.go). The system's short names (profile, environment) count only under /etc.
func StartupFile(path string) bool {
	dir, base := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, base = path[:i], path[i+1:]
	}
	for _, n := range undecorated(base) {
		name := strings.TrimSuffix(n, ".local")
		if startupNames[name] && (name != "profile" && name != "environment" || strings.HasPrefix(dir, "/etc")) {
			return true
		}
	}
	parent := dir[strings.LastIndexByte(dir, '/')+1:]
	switch parent {
	case "conf.d":
		return strings.HasSuffix(dir, "/fish/conf.d")
	case "custom":
		return strings.HasSuffix(dir, "/.oh-my-zsh/custom")
	}
	return startupDirs[parent]
}

// ByContent reports whether the file at path is one judged by what it holds (HoldsSecret): a shell
// start-up file (StartupFile), or yarn's configuration (.yarnrc.yml, .yarnrc, or a copy of one), which
// holds a registry token when someone wrote one in rather than naming a variable.
func ByContent(path string) bool { return StartupFile(path) || yarnConfig(path) }

func yarnConfig(path string) bool {
	for _, n := range undecorated(path[strings.LastIndexByte(path, '/')+1:]) {
		if n == ".yarnrc.yml" || n == ".yarnrc" {
			return true
		}
	}
	return false
}

// yarnAuth finds a registry credential written into yarn's configuration: npmAuthToken, npmAuthIdent
// (yarn 2 and later), _authToken, _auth, _password (yarn 1), with a literal value rather than a
// variable (`npmAuthToken: "${NPM_TOKEN}"` holds none).
var yarnAuth = regexp.MustCompile(`(?i)\b(npmAuthToken|npmAuthIdent|npmPassword|_authToken|_auth|_password)["']?\s*[:=]?\s*["']?[^"'\s$]{4,}`)

// maxContentRead bounds what is read of a file judged by its content: a token line sits among a few
// hundred lines, and a file far larger than that is not typed by a person.
const maxContentRead = 256 << 10

// Judge judges files by what they hold (HoldsSecret) and remembers each answer with the file's identity
// (device, inode, size, modification and change times), so that judging an unchanged file again costs a
// stat. What one Judge read no other sees: a value that judges files for a session (the permission
// engine) holds its own. It is safe for concurrent use.
type Judge struct {
	judged *cache.LRU[string, judged]
}

// maxJudged bounds the files a Judge remembers: start-up files and yarn's configuration, a few dozen in
// a home.
const maxJudged = 1024

type judged struct {
	id    fileID
	holds bool
}

// NewJudge returns a Judge that remembers nothing yet.
func NewJudge() *Judge { return &Judge{judged: cache.New[string, judged](maxJudged)} }

// HoldsSecret reports whether a file ByContent judges (path absolute) holds a secret in its first
// maxContentRead bytes: a start-up file a token line (TokenLine), yarn's configuration a registry
// token (or a credential of a known form, Value). A file that cannot be read, or is not a regular file,
// holds nothing; it is never opened in a way that waits (a FIFO) or reads a device.
func (j *Judge) HoldsSecret(path string) bool {
	id, ok := identify(path)
	if !ok {
		return false
	}
	if got, known := j.judged.Get(path); known && got.id == id {
		return got.holds
	}
	line := TokenLine
	if yarnConfig(path) {
		line = func(l string) bool { return yarnAuth.MatchString(l) || Value(l) }
	}
	holds := false
	if f, err := safefile.OpenRegular(path, 0); err == nil {
		holds = anyLine(io.LimitReader(f, maxContentRead), line)
		f.Close()
	}
	j.judged.Put(path, judged{id: id, holds: holds})
	return holds
}

// Holds is the whole judgement by content: it reports whether the file at path (absolute) holds a
// credential by what it holds, whatever program it configures. The files ByContent names are judged as
// HoldsSecret judges them; git's configuration files (GitConfigFile) by gitConfig, which parses them
// (gitrepo.Reader.FileHoldsCredential: the catalogue knows which entries carry a credential,
// GitConfigEntry, but git's syntax is read in one place). What Warden reads as its own input or prints
// from a search must pass it; the read-only jail and the opener of git's own reads must not use it,
// since git and yarn read their configuration to run. gitConfig must not open files through an Opener
// that judges secrets with Holds (it would judge itself): gitrepo's default Opener judges none.
func (j *Judge) Holds(path string, gitConfig func(path string) bool) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	clean := filepath.Clean(path)
	switch {
	case ByContent(clean):
		return j.HoldsSecret(clean)
	case GitConfigFile(clean):
		return gitConfig != nil && gitConfig(clean)
	}
	return false
}

// Holds is Judge.Holds with the Judge the whole process shares.
func Holds(path string, gitConfig func(path string) bool) bool { return shared.Holds(path, gitConfig) }

// shared backs HoldsSecret, for callers that hold no Judge yet (the permission engine): what it learns,
// every caller in the process sees. Once none calls HoldsSecret, both go.
var shared = NewJudge()

// HoldsSecret is Judge.HoldsSecret with a Judge the whole process shares.
func HoldsSecret(path string) bool { return shared.HoldsSecret(path) }

func anyLine(r io.Reader, judge func(string) bool) bool {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxContentRead)
	for sc.Scan() {
		if judge(sc.Text()) {
			return true
		}
	}
	return false
}

// assignPrefixes are how a line of a start-up file sets a variable, before its name, and what may stand
// between the name and the value after each: sh's and bash's export, declare -x, typeset -x and readonly
// take `=`; csh's setenv, fish's set and macOS's launchctl setenv a blank; fish_variables' SETUVAR a
// colon; nushell's $env. an `=` with blanks around it.
var assignPrefixes = []struct{ prefix, seps string }{
	{"export ", "="}, {"declare ", "="}, {"typeset ", "="}, {"readonly ", "="}, {"local ", "="},
	{"setenv ", " \t"}, {"set ", " \t"}, {"launchctl setenv ", " \t"}, {"SETUVAR ", ":"}, {"$env.", "="},
}

// TokenLine reports whether one line of a start-up file gives away a secret: it holds a credential of a
// known form (Value), or sets a variable whose name says it is secret (Name) to a literal that could be
// one. A comment counts too: `cat` prints it. A value taken from elsewhere at run time ($VAR, $(...),
// backquotes), a path (/..., ~/..., ./...), a value with blanks in it and one shorter than eight
// characters are not secrets: `export GITHUB_TOKEN=$(gh auth token)`, `export SSH_KEY_PATH=~/.ssh/id_rsa`,
// zsh's `KEYTIMEOUT=1`.
func TokenLine(line string) bool {
	if Value(line) {
		return true
	}
	s := strings.TrimLeft(line, " \t#")
	seps := "="
	for _, a := range assignPrefixes {
		if rest, ok := strings.CutPrefix(s, a.prefix); ok {
			s, seps = strings.TrimLeft(rest, " \t"), a.seps
			break
		}
	}
	// Options of declare, typeset, set and SETUVAR (-x, -gx, -Ux, --export).
	for strings.HasPrefix(s, "-") {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return false
		}
		s = strings.TrimLeft(s[i:], " \t")
	}
	if assigned(s, seps) {
		return true
	}
	// Every other NAME=value on the line: export A=1 B_TOKEN=..., alias x='FOO_TOKEN=... cmd'.
	for i := strings.IndexByte(line, '='); i > 0; i = next(line, i) {
		start := i
		for start > 0 && isNameByte(line[start-1], true) {
			start--
		}
		if start < i && assigned(line[start:], "=") {
			return true
		}
	}
	return false
}

// next returns the index of the next '=' in line after i, or -1.
func next(line string, i int) int {
	j := strings.IndexByte(line[i+1:], '=')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func isNameByte(c byte, digits bool) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || digits && c >= '0' && c <= '9'
}

// assigned reports whether s, which starts with a variable's name, sets a secret-named variable to a
// literal secret; seps are the characters that may separate the name from the value (besides
// ~/.pam_environment's ` DEFAULT=` and ` OVERRIDE=`).
func assigned(s, seps string) bool {
	n := 0
	for n < len(s) && isNameByte(s[n], n > 0) {
		n++
	}
	if n == 0 || n == len(s) || !Name(s[:n]) {
		return false
	}
	rest := s[n:]
	switch {
	case seps == "=" && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "="):
		rest = strings.TrimLeft(rest, " \t")[1:]
	case strings.ContainsRune(seps, rune(rest[0])) && seps != "=":
		rest = rest[1:]
	case strings.HasPrefix(rest, " DEFAULT=") || strings.HasPrefix(rest, " OVERRIDE="):
		rest = rest[strings.IndexByte(rest, '=')+1:]
	default:
		return false
	}
	if seps == "=" && strings.HasPrefix(rest, "=") {
		return false // a comparison (==), not an assignment
	}
	return literalSecret(assignedWord(strings.TrimLeft(rest, " \t")))
}

// assignedWord returns the word an assignment's value starts: up to its closing quote when quoted,
// else up to a blank, a semicolon or a quote.
func assignedWord(s string) string {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if end := strings.IndexByte(s[1:], s[0]); end >= 0 {
			return s[1 : 1+end]
		}
		return s[1:]
	}
	if end := strings.IndexAny(s, " \t;'\""); end >= 0 {
		return s[:end]
	}
	return s
}

// literalSecret reports whether an assigned value, as written, could be a secret itself.
func literalSecret(v string) bool {
	if len(v) < 8 || strings.ContainsAny(v, "$`( \t") {
		return false
	}
	switch v[0] {
	case '/', '~', '.', '<':
		return false
	}
	return true
}

// fileID identifies a file's content without reading it: a change to the file changes its size or its
// modification or change time, and replacing it changes its inode.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// identify stats path (following links, as the read does). ok is false when it is not a regular file.
func identify(path string) (fileID, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileID{}, false
	}
	id := fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(st.Dev), st.Ino
		id.ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return id, true
}
