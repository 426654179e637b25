package checkpoint

import (
	"fmt"
	"io/fs"
	"strings"

	"golang.org/x/sys/unix"
)

// Change statuses, as `warden history --json` gives them (DESIGN.md §7).
const (
	Added    = "added"
	Modified = "modified"
	Deleted  = "deleted"
	// ModeOnly is a change of permissions alone.
	ModeOnly = "mode"
	// Link is a symbolic link created, removed, retargeted, or put in place of a file.
	Link = "link"
)

// State is what one path held at a snapshot: enough to show it and to put it back.
type State struct {
	// Mode is the Unix mode: type bits and permissions.
	Mode uint32 `json:"mode"`
	// ID names a regular file's saved content.
	ID ID `json:"id,omitzero"`
	// Link is a symbolic link's target.
	Link string `json:"link,omitempty"`
	Size int64  `json:"size,omitempty"`
	// Skipped says the file's content was not saved, so it cannot be restored: it was over the size
	// cap, or, with Unreadable, Warden was not allowed to read it.
	Skipped    bool `json:"skipped,omitempty"`
	Unreadable bool `json:"unreadable,omitempty"`
}

// notSaved says why a file's content was not saved, or "" when it was.
func (s *State) notSaved() string {
	switch {
	case !s.IsFile() || !s.Skipped:
		return ""
	case s.Unreadable:
		return "could not be read"
	}
	return "over the size cap"
}

// IsDir reports whether the state is a directory.
func (s *State) IsDir() bool { return s != nil && s.Mode&unix.S_IFMT == unix.S_IFDIR }

// IsLink reports whether the state is a symbolic link.
func (s *State) IsLink() bool { return s != nil && s.Mode&unix.S_IFMT == unix.S_IFLNK }

// IsFile reports whether the state is a regular file.
func (s *State) IsFile() bool { return s != nil && s.Mode&unix.S_IFMT == unix.S_IFREG }

// IsSpecial reports whether the state is a FIFO, a socket or a device: there, but with no content to
// save or put back.
func (s *State) IsSpecial() bool {
	return s != nil && !s.IsFile() && !s.IsDir() && !s.IsLink()
}

// kind names the type of a state for people.
func (s *State) kind() string {
	switch s.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "file"
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFLNK:
		return "link"
	case unix.S_IFIFO:
		return "FIFO"
	case unix.S_IFSOCK:
		return "socket"
	}
	return "device"
}

// FileMode is the state's mode as Go spells it.
func (s *State) FileMode() fs.FileMode {
	m := fs.FileMode(s.Mode & 0o777)
	if s.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	switch {
	case s.IsDir():
		m |= fs.ModeDir
	case s.IsLink():
		m |= fs.ModeSymlink
	}
	return m
}

// same reports whether two states hold the same thing (a file's timestamps do not count).
func (s *State) same(o *State) bool {
	switch {
	case s == nil || o == nil:
		return s == o
	case s.Mode != o.Mode:
		return false
	case s.IsFile():
		if s.Skipped || o.Skipped {
			return false
		}
		return s.ID == o.ID
	case s.IsLink():
		return s.Link == o.Link
	}
	return true
}

func (e *entry) state() *State {
	if e == nil {
		return nil
	}
	return &State{Mode: e.mode, ID: e.id, Link: e.link, Size: e.size, Skipped: e.skipped, Unreadable: e.unreadable}
}

// Change is what happened to one path between two snapshots.
type Change struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	// Added and Removed count lines of a text file (a deleted file's lines are all removed).
	Added   int `json:"added_lines"`
	Removed int `json:"removed_lines"`
	// Binary says the content is not text, so no lines are counted.
	Binary bool `json:"binary,omitempty"`
	// Old and New are the path's state before and after; nil where it did not exist.
	Old *State `json:"old,omitempty"`
	New *State `json:"new,omitempty"`
}

// IsDir reports whether the change is to a directory.
func (c Change) IsDir() bool { return c.Old.IsDir() || c.New.IsDir() }

