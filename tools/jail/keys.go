package jail

import (
	"os"
	"path/filepath"
	"syscall"
)

// In other people's code (node_modules, .venv…) a file's second name is let be: package managers link
// their caches' files there (pnpm, bun, uv), and looking for every such file's other names would cost a
// stat each. A hard link there to one of the person's credential files is not let be: an archive unpacked
// into node_modules can make one to ~/.ssh/id_rsa, and the home, dark in the jail, would be read through
// it. So the inodes of the credential stores of the homes (Config.Stores: ~/.ssh's files, ~/.netrc,
// ~/.config/gh's…) are gathered, once per scan and only when the walk meets other people's code, and a
// file there with one of those inodes (which the directory gives with its name) is masked.

// Bounds on gathering the homes' keys: the entries read of one store directory, and how deep below it.
const (
	maxStoreEntries = 256
	storeDepth      = 2
)

type inode struct{ dev, ino uint64 }

// storeInodes returns the inodes of the regular files at or below stores (to storeDepth levels), each with
// the path it was found at.
func storeInodes(stores []string) map[inode]string {
	out := map[inode]string{}
	var look func(p string, depth int)
	look = func(p string, depth int) {
		fi, err := os.Lstat(p)
		if err != nil {
			return
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		switch {
		case !ok:
		case fi.Mode().IsRegular():
			out[inode{uint64(st.Dev), st.Ino}] = p
		case fi.IsDir() && depth < storeDepth:
			f, err := os.Open(p)
			if err != nil {
				return
			}
			names, _ := f.Readdirnames(maxStoreEntries)
			f.Close()
			for _, n := range names {
				look(filepath.Join(p, n), depth+1)
			}
		}
	}
	for _, s := range stores {
		look(s, 0)
	}
	return out
}
