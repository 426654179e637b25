package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/secrets"
)

// sensitiveVars are variables that change which programs run or what they do: assigning them is not
// read-only even when nothing else happens, because the next program in the same command obeys them.
var sensitiveVars = map[string]bool{
	"PATH": true, "IFS": true, "ENV": true, "BASH_ENV": true, "PROMPT_COMMAND": true, "PS4": true,
	"SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "HOME": true, "GLOBIGNORE": true, "SHELL": true,
	"PAGER": true, "EDITOR": true, "VISUAL": true, "MANPAGER": true, "BROWSER": true, "LESSOPEN": true,
	"LESSCLOSE": true, "TMPDIR": true, "PWD": true, "OLDPWD": true, "HISTFILE": true, "INPUTRC": true,
	"NODE_OPTIONS": true, "RUBYOPT": true, "RUBYLIB": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "ZDOTDIR": true,
	"MAKEFLAGS": true, "GNUMAKEFLAGS": true, "MFLAGS": true, "MAKEFILES": true, "RUSTFLAGS": true, "RUSTDOCFLAGS": true,
	"RIPGREP_CONFIG_PATH": true, "GREP_OPTIONS": true, "TAR_OPTIONS": true,
	"FPATH": true, "MAILPATH": true, "TERMINFO": true, "LOCPATH": true, "GCONV_PATH": true, "HOSTALIASES": true,
	"LOCALDOMAIN": true, "RES_OPTIONS": true, "NLSPATH": true, "SYSTEMD_PAGER": true, "SYSTEMD_EDITOR": true,
	"PS_FORMAT": true,
	// Programs of the read-only table that run code or read a file named by a variable: kubectl runs the
	// exec credential plugins of the kubeconfig KUBECONFIG names, file reads the magic file MAGIC names,
	// less-like pagers run LESSOPEN, jq loads modules from JQ_LIBRARY_PATH, OpenSSL loads engines its
	// configuration names, glibc reads GLIBC_TUNABLES, bash in POSIX mode finds special builtins first.
	"MAGIC": true, "MANOPT": true, "MANPATH": true, "JQ_LIBRARY_PATH": true, "TERMINFO_DIRS": true, "TERMCAP": true,
	"GLIBC_TUNABLES": true, "POSIXLY_CORRECT": true, "EXECIGNORE": true, "SSH_ASKPASS_REQUIRE": true,
	"OPENSSL_CONF": true, "OPENSSL_ENGINES": true, "OPENSSL_MODULES": true, "SSL_CERT_FILE": true,
	"SSL_CERT_DIR": true, "CURL_CA_BUNDLE": true, "REQUESTS_CA_BUNDLE": true,
}

// sensitivePrefixes cover families of such variables.
var sensitivePrefixes = []string{
	"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "BASH_", "PYTHON", "NODE_", "NPM_CONFIG_", "npm_config_", "CARGO_",
	"RUSTC", "GO", "CGO_", "LUA_", "PERL", "PHP", "CC", "CXX", "CFLAGS", "LDFLAGS", "MALLOC_",
	// kubectl (KUBECONFIG, KUBERC, KUBECTL_*, KUBE_EDITOR), gh (GH_BROWSER, GH_CONFIG_DIR, GH_PAGER),
	// docker and compose (DOCKER_CONFIG holds CLI plugins, DOCKER_HOST another daemon), pip, pagers,
	// systemd's pager, groff under man, and the XDG directories programs find their configuration in.
	"KUBE", "GH_", "DOCKER_", "COMPOSE_", "PIP_", "LESS", "SYSTEMD_", "GROFF_", "XDG_",
	// pytest takes options and plugins from PYTEST_ADDOPTS and PYTEST_PLUGINS.
	"PYTEST_",
}

// sensitiveVar returns why assigning name is not read-only, or "".
func sensitiveVar(name string) string {
	if name == "" {
		return ""
	}
	if sensitiveVars[name] {
		return fmt.Sprintf("sets `%s`, which changes what programs run", name)
	}
	for _, p := range sensitivePrefixes {
		if strings.HasPrefix(name, p) {
			return fmt.Sprintf("sets `%s`, which changes what programs run", name)
		}
	}
	return ""
}

// stdStreams are the paths of a command's standard streams. /dev/fd/N for another N, and the same
// descriptors through /proc, stay secret.
var stdStreams = map[string]bool{
	"/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/fd/0": true, "/dev/fd/1": true, "/dev/fd/2": true,
}

