package permissions

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
)

// maxIndexSize bounds the index file Warden reads to list a repository's tracked files; a bigger one is
// not read, and a read of the whole repository asks.
const maxIndexSize = 32 << 20

// gitTracked lists the files the index of the repository at root tracks, relative to root, by reading
// .git/index directly: running git to ask would run what the repository's configuration names
// (core.fsmonitor). ok is false when the index cannot be read this way or does not list every file (no
// .git directory, a SHA-256 repository, index version 4, a split or sparse index, a damaged or huge
// file); a repository with no index yet tracks nothing. gitlinks is set when the index holds submodules.
func gitTracked(root string) (paths []string, gitlinks, ok bool) {
	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil, false, false
	}
	if cfg, err := os.ReadFile(filepath.Join(gitDir, "config")); err == nil && bytes.Contains(bytes.ToLower(cfg), []byte("objectformat")) {
		return nil, false, false
	}
	fi, err := os.Stat(filepath.Join(gitDir, "index"))
	if os.IsNotExist(err) {
		return nil, false, true
	}
	if err != nil || fi.Size() > maxIndexSize {
		return nil, false, false
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "index"))
	if err != nil || len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, false, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	if version != 2 && version != 3 {
		return nil, false, false
	}
	// Each entry: 40 bytes of stat data (the mode at offset 24), a 20-byte object id, 16 bits of flags
	// (and 16 more when the extended bit is set, in version 3), the path and 1 to 8 NULs padding the
	// entry to a multiple of 8.
	off := 12
	for i := uint32(0); i < n; i++ {
		start := off
		if off+62 > len(data) {
			return nil, false, false
		}
		switch mode := binary.BigEndian.Uint32(data[off+24 : off+28]); mode & 0o170000 {
		case 0o040000:
			// A sparse index: a directory stands for every file below it, which Warden does not list.
			return nil, false, false
		case 0o160000:
			gitlinks = true
		}
		flags := binary.BigEndian.Uint16(data[off+60 : off+62])
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > len(data) {
				return nil, false, false
			}
			off += 2
		}
		end := bytes.IndexByte(data[off:], 0)
		if end <= 0 {
			return nil, false, false
		}
		paths = append(paths, string(data[off:off+end]))
		off += end
		off = start + (off-start+8)&^7
	}
	// Extensions follow, then a 20-byte checksum. Git must understand one whose signature starts with a
	// lower-case letter: `link` (a split index, whose entries are partly in another file) and `sdir` (a
	// sparse index) leave files out of the entries read here; any other is not known to Warden.
	for off+8 <= len(data)-20 {
		sig := data[off : off+4]
		size := binary.BigEndian.Uint32(data[off+4 : off+8])
		if sig[0] >= 'a' && sig[0] <= 'z' {
			return nil, false, false
		}
		if uint64(size) > uint64(len(data)-20-off-8) {
			return nil, false, false
		}
		off += 8 + int(size)
	}
	return paths, gitlinks, true
}

// gitHasObjects reports whether the repository at root may hold any object, and so any history: loose
// objects, packs or alternates. One with none can print no file from HEAD or history.
func gitHasObjects(root string) bool {
	dir := filepath.Join(root, ".git", "objects")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return !os.IsNotExist(err)
	}
	for _, en := range entries {
		switch en.Name() {
		case "info":
			if sub, err := os.ReadDir(filepath.Join(dir, "info")); err != nil || len(sub) > 0 && !(len(sub) == 1 && sub[0].Name() == "packs") {
				return true
			}
		case "pack":
			if sub, err := os.ReadDir(filepath.Join(dir, "pack")); err != nil || len(sub) > 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}
