package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A repository chooses what stands at the paths git reads. A FIFO at any of them must be refused without
// waiting: a blocking open held the judgement of `git log -p` (and with it the call) for ever.
func TestFIFOsInTheRepositoryDoNotBlock(t *testing.T) {
	needGit(t)
	rd := NewReader()
	for _, name := range []string{"packed-refs", "ORIG_HEAD", "objects/info/alternates", "index", "commondir"} {
		t.Run(name, func(t *testing.T) {
			dir := tempDir(t)
			git(t, dir, "init", "-q")
			write(t, filepath.Join(dir, "a"), "a")
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-qm", "a")
			p := filepath.Join(dir, ".git", name)
			os.Remove(p)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := unix.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				r, _ := rd.Find(dir, nil, nil)
				rd.ReadHistory(r, nil, 0)
				rd.ReadIndex(r, nil)
				rd.StatIndex(r)
				if b, err := rd.OpenBlobs(r); err == nil {
					b.Close()
				}
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("reading a repository with a FIFO at .git/%s blocked", name)
			}
		})
	}
}