// isSecretPath reports whether path (absolute or as typed) names credentials: keys, .env files,
// credential stores (the catalogue in package secrets), another process's environment, Warden's own
// state, and the files that hold a credential by what they hold (secretByContent).
func isSecretPath(path, home string) bool {
	return secretByName(path, home) || secretByContent(path, true)
}

// secretByName is isSecretPath without reading the file.
func secretByName(path, home string) bool {
	if path == "" {
		return false
	}
	clean := filepath.ToSlash(filepath.Clean(path))
	if stdStreams[clean] && !strings.Contains(path, "..") {
		// The command's own standard streams: Warden gives it an empty input, and any redirection of
		// them is judged as the read it is.
		return false
	}
	if secrets.Path(clean) {
		return true
	}
	base := filepath.Base(clean)
	if strings.HasPrefix(clean, "/proc/") && (base == "environ" || base == "mem") {
		return true
	}
	// A process's directory, root and descriptors lead anywhere: /proc/self/cwd/../x is not below cwd.
	// Through /proc/self or /dev/fd the file is the command's own, which Warden cannot resolve from its
	// own process.
	if procView(clean) {
		return true
	}
	if strings.HasPrefix(clean, "/proc/") || strings.HasPrefix(clean, "/dev/") {
		if _, sure := resolvePath("/", path, ""); !sure {
			return true
		}
	}
	// Raw disks hold every file.
	if isBlockDevice(clean) {
		return true
	}
	return envNamed(clean) || wardenOwn(clean, home)
}

// secretByContent reports whether the file at path (absolute) holds a credential by what it holds: a
// shell start-up file with a token line (`export GITHUB_TOKEN=...`) and, with configs, the configuration
// of a program that must read it to run (one of git's files setting http.<url>.extraHeader or a URL with
// a password, yarn's with a registry token written in). Only files of those names are read, each once
// per version.
func secretByContent(path string, configs bool) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	clean := filepath.Clean(path)
	switch {
	case secrets.StartupFile(clean):
		return secrets.HoldsSecret(clean)
	case !configs:
		return false
	case secrets.ByContent(clean):
		return secrets.HoldsSecret(clean)
	case secrets.GitConfigFile(clean):
		return gitrepo.FileHoldsCredential(clean)
	}
	return false
}

// envNamed reports whether clean is, or is below, a credential file or directory the environment names
// (SOPS_AGE_KEY_FILE, KUBECONFIG, GNUPGHOME...).
func envNamed(clean string) bool {
	if !filepath.IsAbs(clean) {
		return false
	}
	for _, p := range envPaths() {
		if within(p, clean) {
			return true
		}
	}
	return false
}

// envNamedPaths are the credential paths Warden's environment names, as of the last engine built
// (NewEngine refreshes them) or the first judgement before one: the environment does not change while
// Warden runs, and every file a walk meets is judged, which seventeen look-ups each would slow by half.
var envNamedPaths atomic.Pointer[[]string]

func refreshEnvPaths() {
	p := secrets.EnvPaths(os.Getenv)
	envNamedPaths.Store(&p)
}

func envPaths() []string {
	if p := envNamedPaths.Load(); p != nil {
		return *p
	}
	refreshEnvPaths()
	return *envNamedPaths.Load()
}

// gitConfigWalked judges the configuration in a .git directory a walk meets, whose history is judged
// elsewhere: grep -r (any walker that takes hidden entries in, but not rg, which never enters .git) prints
// it with the rest, an extraHeader included. It reports whether the walk found it secret and stops.
func (e *exec) gitConfigWalked(gitDir string, t *treeRead, sc *scope) bool {
	cfg := gitDir + "/config"
	if t.rg != nil || !t.hidden || excludes(t.excludeDir, ".git") || !t.takes("config") || !isSecretPath(cfg, e.c.ctx.Home) {
		return false
	}
	e.c.read(e.p, cfg, sc)
	return true
}

// loginReads records the start-up files a login shell reads before its command: what they export is in
// the environment `bash -lc env` prints, a token line included. bash reads the first of .bash_profile,
// .bash_login and .profile, which by custom sources .bashrc; sh, dash and ash read .profile.
func (e *exec) loginReads(shell string) {
	home := e.c.ctx.Home
	if h, ok := e.env["HOME"]; ok {
		home = h // HOME=... in front of the shell
	}
	files := []string{"/etc/profile"}
	if filepath.IsAbs(home) {
		names := []string{".profile"}
		if shell == "bash" {
			names = []string{".bash_profile", ".bash_login", ".profile", ".bashrc"}
		}
		for _, n := range names {
			files = append(files, filepath.Join(home, n))
		}
	}
	sc := e.scope()
	for _, f := range files {
		e.c.read(e.p, f, sc)
	}
}

