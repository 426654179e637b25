package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A project's hook item covers the files of the workspace its command names, since what a hook does is
// mostly in the script it runs ("$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh, python3 scripts/lint.py):
// approving the command line alone would let a pull change what runs under the same approval. The
// command's words are read as the shell would find a file in them (quotes taken off, the project's
// directory put for $CLAUDE_PROJECT_DIR, a relative name read from the workspace, where hooks run); each
// that is a file inside the workspace is hashed. A name that is no file now counts by its absence, so a
// pull that adds the file changes the item too.

// fileHash is one file a hook's command names, as its item records it.
type fileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	// Other says what stands there when it is not a file Warden reads (a link out, a file too large),
	// with its size and time of change, which a checkout of other contents changes too.
	Other string `json:"other,omitempty"`
}

// maxHookFileBytes bounds what is hashed of one file: a script is small, and the walk is made at every
// start.
const maxHookFileBytes = 64 << 20

// namedFiles are the files of the workspace that command names, in the order named.
func (c *Config) namedFiles(command string) []fileHash {
	var out []fileHash
	for _, w := range commandWords(command) {
		w = strings.NewReplacer("${CLAUDE_PROJECT_DIR}", c.Workspace, "$CLAUDE_PROJECT_DIR", c.Workspace).Replace(w)
		if w == "" || strings.ContainsAny(w, "$`*?[") {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Workspace, p)
		}
		rel, err := filepath.Rel(c.Workspace, filepath.Clean(p))
		if err != nil || !filepath.IsLocal(rel) || slices.ContainsFunc(out, func(f fileHash) bool { return f.Path == filepath.ToSlash(rel) }) {
			continue
		}
		if fh, ok := c.hashFile(p, filepath.ToSlash(rel)); ok {
			out = append(out, fh)
		}
	}
	return out
}

// hashFile hashes the file at p, named rel; false when nothing but a folder stands there, or nothing.
func (c *Config) hashFile(p, rel string) (fileHash, bool) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileHash{Path: rel, Other: "absent"}, true
	case err != nil:
		return fileHash{Path: rel, Other: err.Error()}, true
	case fi.IsDir():
		return fileHash{}, false
	}
	other := fileHash{Path: rel, Other: fmt.Sprintf("%s %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())}
	f, err := c.opener.WithMaxSize(maxHookFileBytes).Open(p)
	if err != nil {
		return other, true
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHookFileBytes)); err != nil {
		return other, true
	}
	return fileHash{Path: rel, SHA256: hex.EncodeToString(h.Sum(nil))}, true
}

// commandWords splits a command line where the shell would split it into words and commands, with the
// quotes taken off; a word NAME=VALUE (an assignment, an option) also gives VALUE.
func commandWords(command string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	flush := func() {
		if cur.Len() > 0 {
			w := cur.String()
			words = append(words, w)
			if _, v, ok := strings.Cut(w, "="); ok && v != "" {
				words = append(words, v)
			}
			cur.Reset()
		}
	}
	for _, r := range command {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote = r
		case strings.ContainsRune(" \t\n;|&()<>", r):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return words
}
