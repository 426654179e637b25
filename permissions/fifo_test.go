package permissions

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The working tree chooses what stands at the files programs trust. A FIFO there must make the command ask
// (the file cannot be read), not stall the judgement, and the call with it, for ever.
func TestFIFOsAmongTrustedFilesDoNotStallTheJudgement(t *testing.T) {
	for _, tc := range []struct{ fifo, cmd string }{
		{"rust-toolchain.toml", "cargo -V"},
		{".npmrc", "npm view left-pad version"},
		{".git/config", "git stash show"},
	} {
		t.Run(tc.fifo, func(t *testing.T) {
			l := newTrustLab(t)
			l.repo("")
			p := filepath.Join(l.ws, tc.fifo)
			l.sh("", "rm -f "+p)
			if err := unix.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			e := l.engine()
			done := make(chan Verdict, 1)
			go func() { done <- e.Decide(Request{Kind: Exec, Command: tc.cmd, Cwd: l.ws}) }()
			select {
			case v := <-done:
				if v.Decision == Allow {
					t.Errorf("%q allowed with a FIFO at %s: %+v", tc.cmd, tc.fifo, v)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("judging %q stalled on a FIFO at %s", tc.cmd, tc.fifo)
			}
		})
	}
}
