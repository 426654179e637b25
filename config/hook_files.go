package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A project's hook item covers, besides its command text and timeout, the files of the workspace that
// decide what the command runs, since what a hook does is mostly in the scripts it runs: approving the
// command line alone would let a pull change what runs under the same approval. Hashing all the code a
// command may reach is impossible (a script can run anything from anywhere), so the item covers a set
// stated in the README, and says on screen what it cannot cover:
//
//   - every file under the project's hook folders, .claude/hooks and .warden/hooks, and under the folder of
//     each file of the workspace the command names (a script sourced beside the one named, a library in a
//     folder below it), except the workspace's top folder, which holds the whole project;
//   - the names as the shell reads them (mvdan.cc/sh, which the permission engine parses commands with):
//     quotes and backslashes taken off, $CLAUDE_PROJECT_DIR, ${CLAUDE_PROJECT_DIR:-…} and $PWD put as the
//     folder they hold, `cd DIR &&` followed, and the bodies of `sh -c`, `bash -c` and `eval` parsed too;
//   - the task files of the task runners the command calls (make, npm/pnpm/yarn/npx/bun, just, task);
//   - a name no file stands at counts by its absence, so that a pull that adds the file changes the item.
//
// What the item cannot cover is listed in it: what an interpreter, a toolchain, a task runner or a linter it
// runs loads from the workspace (codeLoaders), a variable that names code to load (NODE_OPTIONS), a command
// that does not parse, a name it cannot tell before
// the command runs ($HOME, $(…), a loop's variable), a path outside the workspace, a file Warden does not
// read (a link out, a pipe, a file too large: covered by its size and time of change only), a folder too
// large to hash at every start.

// fileHash is one file a hook's item covers.
type fileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	// Other says what stands there when it is not a file Warden reads (a link out, a file too large),
	// with its size and time of change, which a checkout of other contents changes too.
	Other string `json:"other,omitempty"`
}

// hookCover is what a project hook's item covers besides its command and timeout.
type hookCover struct {
	Files []fileHash `json:"files"`
	// Uncovered says what the command may run that the item cannot cover, as the person is shown it.
	Uncovered []string `json:"uncovered,omitempty"`
}

// Bounds of what is hashed at every start: a script is small, a hook folder holds a few of them.
const (
	// maxHookFileBytes bounds what is hashed of one file.
	maxHookFileBytes = 64 << 20
	// maxCoverFolderFiles bounds the files of one folder an item covers; a larger folder is left out,
	// and said.
	maxCoverFolderFiles = 1000
	// maxCoverFolderBytes bounds what is hashed of one folder; its files past it are covered by size
	// and time of change.
	maxCoverFolderBytes = 64 << 20
	// maxShellDepth bounds how deep sh -c and eval bodies are parsed.
	maxShellDepth = 4
)

// hookFolders are the project's hook folders, covered whole by every project hook's item.
var hookFolders = []string{".claude/hooks", ".warden/hooks"}

// taskFiles are the files each task runner reads its tasks from, in the folder it runs in.
var taskFiles = map[string][]string{
	"make": {"GNUmakefile", "makefile", "Makefile"}, "gmake": {"GNUmakefile", "makefile", "Makefile"},
	"npm": {"package.json"}, "pnpm": {"package.json"}, "yarn": {"package.json"}, "npx": {"package.json"}, "bun": {"package.json"},
	"just": {"justfile", "Justfile", ".justfile"},
	"task": {"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml"},
}

// shells are the programs whose -c argument is a command line, parsed in turn.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"}

// hookCover is what a project hook of command covers.
func (c *Config) hookCover(command string) hookCover {
	w := &coverWalk{c: c, seen: map[string]bool{}}
	for _, d := range hookFolders {
		w.folder(filepath.Join(c.Workspace, filepath.FromSlash(d)))
	}
	w.command(command, c.Workspace, 0)
	slices.SortFunc(w.files, func(a, b fileHash) int { return strings.Compare(a.Path, b.Path) })
	return hookCover{Files: w.files, Uncovered: w.notes}
}

