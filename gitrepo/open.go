package gitrepo

import (
	"bytes"
	"io"
	"path/filepath"

	"github.com/warden-cli/warden/safefile"
)

// Which reads go through an Opener. Whoever controls a repository chooses what stands at every path git
// reads, and can make any of them a link to a key, to /proc/self/environ, or to a FIFO. The files whose
// content Warden acts on or may quote (a .git file, the configuration and what it includes, the index)
// are opened through a safefile.Opener, which knows the workspace and the secret places and refuses a
// link out of one or into the other. The object store, refs and HEAD, which are read by the dozen inside
// a git directory already found, are opened with safefile.OpenRegular: a regular file, never waited on.

// opener returns o, or when o is nil rd.Opener(r).
func (rd *Reader) opener(r Repo, o *safefile.Opener) *safefile.Opener {
	if o != nil {
		return o
	}
	return rd.Opener(r)
}

// Opener is the Opener a repository's own files are read with when the caller has none: links may not
// lead out of the work tree or the git directories, and only regular files (of up to 64 MiB; readers
// bound their own files further) are read. The Reader gives the same repository the same Opener: an
// Opener resolves its directories when it is made, and what was parsed is taken from the Reader's
// memory only when the same Opener let the file through, so an unchanged file costs one stat.
func (rd *Reader) Opener(r Repo) *safefile.Opener {
	return rd.defaultOpener(r.Top, r.GitDir, r.CommonDir)
}

func (rd *Reader) defaultOpener(dirs ...string) *safefile.Opener {
	var key [3]string
	copy(key[:], dirs)
	if o, ok := rd.openers.Get(key); ok {
		return o
	}
	var within []string
	for _, d := range dirs {
		if d != "" {
			within = append(within, d)
		}
	}
	o := safefile.NewOpener(within, nil, maxIndexSize)
	rd.openers.Put(key, o)
	return o
}

// maxGitFileSize bounds a .git file; git's own is one short line.
const maxGitFileSize = 64 << 10

// readGitFile reads a .git file ("gitdir: PATH") through o (nil: links kept inside the directory that
// holds it) and returns the directory it names, or "" when it is not one, or cannot or may not be read.
func (rd *Reader) readGitFile(path string, o *safefile.Opener) string {
	if o == nil {
		o = rd.defaultOpener(filepath.Dir(path))
	}
	f, err := o.WithMaxSize(maxGitFileSize).Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGitFileSize))
	if err != nil {
		return ""
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("gitdir: "))
	if !ok || len(rest) == 0 {
		return ""
	}
	dir := string(rest)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	return filepath.Clean(dir)
}
