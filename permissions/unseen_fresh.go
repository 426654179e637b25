package permissions

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// What one part of a command writes, another may run or open: `printf 'rm -rf x' > s.sh; bash s.sh`
// runs code Warden never saw, and `ln -s secrets/k x; cat x` reads a file whose name no rule covers.
// Rules are checked against the file system as it is before the command runs, so a path the same command
// writes or links first is unseen. Once every part is known, freshPaths compares what each part runs and
// opens with what the others write.
//
// These marks leave the part's read-only judgement as it was: without deny or ask rules they change
// nothing, and the engine looks at them in every part.

// neverLinks are the writers that only ever write or remove regular files and directories, never a link.
var neverLinks = map[string]bool{
	"tee": true, "touch": true, "mkdir": true, "truncate": true, "rm": true, "rmdir": true, "unlink": true,
	"shred": true, "chmod": true, "chown": true, "chgrp": true, "dd": true, "install": true,
}

// partWrites are the paths one part may write: known is false when some target is only known at run
// time; links is set when the part may make links (ln, cp, mv, an archive, any program Warden does not
// model).
type partWrites struct {
	paths []string
	known bool
	links bool
	// meta is set for a writer whose writes make no code (noCodeWriters).
	meta bool
	// sure is how many of paths the part surely writes, and code how many it may write code in (those
	// and the directories it writes into); the rest a program it is given them to may write, and count
	// only for links and for code kept for later.
	sure, code int
	// real are paths with their links resolved, computed when first needed.
	real []string
}

func (c *classifier) writesOf(p *Part) partWrites {
	w := partWrites{known: true}
	if p.ReadOnly {
		return w
	}
	for _, path := range p.Writes {
		if !filepath.IsAbs(path) {
			w.known = false
			continue
		}
		w.paths = append(w.paths, path)
	}
	w.sure = len(w.paths)
	w.paths = append(w.paths, p.writesInto...)
	w.code = len(w.paths)
	w.paths = append(w.paths, p.handedWrites...)
	prog := ""
	if len(p.Args) > 0 {
		prog = filepath.Base(p.Args[0])
	}
	redirOnly := len(p.Writes) == len(p.redirWrites) && len(p.handedWrites) == 0
	w.links = len(w.paths) > 0 && !redirOnly && !neverLinks[prog] && (prog != "cp" || cpKeepsLinks(p.Args))
	w.meta = noCodeWriters[prog] && len(p.redirWrites) == 0
	return w
}

// noCodeWriters change a file's mode, owner or times, make an empty file or directory, or remove one:
// what they leave is no code to run.
var noCodeWriters = map[string]bool{"chmod": true, "chown": true, "chgrp": true, "touch": true, "mkdir": true,
	"rm": true, "rmdir": true, "unlink": true}

// cpKeepsLinks reports whether cp may copy a link as a link, or make one (-r, -a, -P, -d, -s, -l...):
// without options it copies what a link points to, whose path is judged as a read.
func cpKeepsLinks(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "-f", "-i", "-n", "-v", "-p", "-u", "--force", "--interactive", "--no-clobber", "--verbose", "--update":
			continue
		}
		if strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// freshPaths marks the parts that run or open what another part of the same command writes, and those