// wardenOwn reports whether a path is Warden's own state or settings. The state directory holds every
// session's transcript and full outputs, the checkpoints (a copy of every workspace's files, .env and
// files under Read deny rules included), logs and the list of trusted workspaces; the settings may hold
// MCP servers' tokens. The custom commands and the skills beside them are prompts, not secrets.
func wardenOwn(clean, home string) bool {
	s := "/" + strings.TrimPrefix(clean, "/")
	if strings.Contains(s+"/", "/.local/state/warden/") {
		return true
	}
	settings := func(dir string) bool {
		i := strings.Index(s, dir+"/")
		if i < 0 {
			return false
		}
		rest := s[i+len(dir)+1:]
		return rest != "" && !promptsDir(rest)
	}
	if settings("/.config/warden") {
		return true
	}
	if !filepath.IsAbs(clean) {
		return false
	}
	own := wardenDirs(home)
	for _, d := range own.state {
		if within(d, clean) {
			return true
		}
	}
	for _, d := range own.settings {
		if rest, ok := strings.CutPrefix(clean, d+"/"); ok && !promptsDir(rest) {
			return true
		}
	}
	return false
}

// promptsDir reports whether rest, a path inside Warden's settings directory, is in one of its folders of
// prompts (commands, skills), which hold the person's words, not their secrets.
func promptsDir(rest string) bool {
	for _, d := range []string{"commands", "skills"} {
		if rest == d || strings.HasPrefix(rest, d+"/") {
			return true
		}
	}
	return false
}

// ownDirs are Warden's state and settings directories both as the environment and the home name them
// and with their symbolic links resolved: a command names the one or the other, and the engine judges
// a path also as it resolves (XDG_STATE_HOME may be a link, or ~/.config a dotfiles checkout's).
type ownDirs struct {
	key             [3]string // XDG_STATE_HOME, XDG_CONFIG_HOME, home
	state, settings []string
}

// ownCache keeps the last directories resolved: the environment rarely changes, and every file a walk
// meets is judged, which a resolution per file (system calls) would slow.
var ownCache atomic.Pointer[ownDirs]

func wardenDirs(home string) *ownDirs {
	key := [3]string{os.Getenv("XDG_STATE_HOME"), os.Getenv("XDG_CONFIG_HOME"), home}
	if d := ownCache.Load(); d != nil && d.key == key {
		return d
	}
	d := &ownDirs{key: key}
	add := func(list *[]string, dir string) {
		for _, p := range []string{dir, ResolvePath("/", dir, "")} {
			if !slices.Contains(*list, p) {
				*list = append(*list, p)
			}
		}
	}
	if filepath.IsAbs(key[0]) {
		add(&d.state, filepath.Join(key[0], "warden"))
	}
	if filepath.IsAbs(key[1]) {
		add(&d.settings, filepath.Join(key[1], "warden"))
	}
	if filepath.IsAbs(home) {
		add(&d.state, filepath.Join(home, ".local", "state", "warden"))
		add(&d.settings, filepath.Join(home, ".config", "warden"))
	}
	ownCache.Store(d)
	return d
}

// IsSecretPath reports whether the file at the absolute path may hold secrets (keys, credentials, .env
// files, a start-up file exporting a token): reading it asks even though it changes nothing. The file
// tools use it to keep such files out of directory-wide searches, and the read-only jail hides what it
// reports. A program's configuration holding a credential (a .git/config with an extraHeader, a
// .yarnrc.yml with a token) is not reported, although reading it asks: git and yarn must read their
// configuration to run at all, in the jail too.
func IsSecretPath(path, home string) bool {
	return secretByName(path, home) || secretByContent(path, false)
}

// procView reports whether a path goes through a process's view of the file system, whose meaning
// depends on the process: /proc/N/cwd, root, fd, fdinfo, map_files, environ (and the same below
// /proc/N/task/M), and /dev/fd.
func procView(clean string) bool {
	if within("/dev/fd", clean) {
		return true
	}
	if !strings.HasPrefix(clean, "/proc/") {
		return false
	}
	comps := strings.Split(clean, "/")[2:]
	for i := 1; i < len(comps); i++ {
		switch comps[i] {
		case "cwd", "root", "fd", "fdinfo", "map_files", "environ", "mem":
			return true
		}
	}
	return false
}