// coverWalk gathers what one hook's item covers.
type coverWalk struct {
	c     *Config
	files []fileHash
	seen  map[string]bool // paths relative to the workspace already covered
	notes []string
}

func (w *coverWalk) note(format string, args ...any) {
	if n := fmt.Sprintf(format, args...); !slices.Contains(w.notes, n) {
		w.notes = append(w.notes, n)
	}
}

// command parses command line src, run in folder dir ("" when it cannot be told), and covers what it
// names.
func (w *coverWalk) command(src, dir string, depth int) {
	if depth > maxShellDepth {
		w.note("shell code nested more than %d deep", maxShellDepth)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.note("a command Warden cannot parse (%v), whose names it reads word by word", err)
		for _, word := range commandWords(src) {
			w.name(dir, word, false)
		}
		return
	}
	w.stmts(f.Stmts, &dir, depth)
}

func (w *coverWalk) stmts(list []*syntax.Stmt, dir *string, depth int) {
	for _, s := range list {
		w.stmt(s, dir, depth)
	}
}

// stmt covers what statement s names; dir is the folder it runs in, which a cd in it changes for the
// statements after it.
func (w *coverWalk) stmt(s *syntax.Stmt, dir *string, depth int) {
	if s == nil {
		return
	}
	for _, r := range s.Redirs {
		if r.Word != nil && r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc && r.Op != syntax.DplIn && r.Op != syntax.DplOut {
			w.word(r.Word, *dir, depth)
		}
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.heredocs(s, x, *dir, depth)
		w.call(x, dir, depth)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			// Each side of a pipe runs in a subshell: a cd in it stays there.
			l, r := *dir, *dir
			w.stmt(x.X, &l, depth)
			w.stmt(x.Y, &r, depth)
			return
		}
		w.stmt(x.X, dir, depth)
		w.stmt(x.Y, dir, depth)
	case *syntax.Block:
		w.stmts(x.Stmts, dir, depth)
	case *syntax.Subshell:
		sub := *dir
		w.stmts(x.Stmts, &sub, depth)
	case *syntax.IfClause:
		for c := x; c != nil; c = c.Else {
			w.stmts(c.Cond, dir, depth)
			w.stmts(c.Then, dir, depth)
		}
	case *syntax.WhileClause:
		w.stmts(x.Cond, dir, depth)
		w.stmts(x.Do, dir, depth)
	case *syntax.ForClause:
		w.stmts(x.Do, dir, depth)
	case *syntax.CaseClause:
		w.word(x.Word, *dir, depth)
		for _, it := range x.Items {
			w.stmts(it.Stmts, dir, depth)
		}
	case *syntax.FuncDecl:
		w.stmt(x.Body, dir, depth)
	case *syntax.TimeClause:
		w.stmt(x.Stmt, dir, depth)
	case *syntax.CoprocClause:
		w.stmt(x.Stmt, dir, depth)
	case nil:
	default:
		// [[ … ]], declare, let, (( … )): their words may name files too.
		syntax.Walk(x, func(n syntax.Node) bool {
			if wd, ok := n.(*syntax.Word); ok {
				w.word(wd, *dir, depth)
				return false
			}
			return true
		})
	}
}

// heredocs parses the here-documents of s given to a shell (bash <<'EOF' … EOF) as command lines.
func (w *coverWalk) heredocs(s *syntax.Stmt, x *syntax.CallExpr, dir string, depth int) {
	shell := slices.ContainsFunc(x.Args, func(a *syntax.Word) bool { return slices.Contains(shells, filepath.Base(a.Lit())) })
	for _, r := range s.Redirs {
		if !shell || r.Hdoc == nil || r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc {
			continue
		}
		if lit := r.Hdoc.Lit(); lit != "" || len(r.Hdoc.Parts) == 0 {
			w.command(lit, dir, depth+1)
		} else {
			w.note("a here-document with expansions given to a shell")
		}
	}
}