// that run a file that is not there before the command runs.
func (c *classifier) freshPaths() {
	var writes []partWrites
	any := false
	for i := range c.parts {
		w := c.writesOf(&c.parts[i])
		writes = append(writes, w)
		any = any || len(w.paths) > 0 || !w.known
	}
	for i := range c.parts {
		p := &c.parts[i]
		for _, run := range p.runs {
			if !exists(run) {
				p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs `%s`, which is not there before the command runs", c.shownPath(run)))
			}
		}
		for _, list := range [][]string{p.inputs, p.runsBelow} {
			for _, path := range list {
				if !filepath.IsAbs(path) {
					p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs code from `%s`, in a directory Warden lost track of", path))
				}
			}
		}
	}
	if !any {
		return
	}
	c.afterSource(writes)
	var pathDirs map[string]bool
	for i := range c.parts {
		p := &c.parts[i]
		for k, path := range writes[i].paths {
			if k >= writes[i].code && p.unmodelled != "" {
				// A program Warden does not model may do anything with what it is given; that it is
				// not modelled is the reason it asks.
				break
			}
			if pathDirs == nil {
				pathDirs = c.pathDirs()
			}
			c.laterCode(p, path, pathDirs, k < writes[i].sure)
		}
		for _, run := range append(p.runs, p.inputs...) {
			if j, sure := c.writer(writes, i, run, false); j >= 0 {
				verb := "writes"
				if !sure {
					verb = "may write"
				}
				p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs `%s`, which this same command %s first", c.shownPath(run), verb))
			}
		}
		for _, dir := range p.runsBelow {
			if j := c.writerBelow(writes, i, dir); j >= 0 {
				p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs the code below `%s`, where this same command writes first", c.shownPath(dir)))
			}
		}
		for _, pattern := range p.runGlobs {
			if j := c.writerMatching(writes, i, pattern); j >= 0 {
				p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs `%s`, which may match what this same command writes first", c.shownPath(pattern)))
			}
		}
		for _, list := range [][]string{p.Reads, p.Writes, p.handedReads, p.handedWrites} {
			for _, path := range list {
				if !filepath.IsAbs(path) {
					continue
				}
				if j, _ := c.writer(writes, i, path, true); j >= 0 {
					p.unseenOnly(unseenFreshLink, fmt.Sprintf("uses `%s`, which this same command may make a link first", c.shownPath(path)))
				}
			}
		}
	}
}

// writer returns a part other than self that writes path or a directory above it (for links, one that may
// make a link there), and whether it surely does; -1 when none does.
func (c *classifier) writer(writes []partWrites, self int, path string, links bool) (int, bool) {
	real := ""
	for j := range writes {
		w := &writes[j]
		if j == self || links && !w.links || !links && w.meta {
			continue
		}
		if !w.known && !links {
			return j, false
		}
		paths := w.paths
		if !links {
			paths = paths[:w.code]
		}
		if len(paths) == 0 {
			continue
		}
		for _, wp := range paths {
			if within(wp, path) {
				return j, true
			}
		}
		if real == "" {
			real = c.resolved(path)
		}
		if w.real == nil {
			for _, wp := range w.paths {
				w.real = append(w.real, c.resolved(wp))
			}
		}
		for k, wp := range paths {
			if within(wp, path) || within(wp, real) || within(w.real[k], real) {
				return j, true
			}
		}
	}
	return -1, false
}

// afterSource marks, in a command that writes files, the programs run by name after a file is sourced:
// the file may have put any directory first on PATH (a virtualenv's activate does), so the program run
// may be one the command wrote.
func (c *classifier) afterSource(writes []partWrites) {
	writing := false
	for _, w := range writes {
		writing = writing || !w.meta && (w.code > 0 || !w.known)
	}
	if !writing {
		return
	}
	sourced := ""
	for i := range c.parts {
		p := &c.parts[i]
		if len(p.Layers) == 0 || len(p.Layers[0]) == 0 {
			continue
		}
		if name := p.Layers[0][0]; sourced != "" && !strings.Contains(name, "/") && !bashBuiltins[name] {
			p.unseenOnly(unseenWrittenCode, fmt.Sprintf("runs `%s` after `%s`, which may change where programs are found, in a command that writes files", name, sourced))
		}
		if name := p.Layers[0][0]; name == "source" || name == "." {
			sourced = p.Text
		}
	}
}

// writerBelow returns a part other than self that writes code below dir (or somewhere only known at run
// time), or -1.
func (c *classifier) writerBelow(writes []partWrites, self int, dir string) int {
	realDir := ""
	for j := range writes {
		w := &writes[j]
		if j == self || w.meta {
			continue
		}
		if !w.known {
			return j
		}
		for _, wp := range w.paths[:w.code] {
			if within(dir, wp) {
				return j
			}
			if realDir == "" {
				realDir = c.resolved(dir)
			}
			if within(realDir, c.resolved(wp)) {
				return j
			}
		}
	}
	return -1
}

