package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's first screen says how to build and install warden; its commands run as written, here in
// the module's root rather than a fresh clone (the clone needs the network), with GOBIN and HOME of their
// own and the build cache shared, so that only the link is new.
func TestTheREADMEInstallCommandsRunAsWritten(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(data), "![")
	_, block, ok := strings.Cut(intro, "```sh\n")
	if !ok {
		t.Fatal("the README's first screen has no sh block")
	}
	block, after, _ := strings.Cut(block, "```")
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		if cmd = strings.TrimSpace(cmd); !strings.HasPrefix(cmd, "git clone ") {
			lines = append(lines, cmd)
		}
	}
	if strings.Join(lines, "\n") != "go install .\nwarden --version" {
		t.Fatalf("the install block changed; check this test still runs what it says: %q", lines)
	}
	build := regexp.MustCompile("`(go build -o [^`]+)`").FindStringSubmatch(after)
	if build == nil {
		t.Fatal("the first screen does not say how to build warden elsewhere (go build -o)")
	}
	lines = append(lines, build[1], "~/bin/warden --version")

	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	gobin, home := t.TempDir(), t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOBIN=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	// The directory go install uses must be on PATH, as the block's comment says.
	env = append(env, "GOBIN="+gobin, "HOME="+home, "PATH="+gobin+":"+os.Getenv("PATH"),
		"GOCACHE="+goenv("GOCACHE"), "GOMODCACHE="+goenv("GOMODCACHE"), "GOPATH="+goenv("GOPATH"))
	cmd := exec.Command("sh", "-ec", strings.Join(lines, "\n"))
	cmd.Dir, cmd.Env = "..", env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(lines, "; "), err, out)
	}
	if n := strings.Count(string(out), "warden "); n != 2 {
		t.Errorf("warden --version ran %d times of 2:\n%s", n, out)
	}
	for _, bin := range []string{filepath.Join(gobin, "warden"), filepath.Join(home, "bin", "warden")} {
		if _, err := os.Stat(bin); err != nil {
			t.Errorf("no binary where the README says: %v", err)
		}
	}
}