// call covers what one simple command names: each word, a shell's -c body, a task runner's task file,
// and a cd's folder for what follows.
func (w *coverWalk) call(x *syntax.CallExpr, dir *string, depth int) {
	for _, a := range x.Assigns {
		if a.Name != nil && loaderVars[a.Name.Value] {
			w.note("`%s`, which names code the programs the command starts load", a.Name.Value)
		}
		if a.Value != nil {
			w.word(a.Value, *dir, depth)
		}
	}
	args := make([]string, len(x.Args))
	known := make([]bool, len(x.Args))
	for i, a := range x.Args {
		args[i], known[i] = w.word(a, *dir, depth)
	}
	if len(args) == 0 || !known[0] {
		return
	}
	prog := filepath.Base(args[0])
	switch {
	case prog == "cd" || prog == "pushd":
		i := 1
		for i < len(args) && known[i] && strings.HasPrefix(args[i], "-") && args[i] != "-" {
			i++ // -P, -L, --
		}
		switch {
		case i >= len(args) || !known[i] || strings.HasPrefix(args[i], "~") || args[i] == "-":
			*dir = ""
		case filepath.IsAbs(args[i]):
			*dir = filepath.Clean(args[i])
		case *dir != "":
			*dir = filepath.Join(*dir, args[i])
		}
	case prog == "eval":
		if slices.Contains(known[1:], false) {
			w.note("an eval of words Warden cannot tell before it runs")
		} else {
			w.command(strings.Join(args[1:], " "), *dir, depth+1)
		}
	}
	// A shell or a task runner may come after a wrapper (env, timeout, exec, nice, xargs): every word
	// that names one counts, which at worst covers a file more.
	for i, a := range args {
		if !known[i] {
			continue
		}
		base := filepath.Base(a)
		if slices.Contains(shells, base) {
			w.shellC(base, args[i+1:], known[i+1:], *dir, depth)
		}
		if names, ok := taskFiles[base]; ok {
			w.tasks(base, names, args[i+1:], *dir)
		}
		if loadsCode(base) {
			w.note("what `%s` loads from the workspace as it runs (its modules, packages, includes and configuration)", base)
		}
	}
}

// shellC parses the command line a shell prog is given with -c among args, run in dir.
func (w *coverWalk) shellC(prog string, args []string, known []bool, dir string, depth int) {
	for i, a := range args {
		if !known[i] || !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return
		}
		if strings.HasPrefix(a, "--") || !strings.Contains(a, "c") {
			continue
		}
		switch {
		case i+1 >= len(args):
		case known[i+1]:
			w.command(args[i+1], dir, depth+1)
		default:
			w.note("a %s -c command Warden cannot tell before it runs", prog)
		}
		return
	}
}

// tasks covers the task file of task runner prog, run with args in dir: the folder it is told to change
// to (-C, --prefix, --cwd, -d), and beside a Makefile the *.mk files it may include.
func (w *coverWalk) tasks(prog string, names, args []string, dir string) {
	for i, a := range args {
		var d string
		switch {
		case (a == "-C" || a == "--directory" || a == "--prefix" || a == "--cwd" || a == "--dir" || a == "-d") && i+1 < len(args):
			d = args[i+1]
		case strings.HasPrefix(a, "--directory=") || strings.HasPrefix(a, "--prefix=") || strings.HasPrefix(a, "--cwd=") || strings.HasPrefix(a, "--dir="):
			_, d, _ = strings.Cut(a, "=")
		case prog != "task" && strings.HasPrefix(a, "-C") && len(a) > 2:
			d = a[2:]
		}
		if d != "" {
			if !filepath.IsAbs(d) && dir != "" {
				d = filepath.Join(dir, d)
			}
			if !filepath.IsAbs(d) {
				dir = ""
			} else {
				dir = d
			}
		}
	}
	if dir == "" {
		w.note("the task file of %s, in a folder Warden cannot tell before it runs", prog)
		return
	}
	for _, n := range names {
		w.file(filepath.Join(dir, n), n)
	}
	if prog == "make" || prog == "gmake" {
		mks, _ := filepath.Glob(filepath.Join(glob(dir), "*.mk"))
		for _, mk := range mks {
			w.file(mk, filepath.Base(mk))
		}
	}
}

