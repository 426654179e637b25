package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/warden-cli/warden/config"
)

// One hook's run: bash -c COMMAND with the event's JSON on its standard input, its output read into
// bounded buffers, its exit awaited until its timeout, and then its whole process group killed, so that
// nothing it started outlives it (what left the group is stopped when it is reaped).

// maxOutput bounds what is kept of each of a hook's two outputs; the rest is read and dropped.
const maxOutput = 64 << 10

// pipeGrace bounds the wait for a hook's outputs to close once its processes are gone: only a process
// that escaped both its group and its mark could hold them longer.
const pipeGrace = 2 * time.Second

// run is one hook running, which Close stops.
type run struct{ stop context.CancelFunc }

func (r *Runner) runOne(ctx context.Context, h config.Hook, input []byte, dir string) answer {
	a := answer{hook: h, code: -1}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	me := &run{stop: cancel}
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.running[me] = true
	}
	r.mu.Unlock()
	if closed {
		a.failed = "the session is ending"
		return a
	}
	defer func() {
		r.mu.Lock()
		delete(r.running, me)
		r.mu.Unlock()
	}()

	timeout := DefaultTimeout
	if h.TimeoutSec > 0 {
		timeout = time.Duration(h.TimeoutSec) * time.Second
	}
	var p [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	for i := 0; i < len(p); i += 2 {
		rd, wr, err := os.Pipe()
		if err != nil {
			closeFiles(p[:i]...)
			a.failed = fmt.Sprintf("it could not be started: %v", err)
			return a
		}
		p[i], p[i+1] = rd, wr
	}
	inR, inW, outR, outW, errR, errW := p[0], p[1], p[2], p[3], p[4], p[5]
	env := append(r.opts.Env(dir), "CLAUDE_PROJECT_DIR="+r.opts.ProjectDir)
	proc, err := r.opts.Start(r.opts.Shell, []string{"-c", h.Command}, env, dir, []*os.File{inR, outW, errW})
	closeFiles(inR, outW, errW)
	if err != nil {
		closeFiles(inW, outR, errR)
		a.failed = fmt.Sprintf("it could not be started: %v", err)
		return a
	}
	var stdout, stderr bounded
	done := make(chan struct{}, 3)
	go func() {
		// A hook that does not read its input gets EPIPE once it is gone, or is killed before.
		_, _ = inW.Write(input)
		inW.Close()
		done <- struct{}{}
	}()
	go func() { stdout.readFrom(outR); done <- struct{}{} }()
	go func() { stderr.readFrom(errR); done <- struct{}{} }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-proc.Exited():
	case <-timer.C:
		a.failed = fmt.Sprintf("it did not finish within %s (its timeout) and was killed", timeout)
	case <-ctx.Done():
		a.failed = "it was stopped before it finished"
		if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			a.failed = "it was stopped: the request it ran for timed out"
		}
	}
	// What the hook left in its group, or the hook itself when it overran: the group is still its own
	// until it is reaped, so this reaches nothing else.
	proc.Signal(syscall.SIGKILL)
	code := proc.ExitCode()
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
	for left := 3; left > 0; {
		select {
		case <-done:
			left--
		case <-grace.C:
			// Closing the ends Warden holds ends the reads and the write that still wait.
			closeFiles(inW, outR, errR)
		}
	}
	closeFiles(inW, outR, errR)
	a.stdout, a.stderr = stdout.String(), stderr.String()
	if a.failed != "" {
		return a
	}
	a.code = code
	switch code {
	case 0:
		a.out = parseOutput(a.stdout)
	case 2:
	case -1:
		a.failed = "it was ended by a signal"
	default:
		a.failed = fmt.Sprintf("it exited with status %d", code)
		if msg := firstLine(a.stderr); msg != "" {
			a.failed += ": " + msg
		}
	}
	return a
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// bounded keeps the first maxOutput bytes written to it.
type bounded struct {
	b       strings.Builder
	dropped bool
}

func (b *bounded) readFrom(r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if room := maxOutput - b.b.Len(); n > 0 && room > 0 {
			b.b.Write(buf[:min(n, room)])
			b.dropped = b.dropped || n > room
		} else if n > 0 {
			b.dropped = true
		}
		if err != nil {
			return
		}
	}
}

func (b *bounded) String() string {
	if b.dropped {
		return b.b.String() + "\n[cut: a hook's output is kept up to 64 KB]"
	}
	return b.b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
