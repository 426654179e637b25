package safefile

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A hard link is a second name for a file, and an archive chooses it: a tar member AGENTS.md of the
// hard-link type naming $HOME/.ssh/id_rsa, unpacked by a tool that makes such links, is the key under
// a name the repository chose. A name says nothing of the file, and the file says nothing of its other
// names, which only a search of the whole file system would find (the permission engine searches the
// workspace and the home's credential places for them, and still cannot be sure). An Opener reads its
// caller's own inputs (an instruction file, a setting, an ignore file), a few small files at a start, so
// it takes the cheap sure way: a file of the workspace with more than one name is read only when every
// name is in its own directory and none of them is secret. That keeps the one case people make on
// purpose (AGENTS.md and CLAUDE.md one file, linked with ln) and refuses every other.

// maxSiblings bounds the directory looked through for a file's other names: an instruction file's or a
// setting's directory holds a few dozen entries.
const maxSiblings = 4096

// otherNames says why f, opened at the resolved path target, may not be read for having names beyond
// its own directory, or one that is secret; "" when it has one name, or all of them are beside it and
// ordinary.
func (o *Opener) otherNames(f *os.File, target string) string {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err.Error()
	}
	if st.Nlink < 2 {
		return ""
	}
	refuse := fmt.Sprintf("it has %d names (hard links) and not all of them are beside it: another may be a file elsewhere, such as a key", st.Nlink)
	dirPath := filepath.Dir(target)
	d, err := openResolved(dirPath, unix.O_DIRECTORY)
	if err != nil {
		return refuse
	}
	defer d.Close()
	names, err := d.Readdirnames(maxSiblings + 1)
	if err != nil || len(names) > maxSiblings {
		return refuse
	}
	var found uint64
	for _, n := range names {
		var sib unix.Stat_t
		if unix.Fstatat(int(d.Fd()), n, &sib, unix.AT_SYMLINK_NOFOLLOW) != nil || sib.Dev != st.Dev || sib.Ino != st.Ino {
			continue
		}
		found++
		if p := filepath.Join(dirPath, n); p != target && o.secret(p) {
			return fmt.Sprintf("it is another name (a hard link) of %s, which may hold secrets", p)
		}
	}
	if found < uint64(st.Nlink) {
		return refuse
	}
	return ""
}
