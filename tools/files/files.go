package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/warden-cli/warden/ignore"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

// What the file tools share: resolving the model's paths, the record of which files the model has read,
// telling text from binary, listing the files of a directory the way git sees them, and diffs (see the
// package doc).

// NewTools returns read_file, write_file, edit_file, glob and grep. What the model has read or written
// is recorded in the Env the tools run with (see Env.RememberFile), so each agent, and each session, must
// read a file itself before it may edit it.
func NewTools() []tools.Tool {
	return []tools.Tool{readFileTool(), writeFileTool(), editFileTool(), globTool(), grepTool()}
}

// filePath is one path given by the model, resolved.
type filePath struct {
	// Abs is the absolute path with symlinks evaluated.
	Abs string
	// Shown is Abs relative to the workspace when it lies inside it, else Abs.
	Shown string
}

// resolveFile resolves a path the model gave against the session's directory.
func resolveFile(env *tools.Env, p string) (filePath, error) {
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
func shownPath(env *tools.Env, abs string) string {
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
func fileAccess(env *tools.Env, kind tools.AccessKind, fp filePath, summary string) tools.Access {
	if summary == "" {
		summary = fp.Shown
	}
	return tools.Access{Kind: kind, Path: fp.Abs, Cwd: env.Cwd(), Summary: summary}
}

// sniffSize is how much of a file decides whether it is text, as git and grep do.
const sniffSize = 8000

// isBinary says whether the start of a file is binary: it has a NUL byte, or enough bytes no text has.
func isBinary(head []byte) bool {
	if len(head) > sniffSize {
		head = head[:sniffSize]
	}
	return bytes.IndexByte(head, 0) >= 0 || tools.LooksBinary(head, 0)
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

// checkApproved refuses a write whose target or change is not the one the call was decided on: between the
// decision (which may wait minutes for the person) and the run, a symbolic link in the path may have been
// swapped, or the file changed.
func checkApproved(call tools.Call, fp filePath, diff string) error {
	a := call.Approved
	switch {
	case a == nil:
		return nil
	case a.Path != fp.Abs:
		return fmt.Errorf("%w; nothing was written", checkApprovedPath(call, fp.Abs))
	case a.Diff != diff:
		return fmt.Errorf("%s changed on disk after the change was shown for approval; nothing was written. "+
			"Read it again and redo the change", fp.Shown)
	}
	return nil
}

// checkApprovedPath refuses a call whose path no longer resolves to abs as it did when the call was
// decided: the question may stay open for minutes, and a symbolic link on the way may be pointed elsewhere
// meanwhile (at a key, say), which the person never saw. Every file tool that may ask checks it after
// resolving its path again, before it reads or writes anything.
func checkApprovedPath(call tools.Call, abs string) error {
	if a := call.Approved; a != nil && a.Path != abs {
		return fmt.Errorf("the path now leads to %s, not to %s as when this call was approved (a symbolic link "+
			"changed). Check the path and make the call again", abs, a.Path)
	}
	return nil
}

// openResolved opens abs, a path whose symbolic links were all resolved, for reading, and refuses if a
// link has appeared in it since (openat2 with RESOLVE_NO_SYMLINKS; on kernels without it, the last
// component alone is checked with O_NOFOLLOW), so that the file read is the one at the path judged. It
// never waits (a FIFO opens without a writer) and refuses what is not a regular file.
func openResolved(abs string) (*os.File, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &unix.OpenHow{Flags: uint64(flags),
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) { // no openat2, or a filter refuses it
		fd, err = unix.Open(abs, flags|unix.O_NOFOLLOW, 0)
	}
	if errors.Is(err, unix.ELOOP) {
		return nil, errors.New("a symbolic link appeared in the path after it was resolved; nothing was read. Make the call again")
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), abs)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("it is not a regular file now (%s)", fi.Mode().Type())
	}
	return f, nil
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

// unwrapPathError drops the path from an *fs.PathError, which would otherwise repeat the absolute path.
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
			tools.Commas(int64(lineCount(old))), tools.HumanBytes(int64(len(old))), tools.Commas(int64(lineCount(new))), tools.HumanBytes(int64(len(new))))
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
	return strings.Join(lines[:diffMaxLines], "") + fmt.Sprintf("… %s more diff lines\n", tools.Commas(int64(rest)))
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
		s += fmt.Sprintf(" … [line cut: %s more bytes]", tools.Commas(more))
	}
	return s
}

// maxListed bounds how many files one glob or grep looks at, so that a search of a home directory ends.
const maxListed = 200_000

// listFiles lists the regular files under dir, a resolved directory, that glob and grep consider: inside
// a git work tree the ones git lists (tracked, and untracked but not ignored), read from the index and
// the rules by package ignore, never by running git, whose configuration can make it run a repository's
// program (a partial clone's fetch of a missing .gitignore); outside one, or in a directory git ignores,
// every regular file. Either way .git is skipped and no link is followed, an index entry included: one
// whose path climbs out, is absolute or names .git, or that passes through a directory now a link, is
// left out and counted, so a search stays below the directory that was decided about.
func listFiles(ctx context.Context, env *tools.Env, dir string) (ignore.Listing, error) {
	return ignore.List(ctx, dir, ignore.ListOptions{Max: maxListed, Open: searchOpener(env)})
}

// searchOpener is the Opener the rules and the repository's files are read with for a search: links may
// not lead out of the workspace and its additional directories, nor into a place that may hold secrets.
func searchOpener(env *tools.Env) *safefile.Opener {
	return safefile.NewOpener(append([]string{env.Workspace}, env.AdditionalDirs...), env.Secret, 0)
}

// openListed opens the file rel of a listing of dir, a resolved directory, refusing a link anywhere on
// the way (dir has none, being resolved), so that a directory replaced with a link between the listing
// and the read leads nowhere. Not waiting on a FIFO, it refuses what is not a regular file.
func openListed(dir, rel string) (*os.File, error) {
	name := filepath.Join(dir, filepath.FromSlash(rel))
	if rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "/../") || !strings.HasPrefix(name, dir) {
		return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("outside the directory searched")}
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		// No openat2 (old kernel), or a filter that refuses it: the last component at least.
		return safefile.OpenRegular(name, unix.O_NOFOLLOW)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("not a regular file")}
	}
	return f, nil
}

// leftOut says what a listing left out for the model (done is "searched" or "listed"): index entries
// that a search does not follow.
func leftOut(l ignore.Listing, done string) string {
	if l.Refused == 0 {
		return ""
	}
	return fmt.Sprintf("\n(%s the index lists not %s: %s out of the directory, names .git, or passes "+
		"through a directory that is now a symbolic link)", countNoun(l.Refused, "file", "files"), done,
		map[bool]string{true: "its path leads", false: "each one's path leads"}[l.Refused == 1])
}

// searchRoot is the directory glob or grep searches, resolved, with the form the model gave it.
type searchRoot struct {
	filePath
	// Display is the root as the model wrote it ("." for the current directory), slash-separated.
	Display string
}

// resolveRoot resolves the optional path of glob and grep; empty means the current directory.
func resolveRoot(env *tools.Env, p string) (searchRoot, error) {
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
