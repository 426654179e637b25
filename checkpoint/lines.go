package checkpoint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Lines are counted for text files only, the way git tells text from binary (a NUL byte near the
// start), and only within a budget: a call that rewrote a hundred megabytes is reported without counts
// rather than holding the call up.
const (
	countFileLimit  = 4 << 20
	countTotalLimit = 64 << 20
)

func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// countLines fills in the line counts of changes, reading their content from the store.
func countLines(changes []Change, store *objects) {
	budget := int64(countTotalLimit)
	read := func(s *State) ([]byte, bool) {
		if !s.IsFile() || s.Skipped || s.ID.IsZero() || s.Size > countFileLimit || s.Size > budget {
			return nil, false
		}
		b, err := store.get(s.ID)
		if err != nil {
			return nil, false
		}
		budget -= int64(len(b))
		return b, true
	}
	for i := range changes {
		c := &changes[i]
		var old, new []byte
		var okOld, okNew bool
		if c.Old.IsFile() {
			if old, okOld = read(c.Old); !okOld {
				continue
			}
		}
		if c.New.IsFile() {
			if new, okNew = read(c.New); !okNew {
				continue
			}
		}
		if !okOld && !okNew {
			continue
		}
		if (okOld && isBinary(old)) || (okNew && isBinary(new)) {
			c.Binary = true
			continue
		}
		switch {
		case !okOld:
			c.Added = lineCount(string(new))
		case !okNew:
			c.Removed = lineCount(string(old))
		default:
			for _, e := range udiff.Lines(string(old), string(new)) {
				c.Removed += lineCount(string(old[e.Start:e.End]))
				c.Added += lineCount(e.New)
			}
		}
	}
}

// Diff shows one change to people: a unified diff of a text file, or a line saying what changed when
// there are no lines to compare (a directory, a link, a binary file, one over the size cap).
func (c *Checkpoints) Diff(ch Change) (string, error) {
	path := ch.Path
	switch {
	case ch.IsDir():
		switch {
		case ch.Old == nil:
			return "directory " + path + "/ created\n", nil
		case ch.New == nil:
			return "directory " + path + "/ removed\n", nil
		}
		return fmt.Sprintf("directory %s/: mode %s → %s\n", path, ch.Old.FileMode().Perm(), ch.New.FileMode().Perm()), nil
	case ch.Old.IsLink() || ch.New.IsLink():
		var b strings.Builder
		if ch.Old.IsLink() {
			fmt.Fprintf(&b, "-link %s → %s\n", path, ch.Old.Link)
		}
		if ch.New.IsLink() {
			fmt.Fprintf(&b, "+link %s → %s\n", path, ch.New.Link)
		}
		return b.String(), nil
	case ch.Old.IsSpecial() || ch.New.IsSpecial():
		var b strings.Builder
		if ch.Old != nil {
			fmt.Fprintf(&b, "-%s %s\n", ch.Old.kind(), path)
		}
		if ch.New != nil {
			fmt.Fprintf(&b, "+%s %s\n", ch.New.kind(), path)
		}
		return b.String(), nil
	}
	read := func(s *State) (string, string, error) {
		if !s.IsFile() {
			return "", "", nil
		}
		if why := s.notSaved(); why != "" {
			return "", why + ", not saved", nil
		}
		b, err := c.tree.store.get(s.ID)
		if err != nil {
			return "", "", err
		}
		if isBinary(b) {
			return "", fmt.Sprintf("binary, %s", byteSize(int64(len(b)))), nil
		}
		return string(b), "", nil
	}
	old, oldNote, err := read(ch.Old)
	if err != nil {
		return "", fmt.Errorf("%s: the content before: %w", path, err)
	}
	new, newNote, err := read(ch.New)
	if err != nil {
		return "", fmt.Errorf("%s: the content after: %w", path, err)
	}
	var head string
	if ch.Status == ModeOnly || (ch.Old != nil && ch.New != nil && ch.Old.Mode != ch.New.Mode) {
		head = fmt.Sprintf("mode %s → %s\n", ch.Old.FileMode().Perm(), ch.New.FileMode().Perm())
	}
	if oldNote != "" || newNote != "" {
		return head + fmt.Sprintf("%s: %s\n", path, strings.Join(slices.DeleteFunc([]string{oldNote, newNote}, func(s string) bool { return s == "" }), "; ")), nil
	}
	from, to := "a/"+path, "b/"+path
	if ch.Old == nil {
		from = "/dev/null"
	}
	if ch.New == nil {
		to = "/dev/null"
	}
	return head + udiff.Unified(from, to, old, new), nil
}
