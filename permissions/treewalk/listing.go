package treewalk

import (
	"path/filepath"
	"syscall"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/ignore"
)

// Listing is one directory's entries, sorted by name, with which of them name secrets and which are
// regular files with more than one name (hard links).
type Listing struct {
	Entries []ignore.Entry
	Secret  []bool
	Multi   []bool

	mtime, ctime int64
	ino          uint64
	home         string
}

// Lister lists directories for walks and remembers each listing while the directory's modification and
// change times and inode stay the same. It is safe for concurrent use.
type Lister struct {
	secret   func(path, home string) bool
	listings *cache.LRU[string, *Listing]
}

// maxListings bounds the directories a Lister remembers: a walk of a big repository lists every
// directory of it, and a session walks a few.
const maxListings = 200000

// NewLister returns a Lister that judges each file it lists with secret (a path and the home directory).
func NewLister(secret func(path, home string) bool) *Lister {
	return &Lister{secret: secret, listings: cache.New[string, *Listing](maxListings)}
}

// List returns dir's entries, from what it remembers while the directory has not changed; nil when it
// cannot be read.
func (l *Lister) List(dir, home string) *Listing {
	var st syscall.Stat_t
	if syscall.Lstat(dir, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return nil
	}
	mtime, ctime := st.Mtim.Sec*1e9+st.Mtim.Nsec, st.Ctim.Sec*1e9+st.Ctim.Nsec
	if got, ok := l.listings.Get(dir); ok && got.mtime == mtime && got.ctime == ctime && got.ino == st.Ino && got.home == home {
		return got
	}
	entries, err := ignore.ReadDir(dir)
	if err != nil {
		return nil
	}
	ls := &Listing{mtime: mtime, ctime: ctime, ino: st.Ino, home: home, Entries: entries, Secret: make([]bool, len(entries)),
		Multi: make([]bool, len(entries))}
	for i, en := range entries {
		ls.Secret[i] = !en.IsDir() && l.secret(filepath.Join(dir, en.Name()), home)
		if en.Type() == 0 {
			// A hard link's other names are found when a walk takes the file in. A link made later in
			// another directory does not change this one's times: the count is as of the listing.
			var fst syscall.Stat_t
			if syscall.Lstat(filepath.Join(dir, en.Name()), &fst) == nil && fst.Nlink > 1 {
				ls.Multi[i] = true
			}
		}
	}
	l.listings.Put(dir, ls)
	return ls
}