// writerMatching returns a part other than self that writes a path the pattern matches (or somewhere
// only known at run time), or -1.
func (c *classifier) writerMatching(writes []partWrites, self int, pattern string) int {
	for j := range writes {
		w := &writes[j]
		if j == self || w.meta {
			continue
		}
		if !w.known {
			return j
		}
		for _, wp := range w.paths[:w.code] {
			for p := wp; ; p = filepath.Dir(p) {
				if ok, _ := filepath.Match(pattern, p); ok {
					return j
				}
				if p == "/" || p == "." {
					break
				}
			}
		}
	}
	return -1
}

// laterCode marks a write that leaves code for later commands to run: a program in a directory on PATH,
// git's configuration and hooks.
func (c *classifier) laterCode(p *Part, path string, pathDirs map[string]bool, sure bool) {
	verb := "writes"
	if !sure {
		verb = "may write"
	}
	if pathDirs[filepath.Dir(path)] || pathDirs[path] {
		p.unseenOnly(unseenWrittenCode, fmt.Sprintf("%s `%s`, in a directory where commands find their programs", verb, c.shownPath(path)))
		return
	}
	slashed := filepath.ToSlash(path) + "/"
	if i := strings.Index(slashed, "/.git/"); i >= 0 {
		rest := slashed[i+len("/.git/"):]
		if rest == "" || strings.HasPrefix(rest, "config") || strings.HasPrefix(rest, "hooks/") || rest == "hooks/" ||
			strings.HasPrefix(rest, "info/") {
			p.unseenOnly(unseenLaterCode, fmt.Sprintf("%s `%s`, which later git commands obey", verb, c.shownPath(path)))
		}
		return
	}
	for _, v := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"} {
		if f, ok := c.lookupEnv(v); ok && f != "" && within(f, path) {
			p.unseenOnly(unseenLaterCode, fmt.Sprintf("%s `%s`, which later git commands obey", verb, c.shownPath(path)))
			return
		}
	}
	if x, ok := c.lookupEnv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(x) && within(filepath.Join(x, "git"), path) {
		p.unseenOnly(unseenLaterCode, fmt.Sprintf("%s `%s`, which later git commands obey", verb, c.shownPath(path)))
		return
	}
	h := c.ctx.Home
	if h == "" || filepath.Dir(path) != h && !within(filepath.Join(h, ".config", "git"), path) {
		return
	}
	switch name := filepath.Base(path); {
	case name == ".gitconfig" || within(filepath.Join(h, ".config", "git"), path):
		p.unseenOnly(unseenLaterCode, fmt.Sprintf("%s `%s`, which later git commands obey", verb, c.shownPath(path)))
	case shellStartup[name]:
		p.unseenOnly(unseenLaterCode, fmt.Sprintf("%s `%s`, which shells run when they start", verb, c.shownPath(path)))
	}
}

// shellStartup are the files in the home directory a login or interactive shell runs.
var shellStartup = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".profile": true, ".bash_logout": true,
	".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".inputrc": true,
}

// pathDirs are the directories of the PATH commands inherit, as written and resolved.
func (c *classifier) pathDirs() map[string]bool {
	v, _ := c.lookupEnv("PATH")
	if dirs, ok := pathDirCache.Load(v); ok {
		return dirs.(map[string]bool)
	}
	dirs := map[string]bool{}
	for _, d := range filepath.SplitList(v) {
		if filepath.IsAbs(d) {
			dirs[filepath.Clean(d)] = true
			dirs[ResolvePath("/", d, "")] = true
		}
	}
	pathDirCache.Store(v, dirs)
	return dirs
}

// pathDirCache keeps pathDirs by the value of PATH, which a session seldom changes: resolving its
// directories costs more than judging a command.
var pathDirCache sync.Map

// unseenOnly marks the part as doing something of kind k that Warden cannot see, leaving its read-only
// judgement as it is: the engine looks at such marks only while deny or ask rules are in force.
func (p *Part) unseenOnly(k unseenKind, why string) {
	if p.unseen == 0 {
		p.unseenWhy = why
	}
	p.unseen |= k
}
