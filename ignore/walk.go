package ignore

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// SkipDir, returned by a WalkFunc for a directory, skips that directory's contents.
var SkipDir = fs.SkipDir

// WalkFunc is called by Walk for each file and directory that is not ignored. rel is slash-separated
// and relative to the matcher's root. err is not nil only on a second call for a directory that could
// not be read; returning nil then goes on with the rest of the walk.
type WalkFunc func(rel string, d fs.DirEntry, err error) error

// Walk visits the tree below dir (relative to the root; "" for the root itself) in lexical order,
// calling fn for every entry that is not ignored. An ignored directory is never read. Entries named .git
// are skipped, and symbolic links are reported but never followed. dir itself is walked even if it is
// ignored, and is not passed to fn. Ignore files are read afresh on every walk.
func (m *Matcher) Walk(dir string, fn WalkFunc) error {
	dir = cleanRel(dir)
	entries, err := readDir(filepath.Join(m.root, filepath.FromSlash(dir)))
	if err != nil {
		return err
	}
	err = m.walk(m.Dir(dir, Names(entries)).s, dir, entries, fn)
	if errors.Is(err, fs.SkipDir) || errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// walk visits the entries of the directory rel (relative to the root), whose state is d.
func (m *Matcher) walk(d *dirState, rel string, entries []Entry, fn WalkFunc) error {
	for _, e := range entries {
		name := e.name
		if name == ".git" {
			continue
		}
		isDir := e.IsDir()
		if m.ignored(d, name, isDir) {
			continue
		}
		path := name
		if rel != "" {
			path = rel + "/" + name
		}
		if err := fn(path, e, nil); err != nil {
			if isDir && errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if !isDir {
			continue
		}
		sub, err := readDir(filepath.Join(m.root, filepath.FromSlash(path)))
		if err != nil {
			if err := fn(path, e, err); err != nil && !errors.Is(err, fs.SkipDir) {
				return err
			}
			continue
		}
		if err := m.walk(m.child(d, name, Names(sub)), path, sub, fn); err != nil {
			return err
		}
	}
	return nil
}

// Names reports which names a listing from ReadDir holds, for Matcher.Dir and Dir.Child.
func Names(entries []Entry) func(string) bool {
	return func(name string) bool {
		_, found := slices.BinarySearchFunc(entries, name, func(e Entry, n string) int {
			return strings.Compare(e.name, n)
		})
		return found
	}
}

// Dir is what the ignore files say inside one directory, for walks that read directories themselves (in
// parallel, or from a cache). It is safe for concurrent use.
type Dir struct {
	m *Matcher
	s *dirState
}

// Dir returns the state inside the directory rel (relative to the root; "" for the root), with the
// ignore files of every directory above it read. has, when not nil, says which names rel holds, so that
// ignore files that are not there are not opened. The directory itself counts as not ignored.
func (m *Matcher) Dir(rel string, has func(name string) bool) Dir {
	full := strings.TrimSuffix(m.prefix+cleanRel(rel), "/")
	if full == "" {
		d := &dirState{levels: make([][]*level, len(m.opts.Sources))}
		m.load(d, has)
		return Dir{m, d}
	}
	parentRel, name := "", full
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		parentRel, name = full[:i], full[i+1:]
	}
	m.mu.Lock()
	parent := m.stateLocked(parentRel)
	m.mu.Unlock()
	d := m.child(parent, name, has)
	d.ignored = false
	return Dir{m, d}
}

// Child returns the state inside the subdirectory name; has is as for Matcher.Dir. It does not check
// whether name itself is ignored.
func (d Dir) Child(name string, has func(name string) bool) Dir {
	return Dir{d.m, d.m.child(d.s, name, has)}
}

// Ignored reports whether the entry name of this directory is ignored; isDir says whether it is a
// directory (a symbolic link is not one).
func (d Dir) Ignored(name string, isDir bool) bool {
	return d.m.ignored(d.s, name, isDir)
}

func cleanRel(rel string) string {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	if rel == "." {
		return ""
	}
	return rel
}

// readDir is ReadDir; tests replace it to see which directories a walk reads.
var readDir = ReadDir
