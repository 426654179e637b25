package shell

// The other names of a file. A hard link is the very file it links to under another name, so a read or
// a change of it is judged under each of its names: the shell's reads (hardLinks), the file tools' paths
// (decidePath) and the grep tool's files (HardLinks) all look here. The names are found by device and
// inode in one search of the workspace, the additional directories and the home directory's secret
// places; directories are listed once and then only when their times change, and a file with one name
// costs one stat and no search.

import (
	"os"
	"path/filepath"
	"syscall"
)

type Inode struct{ dev, ino uint64 }

// MaxLinkSearch bounds the entries one search for other names looks at; past it the read asks. A
// variable so that tests can reach the bound without 200,000 files.
var MaxLinkSearch = 200000

// linkedDir is one listed directory: its regular files by inode (all of them, since a file's link count
// changes without its directory changing), and its subdirectories.
type linkedDir struct {
	mtime, ctime int64
	ino          uint64
	links        map[Inode][]string
	subdirs      []string
	entries      int
}

// homeSecretPlaces are where a home directory keeps credentials, below it.
var homeSecretPlaces = []string{".ssh", ".aws", ".gnupg", ".kube", ".azure", ".docker", ".config/gh", ".config/gcloud",
	".netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".vault-token", ".cargo/credentials.toml",
	".cargo/credentials", ".m2/settings.xml", ".gradle/gradle.properties", ".bash_history", ".zsh_history", ".password-store"}

// LinkTarget returns the inode of the regular file at path (links followed) when it has more than one
// name.
func LinkTarget(path string) (Inode, bool) {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink < 2 {
		return Inode{}, false
	}
	return Inode{uint64(st.Dev), st.Ino}, true
}

// OtherNames returns, for each of targets, the names found below roots and in home's secret places
// (the names asked about among them). complete is false when the search stopped at MaxLinkSearch
// entries, so that names may be missing.
func (m *Memory) OtherNames(targets map[Inode]bool, roots []string, home string) (found map[Inode][]string, complete bool) {
	found = map[Inode][]string{}
	budget := MaxLinkSearch
	complete = true
	for _, r := range roots {
		complete = m.searchLinksOf(r, targets, found, &budget) && complete
	}
	if home == "" {
		return found, complete
	}
	for _, place := range homeSecretPlaces {
		p := filepath.Join(home, place)
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			complete = m.searchLinksOf(p, targets, found, &budget) && complete
		case fi.Mode().IsRegular():
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				if k := (Inode{uint64(st.Dev), st.Ino}); targets[k] {
					found[k] = append(found[k], p)
				}
			}
		}
	}
	return found, complete
}

// searchLinksOf adds to found the names below root of the files targets holds. It reports false when
// the search stopped at the budget.
func (m *Memory) searchLinksOf(root string, targets map[Inode]bool, found map[Inode][]string, budget *int) bool {
	stack := []string{root}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ld := m.listLinked(dir)
		if ld == nil {
			continue
		}
		if *budget -= ld.entries + 1; *budget < 0 {
			return false
		}
		for k, names := range ld.links {
			if targets[k] {
				for _, name := range names {
					found[k] = append(found[k], filepath.Join(dir, name))
				}
			}
		}
		for _, sub := range ld.subdirs {
			stack = append(stack, filepath.Join(dir, sub))
		}
	}
	return true
}

// listLinked returns dir's listing, from what m remembers while dir has not changed.
func (m *Memory) listLinked(dir string) *linkedDir {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return nil
	}
	mtime, ctime := fi.ModTime().UnixNano(), st.Ctim.Sec*1e9+st.Ctim.Nsec
	if ld, ok := m.links.Get(dir); ok && ld.mtime == mtime && ld.ctime == ctime && ld.ino == st.Ino {
		return ld
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	ld := &linkedDir{mtime: mtime, ctime: ctime, ino: st.Ino, links: map[Inode][]string{}, entries: len(entries)}
	for _, en := range entries {
		switch {
		case en.IsDir():
			ld.subdirs = append(ld.subdirs, en.Name())
		case en.Type().IsRegular():
			info, err := en.Info()
			if err != nil {
				continue
			}
			if s, ok := info.Sys().(*syscall.Stat_t); ok {
				k := Inode{uint64(s.Dev), s.Ino}
				ld.links[k] = append(ld.links[k], en.Name())
			}
		}
	}
	m.links.Put(dir, ld)
	return ld
}
