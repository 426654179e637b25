package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	udiff "github.com/aymanbagabas/go-udiff"
)

// What the file tools share: resolving the model's paths (always through Env.Resolve, so that a tool
// touches exactly the file the permission engine decided about), the record of which files the model has
// read, telling text from binary, listing the files of a directory the way git sees them, and diffs.
//
// Decisions worth knowing:
//   - Access reports the resolved absolute path, symlinks evaluated; the engine resolving it again changes
//     nothing. Summary carries the workspace-relative path for panels and the history.
//   - write_file always reports AccessWrite (create or replace, as AccessWrite is defined); edit_file
//     reports AccessEdit. The engine treats both alike; only the wording of its reason differs.
//   - glob and grep list files with `git ls-files -co --exclude-standard` inside a git work tree (tracked
//     files plus untracked ones that are not ignored), and by walking the tree outside one. Either way
//     .git is skipped and only regular files count: symlinks are not followed, so a link inside the
//     workspace cannot lead a search outside it. A directory that is itself git-ignored (node_modules)
//     and is searched by name is walked whole, because asking for it is asking for its files.
//   - grep searches that same list with rg when rg is on PATH and with Go's regexp when not, and formats
//     both the same way, so the model cannot tell which one ran.

// NewFileTools returns read_file, write_file, edit_file, glob and grep. What the model has read or written
// is recorded in the Env the tools run with (see Env.rememberFile), so each agent, and each session, must
// read a file itself before it may edit it.
func NewFileTools() []Tool {
	return []Tool{readFileTool(), writeFileTool(), editFileTool(), globTool(), grepTool()}
}

// filePath is one path given by the model, resolved.
type filePath struct {
	// Abs is the absolute path with symlinks evaluated.
	Abs string
	// Shown is Abs relative to the workspace when it lies inside it, else Abs.
	Shown string
}

// resolveFile resolves a path the model gave against the session's directory.
func resolveFile(env *Env, p string) (filePath, error) {
	if env.Resolve == nil {
		return filePath{}, errors.New("file tools are not set up: Env.Resolve is nil (a bug in Warden)")
	}
	if strings.TrimSpace(p) == "" {
		return filePath{}, errors.New("path is empty; give a file path, relative to the current directory or absolute")
	}
	if strings.ContainsRune(p, 0) {
		return filePath{}, errors.New("path contains a NUL character")
	}
	abs := env.Resolve(env.Cwd(), p)
	return filePath{Abs: abs, Shown: shownPath(env, abs)}, nil
}

// shownPath is abs relative to the workspace when inside it, for people and for the model's next call.
func shownPath(env *Env, abs string) string {
	ws := env.Workspace
	if env.Resolve != nil && ws != "" {
		ws = env.Resolve("/", ws)
	}
	if ws == "" {
		return abs
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return rel
}

// fileAccess is the Access of a call that touches one path.
func fileAccess(env *Env, kind AccessKind, fp filePath, summary string) Access {
	if summary == "" {
		summary = fp.Shown
	}
	return Access{Kind: kind, Path: fp.Abs, Cwd: env.Cwd(), Summary: summary}
}

// sniffSize is how much of a file decides whether it is text, as git and grep do.
const sniffSize = 8000

// isBinary says whether the start of a file is binary: it has a NUL byte, or enough bytes no text has.
func isBinary(head []byte) bool {
	if len(head) > sniffSize {
		head = head[:sniffSize]
	}
	return bytes.IndexByte(head, 0) >= 0 || looksBinary(head, 0)
}

// fileKind names what a non-text file seems to be, for the refusal message.
func fileKind(head []byte) string {
	for _, m := range []struct{ magic, name string }{
		{"\x89PNG", "a PNG image"}, {"\xff\xd8\xff", "a JPEG image"}, {"GIF8", "a GIF image"},
		{"%PDF", "a PDF document"}, {"PK\x03\x04", "a zip archive"}, {"\x7fELF", "an executable (ELF)"},
		{"\x1f\x8b", "gzip data"}, {"SQLite format 3", "an SQLite database"},
	} {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return m.name
		}
	}
	return "a binary file"
}

