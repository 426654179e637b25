package permissions

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
)

// maxIndexSize bounds the index file Warden reads to list a repository's tracked files; a bigger one is
// not read and the work tree is walked instead.
const maxIndexSize = 32 << 20

// gitTracked lists the files the index of the repository at root tracks, relative to root, by reading
// .git/index directly: running git to ask would run what the repository's configuration names
// (core.fsmonitor). ok is false when the index cannot be read this way (no .git directory, a SHA-256
// repository, index version 4, a damaged or huge file); a repository with no index yet tracks nothing.
func gitTracked(root string) (paths []string, ok bool) {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil, false
	}
	if cfg, err := os.ReadFile(filepath.Join(gitDir, "config")); err == nil && bytes.Contains(bytes.ToLower(cfg), []byte("objectformat")) {
		return nil, false
	}
	fi, err := os.Stat(filepath.Join(gitDir, "index"))
	if os.IsNotExist(err) {
		return nil, true
	}
	if err != nil || fi.Size() > maxIndexSize {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "index"))
	if err != nil || len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	if version != 2 && version != 3 {
		return nil, false
	}
	// Each entry: 40 bytes of stat data, a 20-byte object id, 16 bits of flags (and 16 more when the
	// extended bit is set, in version 3), the path and 1 to 8 NULs padding the entry to a multiple of 8.
	off := 12
	for i := uint32(0); i < n; i++ {
		start := off
		if off+62 > len(data) {
			return nil, false
		}
		flags := binary.BigEndian.Uint16(data[off+60 : off+62])
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > len(data) {
				return nil, false
			}
			off += 2
		}
		end := bytes.IndexByte(data[off:], 0)
		if end <= 0 {
			return nil, false
		}
		paths = append(paths, string(data[off:off+end]))
		off += end
		off = start + (off-start+8)&^7
	}
	return paths, true
}
