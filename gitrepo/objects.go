package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/warden-cli/warden/safefile"
)

// The object store, read the way git lays it out: loose objects (objects/xx/yyyy, zlib-compressed
// "TYPE SIZE\0DATA"), packs with their version 2 index, and alternates. Only what a walk of history
// needs is read: commits, trees and tags.

// Object types as packs number them.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

// errMissing is returned for an object the store does not hold (a shallow or partial clone, damage).
var errMissing = errors.New("object not in the store")

// maxObjectSize bounds one object (or delta) inflated; a bigger one counts as unreadable.
const maxObjectSize = 64 << 20

type oid [20]byte

func (o oid) String() string { return hex.EncodeToString(o[:]) }

func parseOID(s string) (oid, bool) {
	var o oid
	if len(s) != 40 {
		return o, false
	}
	if _, err := hex.Decode(o[:], []byte(s)); err != nil {
		return o, false
	}
	return o, true
}

// store reads objects from a repository's object directories.
type store struct {
	dirs  []string
	packs []*packFile
	// cache holds recently inflated pack objects by pack and offset, so a delta chain is not inflated
	// again for every object built on it.
	cache      map[packPos]cachedObj
	cacheOrder []packPos
	cacheBytes int
	zr         io.ReadCloser
	br         bytes.Reader
}

type packPos struct {
	p   *packFile
	off int64
}

type cachedObj struct {
	typ  int
	data []byte
}

const maxCacheBytes = 32 << 20

