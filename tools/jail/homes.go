package jail

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The home directories are dark in the jail: hidden whole, but for the workspace, the additional
// directories and the places (Toolchains, and the person's sandbox.jail_readable) that are in them. A home
// holds the person's keys, notes, mail, browser profiles and other projects, under any name, so no scan for
// secret names can be trusted to find them all; showing only what is known to be needed needs no scan.

// Homes are the home directories the jail hides: the person's, wherever it is, /root and every /home/*,
// whoever Warden runs as (a home another user left readable is as private as the person's own).
func Homes(home string) []string {
	out := []string{}
	if home != "" && filepath.IsAbs(home) {
		out = append(out, filepath.Clean(home))
	}
	more, _ := filepath.Glob("/home/*")
	for _, h := range append(more, "/root") {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// systemDirs are what every command needs; a "home" that is or holds one of them (HOME=/, HOME=/usr) is
// not hidden, since nothing would run.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix",
	"/var", "/proc", "/sys", "/dev", "/run", "/tmp", "/snap", "/gnu"}

// darkHomes are the homes of cfg as the jail hides them: where their links lead, existing directories,
// none holding a system directory, none inside another.
func darkHomes(homes []string) []string {
	var out []string
	for _, h := range homes {
		real, err := filepath.EvalSymlinks(h)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() || real == "/" ||
			slices.ContainsFunc(systemDirs, func(d string) bool { return within(real, d) }) {
			continue
		}
		out = append(out, real)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	// A home inside another is hidden with it.
	return slices.DeleteFunc(out, func(h string) bool {
		return slices.ContainsFunc(out, func(o string) bool { return o != h && within(o, h) })
	})
}

// Link is a symbolic link on the way to a shown place, inside a dark home: the jail makes it again where
// the home is hidden (~/.nix-profile, a home whose ~/go leads elsewhere).
type Link struct {
	Path, Target string
}

// maxLinks bounds the links followed on the way to one place, as the kernel bounds them.
const maxLinks = 40

// follow resolves p as the kernel would, link by link, and returns where it leads and the links on the way
// that are inside a dark home (dark). ok is false when p does not exist.
func follow(p string, dark func(string) bool) (real string, links []Link, ok bool) {
	rest := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", nil, false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", nil, false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, false
		}
		if dark(next) {
			links = append(links, Link{next, target})
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(strings.TrimPrefix(target, "/"), "/"), rest...)
	}
	return cur, links, true
}

// inAny reports whether p is at or below one of dirs.
func inAny(dirs []string, p string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(d, p) })
}

// Env is a command's environment as this jail needs it: TMPDIR is the jail's own, and the configuration
// kept in the home is not looked for there. A program finds a file of a dark home missing under
// bubblewrap but unreadable under Landlock, and some stop at an unreadable one where they go on without a
// missing one (git, at ~/.gitconfig): git is given no global configuration, and the XDG configuration
// directory, when it is in a dark home, is one that does not exist, so both backends read the same.
func (j *Jail) Env(env []string) []string {
	config := ""
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			config = v
		}
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if config == "" && home != "" {
		config = filepath.Join(home, ".config")
	}
	drop := []string{"TMPDIR", "GIT_CONFIG_GLOBAL"}
	add := []string{"TMPDIR=" + j.tmp, "GIT_CONFIG_GLOBAL=/dev/null"}
	if config != "" && inAny(j.masks.Dark, resolved(config)) {
		drop = append(drop, "XDG_CONFIG_HOME")
		add = append(add, "XDG_CONFIG_HOME="+filepath.Join(j.tmp, "no-config"))
	}
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, name)
	})
	return append(out, add...)
}

// resolved is p with the links of its longest existing part resolved, as the jail's paths are named.
func resolved(p string) string {
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolved(parent), filepath.Base(p))
}
