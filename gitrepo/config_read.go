package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/warden-cli/warden/safefile"
)

// parsed is one configuration file's entries, or why it cannot be read as git reads it.
type parsed struct {
	id fileID
	// by is the Opener that let the file through.
	by      *safefile.Opener
	entries []Entry
	err     string
}

// maxConfigSize bounds a configuration file Warden reads; a bigger one counts as unreadable.
const maxConfigSize = 4 << 20

// parsed returns the parsed content of the configuration file at path, opened through the loader's
// Opener, or from the Reader's memory when the same Opener let the same file through before (what path leads to
// has the identity it had: a link swapped to another file changes it). ok is false when there is no
// such file. What the Opener refused is a problem that names the file and why, never its content.
func (l *loader) parsed(path string) (*parsed, bool) {
	fi, err := os.Stat(path)
	if err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
		return nil, false // most files of the chain are missing: one stat says so
	}
	if err == nil {
		if id, ok := idOf(fi); ok {
			if p, ok := l.rd.configs.Get(path); ok && p.id == id && p.by == l.key {
				return p, true
			}
		}
	}
	f, err := l.open.Open(path)
	if err != nil {
		var refused *safefile.Refused
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return nil, false
		case errors.As(err, &refused):
			return &parsed{err: fmt.Sprintf("`%s` was not read: %s", path, refused.Reason)}, true
		}
		return &parsed{err: fmt.Sprintf("`%s` cannot be read: %v", path, unwrapPath(err))}, true
	}
	defer f.Close()
	id, _ := fileIDOf(f)
	// Another Opener let the same file through before: its content is the one this Opener just let
	// through.
	if p, ok := l.rd.configs.Get(path); ok && p.id == id {
		return p, true
	}
	p := &parsed{id: id, by: l.key}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	switch {
	case err != nil:
		p.err = fmt.Sprintf("`%s` cannot be read: %v", path, unwrapPath(err))
	case len(data) > maxConfigSize:
		p.err = fmt.Sprintf("`%s` is too big to read", path)
	default:
		if line, perr := ParseConfig(data, func(line int, key, value string, noValue bool) {
			p.entries = append(p.entries, Entry{File: path, Line: line, Key: key, Value: value, NoValue: noValue})
		}); perr != nil {
			p.err = fmt.Sprintf("`%s` does not parse at line %d: %v", path, line, perr)
		}
	}
	l.rd.configs.Put(path, p)
	return p, true
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
