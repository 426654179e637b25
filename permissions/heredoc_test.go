package permissions

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHereDocEndsWhereBashEndsIt: each command is run by bash, which ends the here-document early and
// runs the command after it (the marker appears); Warden must not take that command for body text.
// The benign ones run nothing and stay read-only.
func TestHereDocEndsWhereBashEndsIt(t *testing.T) {
	if _, err := osexec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	ws, home := fixture(t)
	marker := filepath.Join(t.TempDir(), "marker")
	e, err := NewEngine(Policy{Workspace: ws, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		runs bool
	}{
		{"x=$(cat <<'EOF'\nfoo\nEOF)\ntouch MARK\necho \"$x\"\nEOF\n)", true},
		{"x=$(cat <<'EOF'\nfoo\nEOF ); touch MARK; (\nEOF\n)", true},
		{"x=$(cat <<-'EOF'\nfoo\n\tEOF)\ntouch MARK\nEOF\n)", true},
		{"cat <(cat <<'EOF'\nEOF)\ntouch MARK\nEOF\n)", true},
		{"cat <<EOF\nfoo\nEO\\\nF\ntouch MARK\nEOF", true},
		{"cat <<-EOF\nfoo\n\tE\\\nOF\ntouch MARK\nEOF", true},
		{"cat <<'EOF'\nfoo\nEO\\\nF\ntouch MARK\nEOF", false},
		{"cat <<'EOF'\nfoo (bar)\nEOF)\nEOF", false},
		{"x=$(cat <<'EOF'\nfoo\nEOF\n)", false},
		{"cat <<'EOF'\n$(touch MARK)\nEOF", false},
		{"cat <<EOF\na \\\nb\nEOF", false},
	} {
		cmd := strings.ReplaceAll(c.cmd, "MARK", marker)
		os.Remove(marker)
		run := osexec.Command("bash", "-c", cmd)
		run.Dir = ws
		_ = run.Run()
		_, err := os.Stat(marker)
		if ran := err == nil; ran != c.runs {
			t.Fatalf("%q: bash ran the marker: %v, want %v", cmd, ran, c.runs)
		}
		v := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: ws})
		if c.runs && v.Decision == Allow {
			t.Errorf("%q runs a command after the here-document, yet is allowed (%s)", cmd, v.Reason)
		}
		if !c.runs && v.Decision != Allow {
			t.Errorf("%q: %s (%s), want allow", cmd, v.Decision, v.Reason)
		}
	}
}