// regexpEscaped matches a backslash and the character it escapes.
var regexpEscaped = regexp.MustCompile(`\\.`)

// glob is dir with the pattern characters in it escaped.
func glob(dir string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(dir)
}

// word covers what word wd names, run in dir, and returns its value as the shell would read it; false
// when that cannot be told before the command runs (another variable, a command's output), which the
// item then says.
func (w *coverWalk) word(wd *syntax.Word, dir string, depth int) (string, bool) {
	known, pattern := true, false
	for _, p := range wd.Parts {
		// Pattern characters count only unquoted and unescaped.
		if lit, ok := p.(*syntax.Lit); ok && strings.ContainsAny(regexpEscaped.ReplaceAllString(lit.Value, ""), "*?[") {
			pattern = true
		}
	}
	syntax.Walk(wd, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			name := ""
			if x.Param != nil {
				name = x.Param.Value
			}
			if x.Excl || x.Length || x.Width || x.Index != nil || x.Slice != nil || x.Repl != nil || x.Names != 0 ||
				name != "CLAUDE_PROJECT_DIR" && (name != "PWD" || dir == "") {
				known = false
			}
			return false
		case *syntax.CmdSubst:
			sub := dir
			w.stmts(x.Stmts, &sub, depth)
			known = false
			return false
		case *syntax.ProcSubst:
			sub := dir
			w.stmts(x.Stmts, &sub, depth)
			known = false
			return false
		case *syntax.ArithmExp, *syntax.ExtGlob, *syntax.BraceExp:
			known = false
			return false
		}
		return true
	})
	if !known {
		w.note("%s, a name Warden cannot tell before the command runs", quoteWord(wd))
		return "", false
	}
	env := expand.ListEnviron("CLAUDE_PROJECT_DIR="+w.c.Workspace, "PWD="+dir)
	// Fields, not Literal: it takes off the backslashes of an unquoted word as the shell does, and it
	// globs nothing, since no ReadDir is given.
	fields, err := expand.Fields(&expand.Config{Env: env, NoUnset: true}, wd)
	if err != nil {
		w.note("%s, a name Warden cannot tell before the command runs", quoteWord(wd))
		return "", false
	}
	for _, v := range fields {
		w.name(dir, v, pattern)
	}
	return strings.Join(fields, " "), true
}

// quoteWord is wd as written, for a note.
func quoteWord(wd *syntax.Word) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, wd)
	return "`" + b.String() + "`"
}

