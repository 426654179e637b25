package gitrepo

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Index is what a repository's index lists.
type Index struct {
	// Paths are the tracked files, relative to the work tree's top, in the index's order. An unmerged
	// path is listed once per stage.
	Paths []string
	// Gitlinks are the submodules' paths.
	Gitlinks []string
	// ids are the entries' object names, sorted.
	ids []oid
}

// HasObject reports whether an entry's object name starts with the hexadecimal prefix.
func (idx Index) HasObject(prefix string) bool { return hasPrefix(idx.ids, prefix) }

// maxIndexSize bounds the index file read; a bigger one is not read.
const maxIndexSize = 64 << 20

var (
	indexMu    sync.Mutex
	indexCache = map[string]*cachedIndex{}
)

type cachedIndex struct {
	id  fileID
	idx Index
	ok  bool
}

// ReadIndex lists what the index of the repository r tracks. ok is false when the index cannot be read
// in full this way: a SHA-256 repository, a split or sparse index, an extension git itself must
// understand that Warden does not, a damaged or huge file. A repository with no index yet tracks nothing.
func ReadIndex(r Repo) (Index, bool) {
	if r.GitDir == "" {
		return Index{}, false
	}
	path := filepath.Join(r.GitDir, "index")
	id, exists := identify(path)
	if !exists {
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			return Index{}, true
		}
		return Index{}, false
	}
	indexMu.Lock()
	c := indexCache[path]
	indexMu.Unlock()
	if c != nil && c.id == id {
		return c.idx, c.ok
	}
	c = &cachedIndex{id: id}
	if id.size <= maxIndexSize && !sha256Repo(r) {
		if data, err := os.ReadFile(path); err == nil {
			c.idx, c.ok = parseIndex(data)
		}
	}
	indexMu.Lock()
	if len(indexCache) > 256 {
		clear(indexCache)
	}
	indexCache[path] = c
	indexMu.Unlock()
	return c.idx, c.ok
}

// sha256Repo reports whether the repository may use SHA-256 object names, which this package does not
// read.
func sha256Repo(r Repo) bool {
	cfg, err := os.ReadFile(filepath.Join(r.CommonDir, "config"))
	return err == nil && bytes.Contains(bytes.ToLower(cfg), []byte("objectformat"))
}

// parseIndex reads an index file of version 2, 3 or 4.
//
// An entry is 40 bytes of stat data (the mode at offset 24), a 20-byte object name and 16 bits of flags
// (16 more when the extended bit is set, from version 3). In versions 2 and 3 the path follows, NUL
// terminated and padded with NULs to a multiple of 8 bytes from the entry's start; in version 4 the path
// is the previous one with a varint's count of bytes dropped from its end and a NUL-terminated suffix
// added, with no padding. Extensions and a 20-byte checksum follow the entries.
func parseIndex(data []byte) (Index, bool) {
	var idx Index
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return idx, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return idx, false
	}
	end := len(data) - 20
	off := 12
	prev := ""
	for i := uint32(0); i < n; i++ {
		start := off
		if off+62 > end {
			return Index{}, false
		}
		mode := binary.BigEndian.Uint32(data[off+24 : off+28])
		var id oid
		copy(id[:], data[off+40:off+60])
		idx.ids = append(idx.ids, id)
		flags := binary.BigEndian.Uint16(data[off+60 : off+62])
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return Index{}, false
			}
			off += 2
		}
		var path string
		if version == 4 {
			drop, w := uvarint4(data[off:end])
			if w <= 0 || drop > uint64(len(prev)) {
				return Index{}, false
			}
			off += w
			nul := bytes.IndexByte(data[off:end], 0)
			if nul < 0 {
				return Index{}, false
			}
			path = prev[:len(prev)-int(drop)] + string(data[off:off+nul])
			off += nul + 1
		} else {
			nul := bytes.IndexByte(data[off:end], 0)
			if nul <= 0 {
				return Index{}, false
			}
			path = string(data[off : off+nul])
			off += nul
			off = start + (off-start+8)&^7
		}
		prev = path
		switch mode & 0o170000 {
		case 0o040000:
			// A sparse index: a directory stands for every file below it.
			return Index{}, false
		case 0o160000:
			idx.Gitlinks = append(idx.Gitlinks, path)
		}
		idx.Paths = append(idx.Paths, path)
	}
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
