package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/safefile"
)

// Index is what a repository's index lists.
type Index struct {
	// Paths are the tracked files, relative to the work tree's top, in the index's order. An unmerged
	// path is listed once per stage.
	Paths []string
	// Gitlinks are the submodules' paths.
	Gitlinks []string
	// Entries are the entries themselves, in the index's order: Paths with their modes, stages and flags.
	// A path is as the index has it, which may be one git would refuse to check out (see ValidPath).
	Entries []IndexEntry
	// ids are the entries' object names, sorted.
	ids []oid
}

// IndexEntry is one entry of the index.
type IndexEntry struct {
	Path string
	// Mode is git's: 0100644 or 0100755 for a file, 0120000 for a symbolic link, 0160000 for a gitlink.
	Mode uint32
	// Stage is 0, or 1 to 3 for the sides of an unmerged path.
	Stage int
	// SkipWorktree is set for a path a sparse checkout leaves out of the work tree.
	SkipWorktree bool
	// ID is the object name of the entry's content.
	ID [20]byte
}

// HasObject reports whether an entry's object name starts with the hexadecimal prefix.
func (idx Index) HasObject(prefix string) bool { return hasPrefix(idx.ids, prefix) }

// maxIndexSize bounds the index file read; a bigger one is not read.
const maxIndexSize = 64 << 20

// cachedIndex is an index the Reader parsed, with the identity of its file.
type cachedIndex struct {
	id fileID
	// by is the Opener that let the file through (see loader.parsed).
	by  *safefile.Opener
	idx Index
	ok  bool
}

// ReadIndex lists what the index of the repository r tracks, opening it through o (nil: with links
// kept inside the repository's directories). ok is false when the index cannot be read in full this way:
// a SHA-256 repository, a split or sparse index, an extension git itself must understand that Warden
// does not, an entry git would refuse to read or a damaged or huge file, and when o refuses the file. A
// repository with no index yet tracks nothing. An unchanged index is parsed once per Reader.
func (rd *Reader) ReadIndex(r Repo, o *safefile.Opener) (Index, bool) {
	if r.GitDir == "" {
		return Index{}, false
	}
	path := filepath.Join(r.GitDir, "index")
	key := rd.opener(r, o)
	if id, ok := identify(path); ok {
		if c, ok := rd.indexes.Get(path); ok && c.id == id && c.by == key {
			return c.idx, c.ok
		}
	}
	f, err := key.WithMaxSize(maxIndexSize).Open(path)
	if err != nil {
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			return Index{}, true
		}
		return Index{}, false
	}
	defer f.Close()
	id, _ := fileIDOf(f)
	if c, ok := rd.indexes.Get(path); ok && c.id == id {
		// Parsed before through another Opener: o has just let the same file through.
		return c.idx, c.ok
	}
	c := &cachedIndex{id: id, by: key}
	if !rd.sha256Repo(r) {
		if data, err := io.ReadAll(io.LimitReader(f, maxIndexSize)); err == nil {
			c.idx, c.ok = parseIndex(data)
		}
	}
	rd.indexes.Put(path, c)
	return c.idx, c.ok
}

// sha256Repo reports whether the repository may use SHA-256 object names, which this package does not
// read.
func (rd *Reader) sha256Repo(r Repo) bool {
	o := rd.Opener(r)
	l := &loader{rd: rd, repo: r, env: OSEnv, open: o, key: o}
	pf, ok := l.parsed(filepath.Join(r.CommonDir, "config"))
	if !ok {
		return false
	}
	if pf.err != "" {
		return true // unreadable: not known to be SHA-1
	}
	for _, e := range pf.entries {
		if e.Key == "extensions.objectformat" && !strings.EqualFold(e.Value, "sha1") {
			return true
		}
	}
	return false
}

// parseIndex reads an index file of version 2, 3 or 4 (the entries' layout is on walkIndex).
// Extensions and a 20-byte checksum follow the entries.
func parseIndex(data []byte) (Index, bool) {
	var idx Index
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return idx, false
	}
	if version := binary.BigEndian.Uint32(data[4:8]); version < 2 || version > 4 {
		return idx, false
	}
	entriesEnd := 0
	sparse := false
	ok := walkIndex(data, func(path string, raw []byte, flags, extended uint16) {
		mode := binary.BigEndian.Uint32(raw[24:28])
		var id oid
		copy(id[:], raw[40:60])
		idx.ids = append(idx.ids, id)
		switch mode & 0o170000 {
		case 0o040000:
			// A sparse index: a directory stands for every file below it.
			sparse = true
		case 0o160000:
			idx.Gitlinks = append(idx.Gitlinks, path)
		}
		idx.Paths = append(idx.Paths, path)
		idx.Entries = append(idx.Entries, IndexEntry{Path: path, Mode: mode, Stage: int(flags>>12) & 3,
			SkipWorktree: extended&0x4000 != 0, ID: id})
	}, func(off int) { entriesEnd = off })
	if !ok || sparse {
		return Index{}, false
	}
	end, off := len(data)-20, entriesEnd
	// An extension whose signature starts with a lower-case letter must be understood: `link` (a split
	// index, whose entries are partly in another file) and `sdir` (a sparse index) leave files out.
	for off+8 <= end {
		sig := data[off : off+4]
		size := binary.BigEndian.Uint32(data[off+4 : off+8])
		if sig[0] >= 'a' && sig[0] <= 'z' {
			return Index{}, false
		}
		if uint64(size) > uint64(end-off-8) {
			return Index{}, false
		}
		off += 8 + int(size)
	}
	slices.SortFunc(idx.ids, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
	return idx, true
}

// uvarint4 reads the variable-length integer of index version 4 (the offset encoding of packs: each
// continuation adds one before shifting). It returns the value and the bytes read, or 0 bytes on error.
func uvarint4(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	v := uint64(b[0] & 0x7f)
	i := 1
	for b[i-1]&0x80 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		v = (v+1)<<7 | uint64(b[i]&0x7f)
		i++
	}
	return v, i
}
