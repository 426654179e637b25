package supplied

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// PathProgram returns why the program name, looked up on PATH, is not the system tool: it is found
// first in a directory inside the workspace (a project virtualenv's bin, node_modules/.bin) or in a
// relative PATH entry, or it is a link outside the system's program directories to another program
// (linkedOnPath). "" when it is none of these. runs is, for a link to another program, the file it runs.
func PathProgram(e *shell.Exec, name string) (why, runs string) {
	for _, pd := range e.S.PathEntries() {
		dir := pd.Dir
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			if e.Scope().Cwd == "" {
				return fmt.Sprintf("PATH has the relative directory `%s`, so `%s` is only known at run time", dir, name), ""
			}
			dir = filepath.Join(e.Scope().Cwd, dir)
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			if pd.Risky {
				return fmt.Sprintf("`%s` on PATH is `%s`, in the workspace, not the system's tool", name, e.S.Shown(p)), ""
			}
			return linkedOnPath(e, name, p)
		}
	}
	return "", ""
}

// linkedOnPath returns why name, found on PATH at p, runs another program, and the file it runs: p lies
// outside the system's program directories and is a link to a program of another name
// (~/.local/bin/ls -> /bin/rm, which an earlier command may have made). A link to the same program
// (sameProgram) is the program its name says.
func linkedOnPath(e *shell.Exec, name, p string) (why, runs string) {
	dir := filepath.Dir(p)
	if shell.SystemBinDir(dir) || shell.SystemBinDir(shell.ResolvePath("/", dir, "")) {
		return "", ""
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Sprintf("`%s` on PATH is `%s`, a link Warden cannot follow", name, e.S.Shown(p)), ""
	}
	target := filepath.Base(real)
	if sameProgram(name, target) {
		return "", ""
	}
	return fmt.Sprintf("`%s` on PATH is `%s`, a link to `%s`: it runs `%s`", name, e.S.Shown(p), e.S.Shown(real), target), real
}

// sameProgram reports whether a link called name to a file called target runs the program name says:
// the same name; the name followed by a version and nothing else (python3 -> python3.11, rg ->
// rg-14.1.0, gcc -> gcc-12); a name the same program is installed under (awk -> mawk, fd -> fdfind);
// or a multi-call binary that runs the tool of the name it is called as (busybox). A name that merely
// starts the target's is another program: ss -> ssh, tr -> truncate, ps -> psql, less -> lesskey.
func sameProgram(name, target string) bool {
	if target == name || multiCall[target] || sameFamily(name, target) {
		return true
	}
	rest, ok := strings.CutPrefix(target, name)
	return ok && versionSuffix(rest)
}

// versionSuffix reports whether s is a version: digits and dots starting with a digit, after at most
// one '-' or '.' (".11", "-14.1.0", "3").
func versionSuffix(s string) bool {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	return strings.Trim(s, "0123456789.") == ""
}

// multiCall are programs that run the tool of the name they are called as: busybox's and toybox's
// applets, uutils' coreutils, the toolchain managers' proxies (rustup's cargo and rustc, mise's, volta's
// and proto's shims) and ccache's masquerade.
var multiCall = map[string]bool{"busybox": true, "toybox": true, "coreutils": true, "rustup": true, "rustup-init": true,
	"mise": true, "rtx": true, "volta-shim": true, "proto-shim": true, "ccache": true}

// programFamilies are names one program is installed under, each the same program to Warden's table:
// the implementations of a POSIX tool, and the names Debian gives programs whose name another took.
var programFamilies = [][]string{
	{"awk", "gawk", "mawk", "nawk", "original-awk"},
	{"sh", "dash", "bash"},
	{"vi", "vim", "nvim", "vim.basic", "vim.tiny"},
	{"fd", "fdfind"},
	{"bat", "batcat"},
}

func sameFamily(a, b string) bool {
	for _, f := range programFamilies {
		if slices.Contains(f, a) && slices.Contains(f, b) {
			return true
		}
	}
	return false
}