// name covers the file of the workspace that word v names, run in dir: the value after "=" of an
// option or assignment too.
func (w *coverWalk) name(dir, v string, pattern bool) {
	vs := []string{v}
	if _, after, ok := strings.Cut(v, "="); ok && after != "" {
		vs = append(vs, after)
	}
	for _, v := range vs {
		if v == "" || strings.HasPrefix(v, "-") {
			continue
		}
		if strings.HasPrefix(v, "~") {
			if strings.Contains(v, "/") {
				w.note("%s, outside the workspace", v)
			}
			continue
		}
		p := v
		if !filepath.IsAbs(p) {
			if dir == "" {
				if strings.Contains(v, "/") {
					w.note("%s, in a folder Warden cannot tell before the command runs", v)
				}
				continue
			}
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if _, ok := w.rel(p); !ok {
			if strings.Contains(v, "/") && !strings.Contains(v, "://") {
				w.note("%s, outside the workspace", v)
			}
			continue
		}
		if pattern {
			// Every file the pattern may match is under its fixed leading folder.
			d := p
			for strings.ContainsAny(d, "*?[") {
				d = filepath.Dir(d)
			}
			w.folderOf(d, v)
			continue
		}
		if w.file(p, v) {
			w.folderOf(filepath.Dir(p), v)
		}
	}
}

// folderOf covers folder d of a file the command names as v, unless it is the workspace's top folder.
func (w *coverWalk) folderOf(d, v string) {
	if d == w.c.Workspace {
		w.note("files beside %s in the workspace's top folder (only the files it names there are covered)", v)
		return
	}
	w.folder(d)
}

// rel is p relative to the workspace, and whether p is in it.
func (w *coverWalk) rel(p string) (string, bool) {
	rel, err := filepath.Rel(w.c.Workspace, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// file covers the file at p, named v by the command, and reports whether something stands there that is
// not a folder.
func (w *coverWalk) file(p, v string) bool {
	rel, ok := w.rel(p)
	if !ok || w.seen[rel] {
		return ok && w.seen[rel]
	}
	fh, ok := w.c.hashFile(p, rel)
	if !ok {
		return false
	}
	w.seen[rel] = true
	w.files = append(w.files, fh)
	if fh.Other != "" && fh.Other != "absent" {
		w.note("%s, which Warden does not read (covered by its size and time of change only)", v)
	}
	return fh.Other != "absent"
}

// folder covers every file under folder d of the workspace, bounded.
func (w *coverWalk) folder(d string) {
	rel, ok := w.rel(d)
	if !ok || w.seen[rel+"/"] {
		return
	}
	w.seen[rel+"/"] = true
	if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			w.note("%s, a link Warden does not follow", rel)
		}
		return
	}
	var paths []string
	tooMany, entries := false, 0
	_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		// Folders count too, so that a tree of empty folders is no longer a walk.
		if entries++; entries > 4*maxCoverFolderFiles || len(paths) == maxCoverFolderFiles && !e.IsDir() {
			tooMany = true
			return filepath.SkipAll
		}
		switch {
		case e.IsDir() && e.Name() == ".git":
			return filepath.SkipDir
		case e.IsDir():
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if tooMany {
		w.note("the files of %s, which holds more than %d (only those the command names are covered)", rel, maxCoverFolderFiles)
		return
	}
	budget := int64(maxCoverFolderBytes)
	for _, p := range paths {
		r, _ := w.rel(p)
		if w.seen[r] {
			continue
		}
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode().IsRegular() && fi.Size() > budget {
			w.seen[r] = true
			w.files = append(w.files, fileHash{Path: r, Other: fmt.Sprintf("%s %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())})
			w.note("%s, past what Warden hashes of a folder (covered by its size and time of change only)", r)
			continue
		}
		if err == nil {
			budget -= fi.Size()
		}
		w.file(p, r)
	}
}

// hashFile hashes the file at p, named rel, once a start; false when nothing but a folder stands there.
func (c *Config) hashFile(p, rel string) (fileHash, bool) {
	if fh, ok := c.hashed[p]; ok {
		return fh, fh.Path != ""
	}
	fh, ok := c.hashFileNow(p, rel)
	if c.hashed == nil {
		c.hashed = map[string]fileHash{}
	}
	c.hashed[p] = fh
	return fh, ok
}

// hashFileNow is hashFile without the record of this start.
func (c *Config) hashFileNow(p, rel string) (fileHash, bool) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileHash{Path: rel, Other: "absent"}, true
	case err != nil:
		return fileHash{Path: rel, Other: err.Error()}, true
	case fi.IsDir():
		return fileHash{}, false
	}
	other := fileHash{Path: rel, Other: fmt.Sprintf("%s %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())}
	f, err := c.opener.WithMaxSize(maxHookFileBytes).Open(p)
	if err != nil {
		return other, true
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHookFileBytes)); err != nil {
		return other, true
	}
	return fileHash{Path: rel, SHA256: hex.EncodeToString(h.Sum(nil))}, true
}

// commandWords splits a command line that does not parse where the shell would split it into words and
// commands, with the quotes taken off.
func commandWords(command string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range command {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote = r
		case strings.ContainsRune(" \t\n;|&()<>", r):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return words
}