// statFile checks that fp is a regular file, with messages the model can act on.
func statFile(fp filePath) (os.FileInfo, error) {
	fi, err := os.Stat(fp.Abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s does not exist", fp.Shown)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %v", fp.Shown, unwrapPathError(err))
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file; list it with glob (pattern \"*\" and path %q)",
			fp.Shown, fp.Shown)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s); only regular files can be read", fp.Shown, fi.Mode().Type())
	}
	return fi, nil
}

// unwrapPathError drops the path from an *fs.PathError, which would otherwise repeat the absolute path.
// checkApproved refuses a write whose target or change is not the one the call was decided on: between the
// decision (which may wait minutes for the person) and the run, a symbolic link in the path may have been
// swapped, or the file changed.
func checkApproved(call Call, fp filePath, diff string) error {
	a := call.Approved
	switch {
	case a == nil:
		return nil
	case a.Path != fp.Abs:
		return fmt.Errorf("the path now leads to %s, not to %s as when this call was approved (a symbolic link "+
			"changed); nothing was written. Check the path and make the call again", fp.Abs, a.Path)
	case a.Diff != diff:
		return fmt.Errorf("%s changed on disk after the change was shown for approval; nothing was written. "+
			"Read it again and redo the change", fp.Shown)
	}
	return nil
}

// writeResolved writes data to abs, a path whose symbolic links were all resolved, and refuses if one has
// appeared in it since (openat2 with RESOLVE_NO_SYMLINKS; on kernels without it, the last component alone
// is checked with O_NOFOLLOW). Like os.WriteFile it truncates an existing file, keeping its mode.
func writeResolved(abs string, data []byte, perm os.FileMode) error {
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_TRUNC | unix.O_CLOEXEC | unix.O_NONBLOCK
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &unix.OpenHow{Flags: uint64(flags), Mode: uint64(perm),
		Resolve: unix.RESOLVE_NO_SYMLINKS})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) { // no openat2, or a filter refuses it
		fd, err = unix.Open(abs, flags|unix.O_NOFOLLOW, uint32(perm))
	}
	if errors.Is(err, unix.ELOOP) {
		return errors.New("a symbolic link appeared in the path after it was resolved; nothing was written")
	}
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), abs)
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("it is not a regular file now (%s); nothing was written", fi.Mode().Type())
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return unwrapPathError(err)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// usesCRLF says whether text ends its lines with \r\n (most of them, for files that mix).
func usesCRLF(text string) bool {
	crlf := strings.Count(text, "\r\n")
	return crlf > 0 && crlf >= strings.Count(text, "\n")-crlf
}

// toCRLF turns every \n not already preceded by \r into \r\n.
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// lineCount is the number of lines in text, counting a last line without a newline.
func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// Diffs are for people: past these sizes the approval modal gets a summary instead of a diff that would
// take long to compute and longer to read.
const (
	diffMaxInput = 4 << 20
	diffMaxLines = 5000 // the modal scrolls; past this a diff says how much more there is
)

// unifiedDiff is the diff from old to new of the file shown as name; old is "" and isNew set for a new file.
// edits, when known, spare computing them.
func unifiedDiff(name, old, new string, isNew bool, edits []udiff.Edit) string {
	from, to := "a/"+filepath.ToSlash(name), "b/"+filepath.ToSlash(name)
	if isNew {
		from = "/dev/null"
	}
	if old == new {
		return ""
	}
	if edits == nil && (len(old) > diffMaxInput || len(new) > diffMaxInput) {
		return fmt.Sprintf("--- %s\n+++ %s\n(too large to show: %s lines, %s, replaced by %s lines, %s)\n", from, to,
			commas(int64(lineCount(old))), HumanBytes(int64(len(old))), commas(int64(lineCount(new))), HumanBytes(int64(len(new))))
	}
	if edits == nil {
		edits = udiff.Lines(old, new)
	}
	d, err := udiff.ToUnified(from, to, old, edits, udiff.DefaultContextLines)
	if err != nil {
		return fmt.Sprintf("--- %s\n+++ %s\n(no diff: %v)\n", from, to, err)
	}
	return capDiff(d)
}

// capDiff keeps the first diffMaxLines lines of a diff.
func capDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	if len(lines) <= diffMaxLines+1 {
		return d
	}
	rest := len(lines) - diffMaxLines
	if lines[len(lines)-1] == "" {
		rest--
	}
	return strings.Join(lines[:diffMaxLines], "") + fmt.Sprintf("… %s more diff lines\n", commas(int64(rest)))
}