// openStore opens the object directory dir and its alternates (objects/info/alternates, relative to
// the directory that names them, up to git's depth of five). ok is false when a pack has no index this
// package can read.
func openStore(dir string) (*store, error) {
	s := &store{cache: map[packPos]cachedObj{}}
	if err := s.addDir(dir, 0); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *store) addDir(dir string, depth int) error {
	if depth > 5 {
		return errors.New("alternates nest too deep")
	}
	dir = filepath.Clean(dir)
	for _, d := range s.dirs {
		if d == dir {
			return nil
		}
	}
	s.dirs = append(s.dirs, dir)
	entries, err := os.ReadDir(filepath.Join(dir, "pack"))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, en := range entries {
		name := en.Name()
		if !strings.HasSuffix(name, ".pack") {
			continue
		}
		base := strings.TrimSuffix(name, ".pack")
		p, err := openPack(filepath.Join(dir, "pack", base+".idx"), filepath.Join(dir, "pack", name))
		if err != nil {
			return fmt.Errorf("pack %s: %w", name, err)
		}
		s.packs = append(s.packs, p)
	}
	alt, err := safefile.ReadRegular(filepath.Join(dir, "info", "alternates"))
	if err != nil {
		return nil
	}
	for _, line := range strings.Split(string(alt), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, `"`) {
			if u, err := strconv.Unquote(line); err == nil {
				line = u
			}
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		if err := s.addDir(line, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (s *store) close() {
	for _, p := range s.packs {
		if p.data != nil {
			syscall.Munmap(p.data)
		}
		p.f.Close()
	}
}

// read returns an object's type and content.
func (s *store) read(id oid) (int, []byte, error) {
	for _, p := range s.packs {
		if off, ok := p.find(id); ok {
			return s.readPacked(p, off, 0)
		}
	}
	for _, d := range s.dirs {
		h := id.String()
		f, err := safefile.OpenRegular(filepath.Join(d, h[:2], h[2:]), 0)
		if err != nil {
			continue
		}
		typ, data, err := s.readLoose(f)
		f.Close()
		return typ, data, err
	}
	return 0, nil, errMissing
}

func (s *store) inflate(r io.Reader, size int64) ([]byte, error) {
	if size > maxObjectSize {
		return nil, errors.New("object too big")
	}
	var err error
	if s.zr == nil {
		s.zr, err = zlib.NewReader(r)
	} else {
		err = s.zr.(zlib.Resetter).Reset(r, nil)
	}
	if err != nil {
		return nil, err
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(s.zr, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

func (s *store) readLoose(f *os.File) (int, []byte, error) {
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, err
	}
	defer zr.Close()
	br := bufio.NewReader(io.LimitReader(zr, maxObjectSize+64))
	hdr, err := br.ReadString(0)
	if err != nil {
		return 0, nil, err
	}
	kind, sizeText, ok := strings.Cut(strings.TrimSuffix(hdr, "\x00"), " ")
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if !ok || err != nil || size < 0 || size > maxObjectSize {
		return 0, nil, errors.New("bad loose object header")
	}
	typ := map[string]int{"commit": objCommit, "tree": objTree, "blob": objBlob, "tag": objTag}[kind]
	if typ == 0 {
		return 0, nil, errors.New("bad loose object type")
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(br, data); err != nil {
		return 0, nil, err
	}
	return typ, data, nil
}

// readPacked returns the object at off in p, applying deltas down to their base.
func (s *store) readPacked(p *packFile, off int64, depth int) (int, []byte, error) {
	if depth > 10000 {
		return 0, nil, errors.New("delta chain too long")
	}
	if c, ok := s.cache[packPos{p, off}]; ok {
		return c.typ, c.data, nil
	}
	if off < 0 || off >= int64(len(p.data)) {
		return 0, nil, errors.New("offset outside the pack")
	}
	b := p.data[off:min(off+32, int64(len(p.data)))]
	if len(b) == 0 {
		return 0, nil, errors.New("truncated pack")
	}
	typ := int(b[0]>>4) & 7
	size := int64(b[0] & 0x0f)
	i, shift := 1, 4
	for b[i-1]&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return 0, nil, errors.New("bad pack object header")
		}
		size |= int64(b[i]&0x7f) << shift
		shift += 7
		i++
	}
	var baseTyp int
	var base []byte
	var err error
	switch typ {
	case objOfsDelta:
		rel, w := uvarint4(b[i:])
		if w == 0 || int64(rel) > off {
			return 0, nil, errors.New("bad delta offset")
		}
		i += w
		baseTyp, base, err = s.readPacked(p, off-int64(rel), depth+1)
	case objRefDelta:
		if i+20 > len(b) {
			return 0, nil, errors.New("truncated pack")
		}
		var id oid
		copy(id[:], b[i:i+20])
		i += 20
		baseTyp, base, err = s.read(id)
	case objCommit, objTree, objBlob, objTag:
	default:
		return 0, nil, fmt.Errorf("bad pack object type %d", typ)
	}
	if err != nil {
		return 0, nil, err
	}
	s.br.Reset(p.data[off+int64(i):])
	data, err := s.inflate(&s.br, size)
	if err != nil {
		return 0, nil, err
	}
	if base != nil {
		if data, err = applyDelta(base, data); err != nil {
			return 0, nil, err
		}
		typ = baseTyp
	}
	s.remember(packPos{p, off}, typ, data)
	return typ, data, nil
}

func (s *store) remember(pos packPos, typ int, data []byte) {
	if len(data) > maxCacheBytes/4 {
		return
	}
	for s.cacheBytes+len(data) > maxCacheBytes && len(s.cacheOrder) > 0 {
		old := s.cacheOrder[0]
		s.cacheOrder = s.cacheOrder[1:]
		s.cacheBytes -= len(s.cache[old].data)
		delete(s.cache, old)
	}
	s.cache[pos] = cachedObj{typ, data}
	s.cacheOrder = append(s.cacheOrder, pos)
	s.cacheBytes += len(data)
}

// applyDelta builds an object from its base and a delta: the two sizes as little-endian base-128
// varints, then instructions that copy a range of the base (high bit set; the low bits say which offset
// and size bytes follow, a size of 0 meaning 0x10000) or insert the next 1 to 127 bytes.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("bad delta")
	srcSize, n := binary.Uvarint(delta)
	if n <= 0 || srcSize != uint64(len(base)) {
		return nil, bad
	}
	delta = delta[n:]
	dstSize, n := binary.Uvarint(delta)
	if n <= 0 || dstSize > maxObjectSize {
		return nil, bad
	}
	delta = delta[n:]
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd&0x80 != 0:
			var off, size uint32
			for bit := 0; bit < 4; bit++ {
				if cmd&(1<<bit) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= uint32(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			for bit := 0; bit < 3; bit++ {
				if cmd&(0x10<<bit) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					size |= uint32(delta[0]) << (8 * bit)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if uint64(off)+uint64(size) > uint64(len(base)) {
				return nil, bad
			}
			out = append(out, base[off:off+size]...)
		case cmd != 0:
			if int(cmd) > len(delta) {
				return nil, bad
			}
			out = append(out, delta[:cmd]...)
			delta = delta[cmd:]
		default:
			return nil, bad
		}
		if uint64(len(out)) > dstSize {
			return nil, bad
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, bad
	}
	return out, nil
}

// packFile is a pack and its version 2 index: a magic number and version, a fan-out table of 256
// cumulative counts by first byte, the sorted object names, their CRCs, their 32-bit offsets (the high
// bit pointing into a table of 64-bit ones), and checksums.
type packFile struct {
	f    *os.File
	size int64
	// data is the pack, mapped into memory.
	data   []byte
	n      int
	fanout [256]uint32
	names  []byte
	off32  []byte
	off64  []byte
}

// maxPackIndex bounds a pack index read into memory.
const maxPackIndex = 512 << 20

func openPack(idxPath, packPath string) (*packFile, error) {
	if fi, err := os.Stat(idxPath); err == nil && fi.Size() > maxPackIndex {
		return nil, errors.New("pack index too big")
	}
	idx, err := safefile.ReadRegular(idxPath)
	if err != nil {
		return nil, err
	}
	if len(idx) < 8+256*4+40 || !bytes.Equal(idx[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(idx[4:8]) != 2 {
		return nil, errors.New("not a version 2 pack index")
	}
	p := &packFile{}
	for i := range 256 {
		p.fanout[i] = binary.BigEndian.Uint32(idx[8+4*i:])
	}
	p.n = int(p.fanout[255])
	pos := 8 + 256*4
	if len(idx) < pos+p.n*(20+4+4)+40 {
		return nil, errors.New("truncated pack index")
	}
	p.names = idx[pos : pos+p.n*20]
	pos += p.n * 20
	pos += p.n * 4 // CRCs
	p.off32 = idx[pos : pos+p.n*4]
	pos += p.n * 4
	p.off64 = idx[pos : len(idx)-40]
	f, err := safefile.OpenRegular(packPath, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	p.f, p.size = f, fi.Size()
	if p.size > 0 {
		if p.data, err = syscall.Mmap(int(f.Fd()), 0, int(p.size), syscall.PROT_READ, syscall.MAP_SHARED); err != nil {
			f.Close()
			return nil, err
		}
	}
	return p, nil
}

// find returns the offset of the object in the pack.
func (p *packFile) find(id oid) (int64, bool) {
	lo := 0
	if id[0] > 0 {
		lo = int(p.fanout[id[0]-1])
	}
	hi := int(p.fanout[id[0]])
	for lo < hi {
		mid := (lo + hi) / 2
		switch c := bytes.Compare(p.names[mid*20:mid*20+20], id[:]); {
		case c == 0:
			o := binary.BigEndian.Uint32(p.off32[mid*4:])
			if o&0x80000000 == 0 {
				return int64(o), true
			}
			k := int(o & 0x7fffffff)
			if (k+1)*8 > len(p.off64) {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(p.off64[k*8:])), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}
