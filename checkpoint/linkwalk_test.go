package checkpoint

import (
	"path/filepath"
	"strings"
	"testing"
)

// A directory the watch saw something happen in is looked at again by its path: when a directory above it
// was replaced by a link in the meantime, the link is not followed, and nothing where it points is read,
// whether the kernel resolves the path in one call or Warden walks it one directory at a time.
func TestAWatchedDirectoryIsNotReachedThroughALink(t *testing.T) {
	for _, oneCall := range []bool{true, false} {
		t.Run(map[bool]string{true: "openat2", false: "by directory"}[oneCall], func(t *testing.T) {
			was := noOpenat2.Load()
			noOpenat2.Store(!oneCall)
			t.Cleanup(func() { noOpenat2.Store(was) })
			isolateHome(t)
			parent := t.TempDir()
			ws := filepath.Join(parent, "ws")
			sh(t, parent, "mkdir -p ws/a/sub outside/sub && echo in > ws/a/sub/x && echo SECRET > outside/sub/secret")
			tr := newTree(t, ws)
			if _, _, err := tr.snapshot(); err != nil {
				t.Fatal(err)
			}
			if tr.watch == nil {
				t.Skip("inotify is not available here")
			}
			sh(t, ws, "echo changed > a/sub/x && mv a a.old && ln -s ../outside a")
			changes, _, err := tr.snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range changes {
				if strings.Contains(c.Path, "secret") {
					t.Errorf("%s, reached through the link, is recorded", c)
				}
			}
			if got := changeLines(changes); !strings.Contains(got, "L a/ → ../outside") || !strings.Contains(got, "A a.old/sub/x") {
				t.Errorf("changes:\n%s", got)
			}
			if tr.store.has(blobID([]byte("SECRET\n"))) {
				t.Error("a file outside the workspace was read into the store")
			}
		})
	}
}
