package checkpoint

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The index is saved between runs so that the next session's first snapshot is stat-based too, instead
// of reading every file again. It is a cache: a file that is missing, damaged or from another version is
// ignored and rebuilt. Directory listings are not saved; the first walk lists every directory.

const indexMagic = "warden-checkpoint-index 1\n"

const (
	flagSkipped = 1 << iota
	flagRacy
	flagID
	flagUnreadable
)

func saveIndex(path string, idx *index) error {
	tmp := path + ".tmp-" + randomSuffix()
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("saving the checkpoint index: %w", err)
	}
	w := bufio.NewWriterSize(f, 256<<10)
	w.WriteString(indexMagic)
	var buf [binary.MaxVarintLen64]byte
	uv := func(v uint64) { w.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	sv := func(v int64) { w.Write(buf[:binary.PutVarint(buf[:], v)]) }
	uv(uint64(len(idx.entries)))
	for path, e := range idx.entries {
		uv(uint64(len(path)))
		w.WriteString(path)
		uv(uint64(e.mode))
		sv(e.size)
		sv(e.mtime)
		sv(e.ctime)
		uv(e.ino)
		var flags byte
		if e.skipped {
			flags |= flagSkipped
		}
		if e.racy {
			flags |= flagRacy
		}
		if !e.id.IsZero() {
			flags |= flagID
		}
		if e.unreadable {
			flags |= flagUnreadable
		}
		w.WriteByte(flags)
		if flags&flagID != 0 {
			w.Write(e.id[:])
		}
		uv(uint64(len(e.link)))
		w.WriteString(e.link)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("saving the checkpoint index: %w", err)
	}
	return nil
}

// loadIndex reads a saved index; any problem gives an empty one.
func loadIndex(path string) *index {
	idx := newIndex()
	f, err := os.Open(path)
	if err != nil {
		return idx
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	if err := readIndex(r, idx); err != nil {
		return newIndex()
	}
	return idx
}

var errBadIndex = errors.New("damaged checkpoint index")

func readIndex(r *bufio.Reader, idx *index) error {
	magic := make([]byte, len(indexMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != indexMagic {
		return errBadIndex
	}
	str := func(max uint64) (string, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > max {
			return "", errBadIndex
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return "", errBadIndex
		}
		return string(b), nil
	}
	count, err := binary.ReadUvarint(r)
	if err != nil || count > 10*walkLimit {
		return errBadIndex
	}
	for range count {
		path, err := str(1 << 16)
		if err != nil {
			return err
		}
		e := &entry{}
		mode, err1 := binary.ReadUvarint(r)
		size, err2 := binary.ReadVarint(r)
		mtime, err3 := binary.ReadVarint(r)
		ctime, err4 := binary.ReadVarint(r)
		ino, err5 := binary.ReadUvarint(r)
		flags, err6 := r.ReadByte()
		if err := errors.Join(err1, err2, err3, err4, err5, err6); err != nil {
			return errBadIndex
		}
		e.mode, e.size, e.mtime, e.ctime, e.ino = uint32(mode), size, mtime, ctime, ino
		e.skipped, e.racy, e.unreadable = flags&flagSkipped != 0, flags&flagRacy != 0, flags&flagUnreadable != 0
		if flags&flagID != 0 {
			if _, err := io.ReadFull(r, e.id[:]); err != nil {
				return errBadIndex
			}
		}
		if e.link, err = str(1 << 16); err != nil {
			return err
		}
		// Paths a restore refuses (.GIT on a file system that keeps case) are followed all the same.
		if plainRel(path) != nil {
			return errBadIndex
		}
		idx.entries[path] = e
	}
	return nil
}
