package checkpoint

import (
	"bytes"
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
