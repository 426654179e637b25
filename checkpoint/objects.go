package checkpoint

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// ID names a file's content: git's blob id (SHA-1 of "blob SIZE\0" and the bytes), so that content the
// person's own repository already holds can be borrowed from it instead of copied.
type ID [20]byte

func (id ID) String() string { return hex.EncodeToString(id[:]) }

// IsZero reports whether id names nothing.
func (id ID) IsZero() bool { return id == ID{} }

// ParseID reads a hex id.
func ParseID(s string) (ID, error) {
	var id ID
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(id) {
		return id, fmt.Errorf("%q is not a content id", s)
	}
	copy(id[:], b)
	return id, nil
}

// MarshalText writes the id in hex, so that records carry it as a string.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads a hex id.
func (id *ID) UnmarshalText(b []byte) error {
	v, err := ParseID(string(b))
	*id = v
	return err
}

// blobID computes the id of content.
func blobID(content []byte) ID {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	var id ID
	copy(id[:], h.Sum(nil))
	return id
}

// objects is the content store of one workspace: each content once, zlib-compressed, in
// objects/xx/yyyy... by id. Writing is atomic (a temporary file renamed into place), so a crash leaves
// either the whole object or none, and two Wardens writing the same content do not disturb each other.
type objects struct {
	dir string
	// borrow reads content the store does not hold from elsewhere (the person's git objects); nil
	// borrows nothing.
	borrow func(ID) ([]byte, bool)
}

var errMissing = errors.New("content not saved")

func (o *objects) path(id ID) string {
	h := id.String()
	return filepath.Join(o.dir, h[:2], h[2:])
}

// has reports whether the store holds id itself.
func (o *objects) has(id ID) bool {
	_, err := os.Lstat(o.path(id))
	return err == nil
}

// put stores content under id (its blobID), unless it is there already. It returns how many bytes the
// store grew by.
func (o *objects) put(id ID, content []byte) (int64, error) {
	p := o.path(id)
	if _, err := os.Lstat(p); err == nil {
		return 0, nil
	}
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	zw.Write(content)
	if err := zw.Close(); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return 0, fmt.Errorf("saving content: %w", err)
	}
	tmp := p + ".tmp-" + randomSuffix()
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("saving content: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("saving content: %w", err)
	}
	return int64(buf.Len()), nil
}

// get returns the content of id, from the store or borrowed. It checks what it read against the id, so
// a damaged object is reported rather than restored.
func (o *objects) get(id ID) ([]byte, error) {
	f, err := os.Open(o.path(id))
	if errors.Is(err, os.ErrNotExist) {
		if o.borrow != nil {
			if b, ok := o.borrow(id); ok && blobID(b) == id {
				return b, nil
			}
		}
		return nil, errMissing
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading saved content %s: %w", id, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("reading saved content %s: %w", id, err)
	}
	if blobID(b) != id {
		return nil, fmt.Errorf("saved content %s is damaged", id)
	}
	return b, nil
}

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
