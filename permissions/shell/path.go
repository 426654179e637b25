package shell

import (
	"path/filepath"
	"slices"
	"strings"
)

// PATH as bash searches it: which directories it holds, as written and resolved, and which of them a
// program found there cannot be trusted from. Resolving every directory costs more than judging a
// command, and a session seldom changes PATH, so both answers are remembered by the value of PATH.

// PathEntry is one directory of PATH as written. Risky is set when a program found there is not the
// system's tool of its name: the directory is relative (resolved against wherever the command runs) or
// lies in the workspace or an additional directory.
type PathEntry struct {
	Dir   string
	Risky bool
}

// PathEntries are the directories of the PATH commands inherit, in order.
func (c *State) PathEntries() []PathEntry {
	path, _ := c.LookupEnv("PATH")
	key := path + "\x00" + strings.Join(c.Roots(), "\x00")
	if dirs, ok := c.Ctx.Memory.pathEntries.Get(key); ok {
		return dirs
	}
	var dirs []PathEntry
	for _, d := range filepath.SplitList(path) {
		pd := PathEntry{Dir: d}
		if d == "" || !filepath.IsAbs(d) {
			pd.Risky = true
		} else {
			d = ResolvePath("/", d, "")
			for _, r := range c.Roots() {
				if Within(r, d) {
					pd.Risky = true
				}
			}
		}
		dirs = append(dirs, pd)
	}
	c.Ctx.Memory.pathEntries.Put(key, dirs)
	return dirs
}

// PathDirs are the directories of the PATH commands inherit, as written and resolved.
func (c *State) PathDirs() map[string]bool {
	v, _ := c.LookupEnv("PATH")
	if dirs, ok := c.Ctx.Memory.pathDirs.Get(v); ok {
		return dirs
	}
	dirs := map[string]bool{}
	for _, d := range filepath.SplitList(v) {
		if filepath.IsAbs(d) {
			dirs[filepath.Clean(d)] = true
			dirs[ResolvePath("/", d, "")] = true
		}
	}
	c.Ctx.Memory.pathDirs.Put(v, dirs)
	return dirs
}

// SystemBinDirs are the directories whose programs count as the system tool of the same name, in the
// order a usual PATH has them: on a normal system only root can write them, so /usr/bin/cat is cat.
var SystemBinDirs = []string{"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"}

// SystemBinDir reports whether dir (clean, absolute) is one of the system's program directories, whose
// programs are the system tools of their names. Anything else (./cat, bin/cat, /tmp/x/cat) may be any
// program.
func SystemBinDir(dir string) bool { return slices.Contains(SystemBinDirs, dir) }
