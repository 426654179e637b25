package bash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/warden-cli/warden/tools"
)

// Programs that Warden keeps running for the session beside the commands (MCP servers) are started the way
// commands are: by the session's supervisor when there is one, in a session and process group of their
// own, with the environment commands get and the session's marks, so that they and everything they start
// are stopped when Warden goes, even when Warden is killed.

// ChildEnv is the environment commands get for a program started in dir (the package's ChildEnv).
func (t *Tasks) ChildEnv(settings tools.BashSettings, dir string) []string {
	return tools.ChildEnv(settings, dir)
}

// Program is a program started with StartProgram.
type Program struct {
	pid  int
	ch   child
	mark string

	mu     sync.Mutex
	reaped bool
	status string
	// code is the exit status once reaped, -1 when a signal ended it or its status is not known.
	code int
}

// StartProgram starts name (looked up on PATH, or relative to dir when it holds a slash) with args in dir,
// with env and the session's marks added, and files as its descriptors 0, 1, 2 and no others.
func (t *Tasks) StartProgram(name string, args, env []string, dir string, files []*os.File) (*Program, error) {
	path := name
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
	} else {
		p, err := exec.LookPath(name)
		if err != nil {
			return nil, err
		}
		path = p
	}
	sp, err := t.spawner()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.initLocked()
	instance := t.instance
	t.mu.Unlock()
	mark := fmt.Sprintf("%s=%s.p%d", callVar, instance, t.calls.Add(1))
	env = append(append([]string(nil), env...), instanceVar+"="+instance, mark)
	ch, pid, err := sp.spawn(path, append([]string{name}, args...), env, dir, files)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	return &Program{pid: pid, ch: ch, mark: mark}, nil
}

// Pid is the program's process id, which is also its process group's: until Reap it cannot be reused, so
// signalling the group reaches only the program's processes.
func (p *Program) Pid() int { return p.pid }

// Exited is closed once the program has exited.
func (p *Program) Exited() <-chan struct{} { return p.ch.Exited() }

// Reap, once the program has exited, reaps it, stops what it left running outside its group, and says how
// it ended ("exit status 3", "signal: killed"). Later calls return the same.
func (p *Program) Reap() string {
	<-p.ch.Exited()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return p.status
	}
	p.reaped = true
	ws, known := p.ch.Reap(p.mark)
	p.code = -1
	switch {
	case !known:
		p.status = "ended (its status is not known)"
	case ws.Signaled():
		p.status = "signal: " + ws.Signal().String()
	default:
		p.status = fmt.Sprintf("exit status %d", ws.ExitStatus())
		p.code = ws.ExitStatus()
	}
	return p.status
}

// ExitCode reaps the program as Reap does and returns its exit status: -1 when a signal ended it or its
// status is not known. Hooks speak through their exit status (2 blocks), so it is read as a number.
func (p *Program) ExitCode() int {
	p.Reap()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.code
}

// Signal sends sig to the program's process group; after Reap it does nothing, since the id may then
// belong to a stranger.
func (p *Program) Signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		_ = syscall.Kill(-p.pid, sig)
	}
}
