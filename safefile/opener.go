package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// DefaultMaxSize bounds what an Opener reads when its MaxSize is zero: Warden's own inputs (settings,
// instruction files, commands, ignore files) are small, and a huge one is a mistake or an attack.
const DefaultMaxSize = 1 << 20

// Refused is the error of a file an Opener would not read, or WriteWithin would not write. Reason says
// why in words a person can act on ("it is a link to /home/me/.ssh/id_rsa, which may hold secrets");
// callers show it once and go on without the file.
type Refused struct {
	Path   string
	Reason string
	// Write is set when the refusal is of a write.
	Write bool
}

func (e *Refused) Error() string {
	verb := "read"
	if e.Write {
		verb = "written"
	}
	return fmt.Sprintf("%s was not %s: %s", e.Path, verb, e.Reason)
}

// Opener is the one way Warden opens the person's files for its own reading: instruction files and what
// they import, custom commands, settings, .mcp.json, ignore files, git's index and configuration.
// Whoever controls a repository chooses what stands at those paths, so an Opener refuses
//   - a file inside one of the Within directories (the workspace) that leads out of them through a link,
//   - a file that is, or leads to, a place Secret names (a key, a credential store),
//   - anything but a regular file (a FIFO is never waited on, a device never read), and files of the
//     kernel's own file systems (/proc, /sys), which pass for regular files,
//   - a file larger than MaxSize,
//   - when it judges secrets, a file inside the Within directories with another name (a hard link)
//     that is not beside it (names.go).
//
// A file outside every Within directory (the person's own settings and commands under their home) may be
// a link anywhere but into a secret place: a dotfiles checkout is the person's choice, not a repository's.
//
// The checks are made on the path with its links resolved, and the resolved path is then opened refusing
// any link, so a link swapped in between is refused rather than followed. The zero Opener refuses only
// non-regular, kernel and oversized files.
type Opener struct {
	within   []string // as given, cleaned
	resolved []string // the same with their links resolved
	secret   func(path string) bool
	maxSize  int64
}

// NewOpener returns an Opener that keeps links inside within (the workspace, the additional
// directories), refuses what secret reports (nil: nothing), and files over maxSize bytes (0:
// DefaultMaxSize).
func NewOpener(within []string, secret func(path string) bool, maxSize int64) *Opener {
	o := &Opener{secret: secret, maxSize: maxSize}
	for _, d := range within {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		o.within = append(o.within, d)
		if r, err := filepath.EvalSymlinks(d); err == nil {
			o.resolved = append(o.resolved, r)
		} else {
			o.resolved = append(o.resolved, d)
		}
	}
	return o
}

// WithMaxSize returns a copy of o that refuses files over n bytes instead (0: DefaultMaxSize), with every
// other check the same: some of Warden's inputs are larger by nature (git's index lists every tracked
// file). A nil o gives the zero Opener with that bound.
func (o *Opener) WithMaxSize(n int64) *Opener {
	c := &Opener{maxSize: n}
	if o != nil {
		c.within, c.resolved, c.secret = o.within, o.resolved, o.secret
	}
	return c
}

// Open opens path for reading, or says why not. A path that does not exist (a dangling link included)
// returns an error for which errors.Is(err, fs.ErrNotExist) holds, so a missing optional file stays
// quiet; a refusal is a *Refused. A nil Opener is the zero one.
func (o *Opener) Open(path string) (*os.File, error) { return o.open(path, false) }

// OpenDir opens the directory path for listing, judged as Open judges a file (a folder of the workspace
// that leads out of it through a link is refused, and so is one in a secret place), so that a listing of
// a repository's folder never shows what lies elsewhere. What it lists is judged again when opened.
func (o *Opener) OpenDir(path string) (*os.File, error) { return o.open(path, true) }

