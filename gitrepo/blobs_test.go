package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The index's stat data matches the files git wrote, and their content comes back from loose objects
// and from packs with deltas, in every index version.
func TestStatIndexAndBlobs(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	big := strings.Repeat("line of text that repeats\n", 400)
	write(t, filepath.Join(dir, "a.txt"), big)
	write(t, filepath.Join(dir, "src/b.go"), "package b\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	write(t, filepath.Join(dir, "a.txt"), big+"one more\n")
	git(t, dir, "commit", "-qam", "two")
	git(t, dir, "gc", "-q")
	// Written a second after the index would be racily clean; make the index newer.
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(filepath.Join(dir, ".git", "index"), later, later)
	r, _ := rd.Find(dir, nil, nil)
	blobs, err := rd.OpenBlobs(r)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	for _, v := range []string{"2", "3", "4"} {
		git(t, dir, "update-index", "--index-version", v)
		os.Chtimes(filepath.Join(dir, ".git", "index"), later, later)
		entries, ok := rd.StatIndex(r)
		if !ok || len(entries) != 2 {
			t.Fatalf("version %s: %v %v", v, ok, entries)
		}
		for path, e := range entries {
			var st syscall.Stat_t
			if err := syscall.Lstat(filepath.Join(dir, path), &st); err != nil {
				t.Fatal(err)
			}
			if e.Size != uint32(st.Size) || e.Ino != uint32(st.Ino) || e.MtimeSec != uint32(st.Mtim.Sec) || !e.Trusted() {
				t.Errorf("version %s: %s: %+v against %+v", v, path, e, st)
			}
			want, _ := os.ReadFile(filepath.Join(dir, path))
			got, err := blobs.Read(e.ID)
			if err != nil || string(got) != string(want) || !blobs.Has(e.ID) {
				t.Errorf("version %s: %s: read %d bytes, %v", v, path, len(got), err)
			}
		}
	}
	if blobs.Has([20]byte{1, 2, 3}) {
		t.Error("a made-up object is held")
	}
}
