package secrets

import (
	"regexp"
	"strings"
)

// GitConfigFile reports whether path is, by its name and place, one of git's configuration files: a
// repository's config (in .git, in a bare repository `NAME.git`, under .git/worktrees or .git/modules)
// and config.worktree, ~/.gitconfig and its usual companions (.gitconfig.local, .gitconfig-work),
// $XDG_CONFIG_HOME/git/config and /etc/gitconfig, and a copy of one of them (decorations.go). Included
// files of other names are found by the chain that includes them, not here.
func GitConfigFile(path string) bool {
	dir, base := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, base = path[:i], path[i+1:]
	}
	parent := dir[strings.LastIndexByte(dir, '/')+1:]
	for _, n := range undecorated(base) {
		switch {
		case n == "config.worktree", strings.HasPrefix(n, ".gitconfig"), dir+"/"+n == "/etc/gitconfig":
			return true
		case n == "config" && (parent == "git" || strings.HasSuffix(parent, ".git") || strings.Contains(dir+"/", "/.git/")):
			return true
		}
	}
	return false
}

// GitConfigEntry reports whether a git configuration variable carries a credential. key is as git
// writes it canonically (section and name lower-cased, the subsection as written): http.extraHeader and
// http.<url>.extraHeader (an Authorization header, as CI checkouts leave it), a variable whose name says
// it is a password or token (sendemail.smtpPass, github.token, a [pypi] password pulled in by an
// include), one whose subsection is a URL with credentials (url.<base>.insteadOf and pushInsteadOf,
// http.<url>.*, credential.<url>.*), and one whose value is a credential by its form (remote.<name>.url
// with a password, http.proxy with one, a token anywhere).
func GitConfigEntry(key, value string) bool {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return false
	}
	name := strings.ToLower(key[last+1:])
	switch {
	case name == "extraheader", strings.Contains(name, "password"), strings.Contains(name, "passwd"),
		strings.Contains(name, "token"), strings.Contains(name, "secret"), strings.Contains(name, "apikey"),
		strings.HasSuffix(name, "pass"):
		return true
	case first < last && urlCredentials.MatchString(key[first+1:last]):
		return true
	case strings.HasPrefix(key, "credential.") && name == "helper" && helperPassword.MatchString(value):
		return true
	}
	return Value(value)
}

// helperPassword finds a password written into a credential helper that prints it
// (`!f() { echo password=...; }; f`), rather than one it takes from a variable or a store.
var helperPassword = regexp.MustCompile(`password=[^\s$;'"]{4,}`)