// Lines shown to the model are cut at this many bytes, with a mark saying so.
const (
	readLineMax = 2000
	grepLineMax = 500
)

// cutLine shortens a line to at most max bytes at a rune boundary and makes it valid UTF-8. more is how
// many bytes the line had beyond what line holds (the caller may have dropped them already).
func cutLine(line []byte, max int, more int64) string {
	if len(line) > max {
		more += int64(len(line) - max)
		i := max
		for i > max-utf8.UTFMax && i > 0 && !utf8.RuneStart(line[i]) {
			i--
		}
		more += int64(max - i)
		line = line[:i]
	}
	s := strings.ToValidUTF8(string(line), "\uFFFD")
	if more > 0 {
		s += fmt.Sprintf(" … [line cut: %s more bytes]", commas(more))
	}
	return s
}

// maxListed bounds how many files one glob or grep looks at, so that a search of a home directory ends.
const maxListed = 200_000

// listing is the files under a directory that glob and grep consider.
type listing struct {
	// Files are slash-separated paths relative to the directory, sorted, regular files only.
	Files []string
	// Stopped is set when the listing reached maxListed.
	Stopped bool
}

// listFiles lists the regular files under dir: through git when dir is in a work tree (so ignored files
// are left out), by walking it otherwise. .git directories are never entered.
func listFiles(ctx context.Context, dir string) (listing, error) {
	if files, ok := gitListFiles(ctx, dir); ok {
		var l listing
		for _, f := range files {
			if len(l.Files) == maxListed {
				l.Stopped = true
				break
			}
			if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
				l.Files = append(l.Files, f)
			}
		}
		return l, nil
	}
	return walkFiles(ctx, dir)
}

// gitListFiles lists the files git sees under dir (tracked, and untracked but not ignored). It reports
// false when dir is not in a work tree, git is missing or fails, or dir is itself ignored.
func gitListFiles(ctx context.Context, dir string) ([]string, bool) {
	out, err := gitIn(ctx, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, false
	}
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(out) == 0 {
		files = nil
		if _, err := gitIn(ctx, dir, "check-ignore", "-q", "."); err == nil {
			return nil, false
		}
	}
	// An unmerged path is listed once per stage.
	slices.Sort(files)
	return slices.Compact(files), true
}

// gitSafe is configuration given to every git Warden runs on its own: such a git must run nothing a
// repository names (core.fsmonitor is run by ls-files; .git/config may have been written by a command,
// sandboxed or not, or come with the files), and must not pick up a bare repository it was not pointed at.
var gitSafe = []string{"-c", "core.fsmonitor=false", "-c", "safe.bareRepository=explicit"}

func gitIn(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", slices.Concat(gitSafe, []string{"-C", dir}, args)...)
	cmd.Env = append(helperEnv(), "GIT_OPTIONAL_LOCKS=0")
	return cmd.Output()
}

// walkFiles lists the regular files under dir, skipping .git, without following symlinks.
func walkFiles(ctx context.Context, dir string) (listing, error) {
	var l listing
	errStop := errors.New("stop")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable corner does not spoil the rest
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if len(l.Files) == maxListed {
			l.Stopped = true
			return errStop
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		l.Files = append(l.Files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil && err != errStop {
		return listing{}, err
	}
	slices.Sort(l.Files)
	return l, nil
}

// searchRoot is the directory glob or grep searches, resolved, with the form the model gave it.
type searchRoot struct {
	filePath
	// Display is the root as the model wrote it ("." for the current directory), slash-separated.
	Display string
}

// resolveRoot resolves the optional path of glob and grep; empty means the current directory.
func resolveRoot(env *Env, p string) (searchRoot, error) {
	if p == "" {
		p = "."
	}
	fp, err := resolveFile(env, p)
	if err != nil {
		return searchRoot{}, err
	}
	return searchRoot{filePath: fp, Display: path.Clean(filepath.ToSlash(p))}, nil
}

// relNote tells the model what output paths are relative to, when that is not the current directory.
func (r searchRoot) relNote() string {
	if r.Display == "." {
		return ""
	}
	return fmt.Sprintf("; paths are relative to %s", r.Display)
}
