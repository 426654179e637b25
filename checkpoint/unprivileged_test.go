package checkpoint

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// unprivilegedEnv marks a test binary run again as another user by asUnprivileged.
const unprivilegedEnv = "WARDEN_TEST_UNPRIVILEGED"

// asUnprivileged runs the calling test in a process of its own, as the user nobody, when the tests run
// as root: permissions mean nothing to root, and the people Warden serves are not root. It reports true
// when the test has run elsewhere and the caller should return; as another user already, it reports
// false and the test goes on here.
func asUnprivileged(t *testing.T) bool {
	t.Helper()
	if os.Getuid() != 0 || os.Getenv(unprivilegedEnv) != "" {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary sits in a directory only root may enter: a copy goes where nobody can run it.
	dir, err := os.MkdirTemp("", "unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "checkpoint.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), unprivilegedEnv+"=1", "HOME="+home, "TMPDIR="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as the user nobody: %v\n%s", err, out)
	}
	t.Logf("as the user nobody:\n%s", out)
	return true
}