// String is one line for people: "M src/main.go (+3 −1)".
func (c Change) String() string {
	letter := map[string]string{Added: "A", Modified: "M", Deleted: "D", ModeOnly: "T", Link: "L"}[c.Status]
	path := c.Path
	if c.IsDir() {
		path += "/"
	}
	s := letter + " " + path
	if c.Status == ModeOnly && c.Old != nil && c.New != nil {
		s += fmt.Sprintf(" (%s → %s)", c.Old.FileMode().Perm(), c.New.FileMode().Perm())
	} else if c.Status == Link && c.New.IsLink() {
		s += " → " + c.New.Link
	} else if c.Binary {
		s += " (binary)"
	} else if c.Added > 0 || c.Removed > 0 {
		s += fmt.Sprintf(" (+%d −%d)", c.Added, c.Removed)
	}
	last := c.New
	if last == nil {
		last = c.Old
	}
	if why := last.notSaved(); why != "" {
		s += " [" + why + ": not saved]"
	}
	return s
}

// classify fills in a change's status from its states.
func classify(path string, old, new *State) (Change, bool) {
	if old.same(new) {
		return Change{}, false
	}
	c := Change{Path: path, Old: old, New: new}
	switch {
	case old == nil:
		c.Status = Added
		if new.IsLink() {
			c.Status = Link
		}
	case new == nil:
		c.Status = Deleted
		if old.IsLink() {
			c.Status = Link
		}
	case old.IsLink() || new.IsLink():
		c.Status = Link
	case old.Mode&unix.S_IFMT != new.Mode&unix.S_IFMT:
		c.Status = Modified
	case old.IsFile() && (old.ID != new.ID || old.Skipped || new.Skipped):
		c.Status = Modified
	default:
		c.Status = ModeOnly
	}
	return c, true
}

// Summary is what a list of changes did, in a few words: "changed 3 files (+12 −4)".
func Summary(changes []Change) string {
	files, dirs, added, removed := 0, 0, 0, 0
	for _, c := range Shown(changes) {
		if c.IsDir() {
			dirs++
			continue
		}
		files++
		added += c.Added
		removed += c.Removed
	}
	var parts []string
	if files > 0 {
		s := fmt.Sprintf("changed %d %s", files, plural(files, "file", "files"))
		if added > 0 || removed > 0 {
			s += fmt.Sprintf(" (+%d −%d)", added, removed)
		}
		parts = append(parts, s)
	}
	if dirs > 0 {
		s := fmt.Sprintf("%d %s", dirs, plural(dirs, "directory", "directories"))
		if files == 0 {
			s = "changed " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Shown is the changes a person needs to see: a directory that was added or removed is listed only when
// nothing below it is (an empty directory), since its files say it already.
func Shown(changes []Change) []Change {
	parents := map[string]bool{}
	for _, c := range changes {
		for p := c.Path; ; {
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
			if parents[p] {
				break
			}
			parents[p] = true
		}
	}
	var out []Change
	for _, c := range changes {
		if c.IsDir() && (c.Old == nil || c.New == nil) && parents[c.Path] {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Brief is a change as scripts read it (`warden history --json`, DESIGN.md §7).
type Brief struct {
	// Path is relative to the workspace; a directory's ends in "/".
	Path    string `json:"path"`
	Status  string `json:"status"`
	Added   int    `json:"added_lines"`
	Removed int    `json:"removed_lines"`
	Binary  bool   `json:"binary,omitempty"`
	// NotSaved says the file was over the size cap, so its content was not saved.
	NotSaved bool `json:"not_saved,omitempty"`
}

// Briefs is the changes a person needs to see (Shown), as scripts read them; never nil.
func Briefs(changes []Change) []Brief {
	out := []Brief{}
	for _, c := range Shown(changes) {
		b := Brief{Path: c.Path, Status: c.Status, Added: c.Added, Removed: c.Removed, Binary: c.Binary,
			NotSaved: (c.New != nil && c.New.Skipped) || (c.New == nil && c.Old != nil && c.Old.Skipped)}
		if c.IsDir() {
			b.Path += "/"
		}
		out = append(out, b)
	}
	return out
}
