package mcp

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// process is a stdio server Warden started, in a process group of its own. Warden holds the pipes and is
// the only one to wait for it, so that how it ended can be read without a race and the whole group is
// signalled when it stops. (The SDK's CommandTransport waits for the process itself and signals only the
// process it started, not what that started.)
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // the write end of the server's stdin
	stdout *os.File // the read end of its stdout
	exited chan struct{}
	status string // how it ended; set before exited is closed
}

// startProcess starts cmd with pipes for its stdin and stdout; its stderr is whatever cmd says.
func startProcess(cmd *exec.Cmd) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	// The child has its ends now; Warden keeps only its own.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		switch {
		case cmd.ProcessState != nil:
			p.status = cmd.ProcessState.String()
		case err != nil:
			p.status = err.Error()
		}
		close(p.exited)
	}()
	return p, nil
}

// transport speaks MCP over the pipes, with the SDK's framing and its bound on one message.
func (p *process) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin}
}

// stop ends the server the way MCP asks a client to: its stdin closed, then SIGTERM, then SIGKILL, each
// after a short wait; the signals go to its whole process group, and whatever is left of the group once the
// server is gone is killed too.
func (p *process) stop() {
	_ = p.stdin.Close() // the SDK may have closed it already
	if !p.wait(terminateAfter) {
		p.signal(syscall.SIGTERM)
		if !p.wait(terminateAfter) {
			p.signal(syscall.SIGKILL)
			p.wait(terminateAfter)
		}
	}
	p.signal(syscall.SIGKILL)
	p.stdout.Close()
}

func (p *process) signal(sig syscall.Signal) {
	if err := syscall.Kill(-p.cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = p.cmd.Process.Signal(sig)
	}
}

func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus says how the process ended ("exit status 3", "signal: killed"), or "" while it runs.
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
		return p.status
	default:
		return ""
	}
}