func (o *Opener) open(path string, dir bool) (*os.File, error) {
	if o == nil {
		o = &Opener{}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if root, inside := o.rootOf(abs); inside && !o.leadsInside(target) {
		return nil, &Refused{Path: path, Reason: fmt.Sprintf("it is a link to %s, outside %s", target, root)}
	}
	if o.secret != nil {
		switch {
		case o.secret(abs):
			return nil, &Refused{Path: path, Reason: "it may hold secrets"}
		case target != abs && o.secret(target):
			return nil, &Refused{Path: path, Reason: fmt.Sprintf("it is a link to %s, which may hold secrets", target)}
		}
	}
	if kernelPath(target) {
		return nil, &Refused{Path: path, Reason: fmt.Sprintf("it leads to %s, a file of the kernel's, not a regular file", target)}
	}
	flags := 0
	if dir {
		flags = unix.O_DIRECTORY
	}
	f, err := openResolved(target, flags)
	switch {
	case errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EXDEV):
		return nil, &Refused{Path: path, Reason: "a link in its path changed as it was opened"}
	case dir && errors.Is(err, syscall.ENOTDIR):
		return nil, &Refused{Path: path, Reason: "it is not a directory"}
	case err != nil:
		return nil, err
	}
	if why := o.unfit(f, dir); why != "" {
		f.Close()
		return nil, &Refused{Path: path, Reason: why}
	}
	if _, inside := o.rootOf(abs); inside && !dir && o.secret != nil {
		if why := o.otherNames(f, target); why != "" {
			f.Close()
			return nil, &Refused{Path: path, Reason: why}
		}
	}
	return f, nil
}

// ReadFile reads the whole of path through Open.
func (o *Opener) ReadFile(path string) ([]byte, error) {
	f, err := o.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The size was checked on the open file; a file that grows as it is read stops at the bound.
	return io.ReadAll(io.LimitReader(f, o.limit()))
}

func (o *Opener) limit() int64 {
	if o == nil || o.maxSize <= 0 {
		return DefaultMaxSize
	}
	return o.maxSize
}

// unfit says why an open file is not one to read: not regular (or, for dir, not a directory), on a
// kernel file system, too large.
func (o *Opener) unfit(f *os.File, dir bool) string {
	fi, err := f.Stat()
	if err != nil {
		return err.Error()
	}
	switch {
	case dir && !fi.IsDir():
		return "it is not a directory"
	case !dir && !fi.Mode().IsRegular():
		return "it is not a regular file"
	}
	var fs unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &fs); err == nil {
		switch fs.Type {
		case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.DEBUGFS_MAGIC, unix.SECURITYFS_MAGIC, unix.TRACEFS_MAGIC,
			unix.BPF_FS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC:
			return "it is a file of the kernel's, not a regular file"
		}
	}
	if !dir && fi.Size() > o.limit() {
		return fmt.Sprintf("it is %d bytes, more than the %d Warden reads", fi.Size(), o.limit())
	}
	return ""
}

// rootOf returns the Within directory path lies in, as written or with the directory's links resolved.
func (o *Opener) rootOf(path string) (string, bool) {
	for i, d := range o.within {
		if within(path, d) || within(path, o.resolved[i]) {
			return d, true
		}
	}
	return "", false
}

func (o *Opener) leadsInside(target string) bool {
	for _, d := range o.resolved {
		if within(target, d) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or below it; both are clean and absolute.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator)) || dir == string(filepath.Separator)
}

// kernelPath reports whether a resolved path is on one of the kernel's own file systems by its name, which
// catches /proc/self/environ before it is opened; unfit checks the file system itself afterwards.
func kernelPath(p string) bool {
	return within(p, "/proc") || within(p, "/sys")
}

// openWithoutLinks opens a resolved path for reading, without waiting, refusing a link in any component:
// whatever was checked is what is opened. Kernels without openat2 (before 5.6) refuse a link in the last
// component only.
func openWithoutLinks(path string) (*os.File, error) { return openResolved(path, 0) }

// openResolved is openWithoutLinks with more open flags (O_DIRECTORY).
func openResolved(path string, more int) (*os.File, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC | more
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   uint64(flags),
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		// No openat2 (old kernel), or a seccomp filter that refuses it.
		fd, err = unix.Open(path, flags|unix.O_NOFOLLOW, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
