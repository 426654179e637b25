package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/warden-cli/warden/commands"
	"github.com/warden-cli/warden/safefile"
)

// Catalog is one session's skills. What it holds changes while the session runs (the project's skills
// join once the person trusts the workspace), so the skill tool and the TUI read it when they need it. It
// is safe for concurrent use.
type Catalog struct {
	o *safefile.Opener

	mu       sync.Mutex
	skills   []Skill
	warnings []string
}

// NewCatalog returns an empty catalog that reads through o, the session's opener.
func NewCatalog(o *safefile.Opener) *Catalog { return &Catalog{o: o} }

// Load reads the skills of dirs (Load) in place of what the catalog held, and returns the warnings.
func (c *Catalog) Load(dirs []Dir) []string {
	found, warnings := Load(c.o, dirs)
	c.mu.Lock()
	c.skills, c.warnings = found, warnings
	c.mu.Unlock()
	return warnings
}

// Warnings are those of the last Load.
func (c *Catalog) Warnings() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.warnings)
}

// List returns the skills, by name.
func (c *Catalog) List() []Skill {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.skills)
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Get returns the skill of that name.
func (c *Catalog) Get(name string) (Skill, bool) {
	for _, s := range c.List() {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Bounds of the file list a skill's instructions come with.
const (
	maxListed    = 100
	maxListDepth = 6
)

// Files lists the files of the skill's folder but its SKILL.md, relative to the folder, read through
// the catalog's opener: what the opener refuses (a link out of the workspace) is left out, and the
// notes say so. The list is bounded.
func (c *Catalog) Files(s Skill) (files, notes []string) {
	more := false
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		f, err := c.o.OpenDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				notes = append(notes, pathError(dir, err))
			}
			return
		}
		entries, _ := f.ReadDir(-1)
		f.Close()
		slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range entries {
			name, path := filepath.Join(rel, e.Name()), filepath.Join(dir, e.Name())
			switch {
			case e.Name() == ".git" || (rel == "" && e.Name() == "SKILL.md"):
			case len(files) == maxListed:
				more = true
				return
			case isDir(e, path) && depth < maxListDepth:
				walk(path, name, depth+1)
			case isDir(e, path):
				files = append(files, name+"/")
			default:
				files = append(files, name)
			}
		}
	}
	walk(s.Dir, "", 0)
	if more {
		notes = append(notes, fmt.Sprintf("the folder holds more than %d files; list the rest with glob", maxListed))
	}
	return files, notes
}

// Instructions is what the model is given for a skill: where it lives, its instructions and its files.
func (c *Catalog) Instructions(s Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Skill %q, from %s. Follow its instructions below; paths in them are relative to %s.\n\n", s.Name, filepath.Join(s.Dir, "SKILL.md"), s.Dir)
	b.WriteString(s.Body)
	b.WriteString("\n")
	files, notes := c.Files(s)
	if len(files) > 0 {
		fmt.Fprintf(&b, "\nFiles in %s (read them with read_file when the instructions call for them):\n", s.Dir)
		for _, f := range files {
			b.WriteString("- " + f + "\n")
		}
	} else {
		b.WriteString("\nThe skill's folder holds no other file.\n")
	}
	for _, n := range notes {
		b.WriteString("(" + n + ")\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// Request is what is sent when the person runs a skill with /NAME ARGS: the skill's instructions, with
// what was typed after the name put in as a custom command's arguments are ($ARGUMENTS, $1 … $9, or at
// the end of the instructions when they use neither).
func (c *Catalog) Request(s Skill, args string) string {
	s.Body = commands.Command{Body: s.Body}.Expand(args)
	return "I am running the skill " + s.Name + ".\n\n" + c.Instructions(s)
}
