package supplied

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/safefile"
	"golang.org/x/sys/unix"
)

// PathProgram returns why the program name, looked up on PATH, is not the system tool: it is found
// first in a directory inside the workspace (a project virtualenv's bin, node_modules/.bin) or in a
// relative PATH entry, or it is a link outside the system's program directories to another program
// (linkedOnPath). "" when it is none of these. runs is, for a link to another program, the file it runs;
// unknown says that what it runs cannot be known (a file in the workspace, one that shadows a system
// program), so that no rule naming the name covers it.
func PathProgram(e *shell.Exec, name string) (why, runs string, unknown bool) {
	for _, pd := range e.S.PathEntries() {
		dir := pd.Dir
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			if e.Scope().Cwd == "" {
				return fmt.Sprintf("PATH has the relative directory `%s`, so `%s` is only known at run time", dir, name), "", true
			}
			dir = filepath.Join(e.Scope().Cwd, dir)
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			if pd.Risky {
				return fmt.Sprintf("`%s` on PATH is `%s`, in the workspace, not the system's tool", name, e.S.Shown(p)), "", true
			}
			return linkedOnPath(e, name, p)
		}
	}
	return "", "", false
}

// linkedOnPath returns why name, found on PATH at p, may run another program than the one its name says,
// the file it runs when that is known to be another program, and whether what it runs is unknown: p
// lies outside the system's program directories, where an earlier command may have put it
// (~/.local/bin/cat as a link to /bin/rm, a copy of rm, a hard link to it, a script that runs it).
//   - A link to a program of another name runs that program (sameProgram says which names are the same
//     program; a versioned name, diff -> diff3, is the program only when the system's program of the
//     name is that very file, or the system has none).
//   - Any other file that stands in front of the system's program of its name without being it
//     (shadowsSystem) is of unknown identity: it is judged by its name when it runs in the read-only
//     jail, and asks without the jail; no deny or ask rule can be checked against it, so under such
//     rules it asks in every mode.
func linkedOnPath(e *shell.Exec, name, p string) (why, runs string, unknown bool) {
	dir := filepath.Dir(p)
	if shell.SystemBinDir(dir) || shell.SystemBinDir(shell.ResolvePath("/", dir, "")) {
		return "", "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Sprintf("`%s` on PATH is `%s`, a link Warden cannot follow", name, e.S.Shown(p)), "", true
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target := filepath.Base(real)
		other := !sameProgram(name, target)
		if !other && !multiCall[target] && target != name && !sameFamily(name, target) {
			// A versioned name: diff3 is not diff, python3.11 is python3 where /usr/bin/python3 is it.
			if sys := systemProgram(name); sys != "" && !sameContent(real, sys) {
				other = true
			}
		}
		if other {
			return fmt.Sprintf("`%s` on PATH is `%s`, a link to `%s`: it runs `%s`", name, e.S.Shown(p), e.S.Shown(real), target), real, false
		}
	}
	if sys := shadowsSystem(name, real); sys != "" {
		why := fmt.Sprintf("`%s` on PATH is `%s`, which is not the system's `%s`: what it runs is unknown", name, e.S.Shown(p), sys)
		if e.S.Ctx.ReadOnlyJail {
			e.P.UnseenOnly(shell.UnseenProgram, why)
		} else {
			// Without the jail nothing would keep it from writing: it is not read-only.
			e.P.Unsee(shell.UnseenProgram, why)
		}
	}
	return "", "", false
}

// systemProgram returns the system's program named name, or "".
func systemProgram(name string) string {
	for _, d := range shell.SystemBinDirs {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return filepath.Join(d, name)
		}
	}
	return ""
}

// shadowsSystem returns the system program named name that the file real, found first on PATH, stands in
// front of without being it, or "": real is the same file, or holds the same bytes (a copy), or no
// system program has that name (a tool installed only there, judged by its name), or real could not have
// been written by this user (a read-only store such as Nix's, another user's file), or it is a version
// manager's shim. A multi-call program (busybox, rustup's proxies) outside the system's folders is not
// taken on its name: a file called busybox may be anything.
func shadowsSystem(name, real string) string {
	sys := systemProgram(name)
	if sys == "" || versionManagerShim(real) {
		// No system program of the name, or a version manager's shim (pyenv, rbenv, asdf, nodenv), which
		// runs the version of the program the project asks for.
		return ""
	}
	if unix.Access(real, unix.W_OK) != nil && unix.Access(filepath.Dir(real), unix.W_OK) != nil {
		return ""
	}
	fi, err := os.Stat(real)
	if err != nil {
		return sys
	}
	if sameBytes(fi, real, sys) {
		return ""
	}
	return sys
}

// versionManagerShim reports whether real is in the shims folder of a version manager (~/.pyenv/shims,
// ~/.rbenv/shims, ~/.asdf/shims, mise's), which only that manager writes, each shim running the version
// of its program the project asks for. A folder merely named shims is not one.
func versionManagerShim(real string) bool {
	dir := filepath.Dir(real)
	return filepath.Base(dir) == "shims" && versionManagers[filepath.Base(filepath.Dir(dir))]
}

// versionManagers are the folders whose shims folder a version manager keeps.
var versionManagers = map[string]bool{".pyenv": true, ".rbenv": true, ".asdf": true, ".nodenv": true, ".goenv": true,
	".jenv": true, ".plenv": true, ".phpenv": true, ".luaenv": true, "mise": true, ".volta": true}

// sameContent reports whether the files a and b are one file or hold the same bytes (sameBytes).
func sameContent(a, b string) bool {
	fa, err := os.Stat(a)
	return err == nil && sameBytes(fa, a, b)
}

// sameBytes reports whether the file a, of the information fa, and the file b are one file or hold the
// same bytes, read at most once each and only when their sizes agree.
func sameBytes(fa os.FileInfo, a, b string) bool {
	fb, err := os.Stat(b)
	if err != nil || !fa.Mode().IsRegular() || !fb.Mode().IsRegular() {
		return false
	}
	if os.SameFile(fa, fb) {
		return true
	}
	if fa.Size() != fb.Size() || fa.Size() > maxCompared {
		return false
	}
	ra, err := safefile.OpenRegular(a, 0)
	if err != nil {
		return false
	}
	defer ra.Close()
	rb, err := safefile.OpenRegular(b, 0)
	if err != nil {
		return false
	}
	defer rb.Close()
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(ra, bufA)
		nb, errB := io.ReadFull(rb, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		if errA != nil || errB != nil {
			// Of equal sizes, both end at once (io.EOF, or io.ErrUnexpectedEOF after a part).
			return errA == errB
		}
	}
}

// maxCompared bounds the programs compared byte for byte; a larger one that shadows a system program is
// taken as another program.
const maxCompared = 256 << 20

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
