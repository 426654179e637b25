package treewalk

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// MayName reports whether a file the path pattern glob names (a rule's, in one of its forms) may be one
// the read of t takes in; match says whether a path is one the pattern names.
func (t Tree) MayName(glob string, match func(path string) bool) bool {
	// The literal start of the pattern, up to its first wildcard.
	var b strings.Builder
	wild := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		if c == '\\' && i+1 < len(glob) {
			i++
			b.WriteByte(glob[i])
			continue
		}
		if strings.IndexByte("*?[{", c) >= 0 {
			wild = true
			break
		}
		b.WriteByte(c)
	}
	lit := b.String()
	if wild {
		lit = filepath.Dir(lit + "x")
	}
	lit = filepath.Clean(lit)
	if !within(t.Dir, lit) && !within(lit, t.Dir) {
		return false
	}
	if !t.Follow && t.IgnoredBelow(lit) {
		// The program never reads it: hidden, or left out by its globs or an ignore file. A program
		// that follows links may reach it under another name.
		return false
	}
	// A directory below t.Dir on the way to what the rule names that the read skips (grep --exclude-dir,
	// rg -g '!dir') keeps the rule's files out, unless links are followed. Without a wildcard, the last
	// component is the file itself.
	if rel, err := filepath.Rel(t.Dir, lit); err == nil && within(t.Dir, lit) && rel != "." && !t.Follow && len(t.ExcludeDir) > 0 {
		comps := strings.Split(rel, "/")
		if !wild {
			comps = comps[:len(comps)-1]
		}
		for _, comp := range comps {
			if Excludes(t.ExcludeDir, comp) {
				return false
			}
		}
	}
	narrowed := len(t.Include) > 0 || len(t.Exclude) > 0 || t.GrepGlobs != nil
	if base := filepath.Base(glob); !wild && narrowed && !t.Takes(base) {
		return false
	}
	if wild && (narrowed || t.Rg != nil && !t.Follow) {
		// `find . -name '*.go'` reads only files of those names: look for one the rule names.
		return t.namesFileUnder(lit, match)
	}
	return true
}

// namesFileUnder walks, within MaxEntries entries, the part of a recursive read that lies below lit (the
// literal start of the rule's pattern) for a file the read takes in and match names. Past the bound it
// answers true.
func (t Tree) namesFileUnder(lit string, match func(string) bool) bool {
	root := t.Dir
	if within(t.Dir, lit) {
		root = lit
	}
	if t.Rg != nil {
		walked := 0
		return t.rgNamesFileUnder(root, t.Lister.RgStateAt(root, t.Home), &walked, match)
	}
	found, walked := false, 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		walked++
		if walked > MaxEntries {
			found = true
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		name := d.Name()
		if p != t.Dir && (!t.Hidden && strings.HasPrefix(name, ".") || d.IsDir() && Excludes(t.ExcludeDir, name)) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !t.Takes(name) {
			return nil
		}
		if match(p) {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// rgNamesFileUnder is namesFileUnder for rg, deciding each entry by its rules.
func (t Tree) rgNamesFileUnder(dir string, rs *RgState, walked *int, match func(string) bool) bool {
	l := t.Lister.List(dir, t.Home)
	if l == nil || rs == nil {
		return false
	}
	for _, en := range l.Entries {
		if *walked++; *walked > MaxEntries {
			return true
		}
		name, p := en.Name(), dir+"/"+en.Name()
		if name == ".git" || !t.Rg.reads(rs, p, name, en.IsDir()) {
			continue
		}
		if en.IsDir() {
			if t.rgNamesFileUnder(p, rs.Child(p, t.Home), walked, match) {
				return true
			}
			continue
		}
		if match(p) {
			return true
		}
	}
	return false
}
