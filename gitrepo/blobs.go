package gitrepo

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// For those who keep copies of a work tree's files (checkpoints): the content git already holds can be
// named without reading the file (StatIndex: what the index says each tracked file's stat and object
// are) and read back from the object store (Blobs), so that it need not be copied.

// StatEntry is one file of the index with the stat data git recorded for it. git keeps the low 32 bits
// of the size and inode, and times in seconds and nanoseconds.
type StatEntry struct {
	Mode                  uint32
	Size, Ino             uint32
	MtimeSec, MtimeNsec   uint32
	CtimeSec, CtimeNsec   uint32
	ID                    [20]byte
	racilyClean, assumeOK bool
}

// Trusted reports whether the entry's stat can stand for its content: git itself rechecks an entry
// written in the same second as the index ("racily clean"), and one marked assume-unchanged or
// skip-worktree may not match the file at all.
func (e StatEntry) Trusted() bool { return !e.racilyClean && !e.assumeOK }

// StatIndex returns the tracked files of r's index by path (stage 0 only). ok is false when the index
// cannot be read this way (see ReadIndex).
func (rd *Reader) StatIndex(r Repo) (map[string]StatEntry, bool) {
	if _, ok := rd.ReadIndex(r, nil); !ok || r.GitDir == "" {
		return nil, false
	}
	path := filepath.Join(r.GitDir, "index")
	f, err := rd.Opener(r).WithMaxSize(maxIndexSize).Open(path)
	if err != nil {
		return map[string]StatEntry{}, os.IsNotExist(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIndexSize))
	if err != nil || len(data) < 12+20 {
		return nil, false
	}
	indexTime := fi.ModTime()
	out := map[string]StatEntry{}
	if v := binary.BigEndian.Uint32(data[4:8]); string(data[:4]) != "DIRC" || v < 2 || v > 4 {
		return nil, false
	}
	ok := walkIndex(data, func(path string, raw []byte, flags uint16, extended uint16) {
		if flags&0x3000 != 0 { // an unmerged stage
			return
		}
		e := StatEntry{
			CtimeSec: binary.BigEndian.Uint32(raw[0:]), CtimeNsec: binary.BigEndian.Uint32(raw[4:]),
			MtimeSec: binary.BigEndian.Uint32(raw[8:]), MtimeNsec: binary.BigEndian.Uint32(raw[12:]),
			Ino: binary.BigEndian.Uint32(raw[20:]), Mode: binary.BigEndian.Uint32(raw[24:]),
			Size: binary.BigEndian.Uint32(raw[36:]),
		}
		copy(e.ID[:], raw[40:60])
		e.assumeOK = flags&0x8000 != 0 || extended&0x4000 != 0
		mtime := int64(e.MtimeSec)*1e9 + int64(e.MtimeNsec)
		e.racilyClean = mtime >= indexTime.UnixNano()-int64(1e9)
		out[path] = e
	}, nil)
	return out, ok
}

// walkIndex calls f with each entry of an index file (version 2 to 4, checked by the caller): its path,
// its 62 fixed bytes, its flags and, for version 3 and later, its extended flags. done, when not nil,
// gets the offset where the entries end and the extensions begin. It reports false for an index git
// would refuse to read, or whose entries git would read otherwise than their bytes say.
//
// An entry is 40 bytes of stat data (the mode at offset 24), a 20-byte object name and 16 bits of flags
// (16 more when the extended bit is set, from version 3). The flags' low 12 bits are the path's length
// (0xfff: that long or longer, and the NUL ends it). In versions 2 and 3 the path follows, NUL
// terminated and padded with NULs to a multiple of 8 bytes from the entry's start; in version 4 the path
// is the previous one with a varint's count of bytes dropped from its end and a NUL-terminated suffix
// added, with no padding. git takes the length from the flags, so a path whose NUL is not where its
// length says (a NUL inside it, or none after it) is refused: git would read another path than the bytes
// show. So is an extended flag git does not know, as git refuses it.
func walkIndex(data []byte, f func(path string, raw []byte, flags, extended uint16), done func(off int)) bool {
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	end := len(data) - 20
	off := 12
	prev := ""
	for range n {
		start := off
		if off+62 > end {
			return false
		}
		raw := data[off : off+62]
		flags := binary.BigEndian.Uint16(data[off+60 : off+62])
		var extended uint16
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return false
			}
			extended = binary.BigEndian.Uint16(data[off : off+2])
			// git knows intent-to-add (0x2000) and skip-worktree (0x4000) only.
			if extended&^0x6000 != 0 {
				return false
			}
			off += 2
		}
		length := int(flags & 0xfff)
		kept := 0
		if version == 4 {
			drop, w := uvarint4(data[off:end])
			if w <= 0 || drop > uint64(len(prev)) {
				return false
			}
			off += w
			kept = len(prev) - int(drop)
		}
		nul := indexByte(data[off:end], 0)
		if nul < 0 {
			return false
		}
		if length < 0xfff && (length < kept || nul != length-kept) {
			return false
		}
		path := prev[:kept] + string(data[off:off+nul])
		off += nul + 1
		if version != 4 {
			off = start + (off-1-start+8)&^7
			if off > end {
				return false
			}
		}
		prev = path
		f(path, raw, flags, extended)
	}
	if done != nil {
		done(off)
	}
	return true
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// Blobs reads file contents from a repository's object store (loose objects, packs, alternates). It is
// safe for concurrent use.
type Blobs struct {
	mu sync.Mutex
	s  *store
}

// OpenBlobs opens r's object store.
func (rd *Reader) OpenBlobs(r Repo) (*Blobs, error) {
	if r.CommonDir == "" {
		return nil, errors.New("no git directory")
	}
	if rd.sha256Repo(r) {
		return nil, errors.New("a SHA-256 repository")
	}
	s, err := openStore(filepath.Join(r.CommonDir, "objects"))
	if err != nil {
		return nil, err
	}
	return &Blobs{s: s}, nil
}

// Has reports whether the store holds the object id.
func (b *Blobs) Has(id [20]byte) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.s.packs {
		if _, ok := p.find(id); ok {
			return true
		}
	}
	for _, d := range b.s.dirs {
		h := oid(id).String()
		if _, err := os.Stat(filepath.Join(d, h[:2], h[2:])); err == nil {
			return true
		}
	}
	return false
}

// Read returns the content of the blob id.
func (b *Blobs) Read(id [20]byte) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	typ, data, err := b.s.read(id)
	if err != nil {
		return nil, err
	}
	if typ != objBlob {
		return nil, errors.New("not a blob")
	}
	return data, nil
}

// Close releases the store's files.
func (b *Blobs) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.s.close()
}
