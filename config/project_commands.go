package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/safefile"
)

// The project's commands and skills put words in the person's mouth and in the model's: a command file
// is sent as if typed, a skill's instructions are followed. They are approved as one set, the item of
// key "commands", whose digest covers the names and contents of every file in the four folders, so that
// a pull that adds a command or edits a skill's script is asked about again.

// ProjectCommandFolders are the project's folders of commands and skills, relative to the workspace.
var ProjectCommandFolders = []string{".warden/commands", ".claude/commands", ".warden/skills", ".claude/skills"}

// Bounds of the walk: a repository chooses how much stands in its folders, and the walk is made at
// every start. Past maxDigestBytes files are hashed by their size and time of change instead of their
// contents, which a checkout of other contents changes too.
const (
	maxCommandDepth = 8
	maxCommandFiles = 4096
	maxDigestBytes  = 32 << 20
)

// folderDigest hashes the folders' files as it walks them, and collects the names of the commands and
// skills among them.
type folderDigest struct {
	o     *safefile.Opener
	h     hash.Hash
	files int
	bytes int64
	seen  map[[2]uint64]bool
	names []string
	// commands are the names a person types, without the slash: the commands' and the skills'.
	commands []string
	folders  []string
}

// addProjectCommands adds the item of the project's commands and skills, if its folders hold any file,
// and says whether they may be used.
func (c *Config) addProjectCommands(o *safefile.Opener) {
	d := &folderDigest{o: o, h: sha256.New(), seen: map[[2]uint64]bool{}}
	for _, rel := range ProjectCommandFolders {
		before := d.files
		d.walk(filepath.Join(c.Workspace, filepath.FromSlash(rel)), rel, 0)
		if d.files > before {
			d.folders = append(d.folders, rel)
		}
	}
	if d.files == 0 {
		return
	}
	what := "files"
	if d.files == 1 {
		what = "file"
	}
	text := fmt.Sprintf("the project's commands and skills (%d %s in %s)", d.files, what, strings.Join(d.folders, ", "))
	if len(d.names) > 0 {
		text += ": " + strings.Join(d.names, ", ")
	}
	it := TrustItem{Key: "commands", Digest: "sha256:" + hex.EncodeToString(d.h.Sum(nil)), Text: printable.Escape(text)}
	it.Commands = d.commands
	c.ProjectCommands = c.judge(it)
}

// walk hashes what stands in dir (rel from the workspace) and below it. Folders are opened through the
// opener, links to folders included, and each is read once, as the commands are read; a file or folder
// the opener refuses counts by its name, since nothing of it is used.
func (d *folderDigest) walk(dir, rel string, depth int) {
	f, err := d.o.OpenDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(d.h, "refused %q\n", rel)
		}
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			id := [2]uint64{uint64(st.Dev), st.Ino}
			if d.seen[id] {
				fmt.Fprintf(d.h, "again %q\n", rel)
				return
			}
			d.seen[id] = true
		}
	}
	entries, _ := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		p, r := filepath.Join(dir, e.Name()), rel+"/"+e.Name()
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p) // where it leads is judged when it is opened
			if err != nil {
				continue // a link to nothing is nothing the loaders use
			}
			isDir = fi.IsDir()
		}
		if isDir {
			if depth == 0 && strings.HasSuffix(path.Dir(r), "/skills") {
				d.name("skill "+e.Name(), e.Name())
			}
			if depth < maxCommandDepth {
				fmt.Fprintf(d.h, "folder %q\n", r)
				d.walk(p, r, depth+1)
			}
			continue
		}
		if d.files++; d.files > maxCommandFiles {
			fmt.Fprintf(d.h, "more files\n")
			return
		}
		d.file(p, r)
		if name, ok := commandName(r); ok {
			d.name("/"+name, name)
		}
	}
}

// file hashes one file: its name, then its contents or, past the bound, its size and time of change.
func (d *folderDigest) file(p, rel string) {
	if d.bytes > maxDigestBytes {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(d.h, "file %q %d %d\n", rel, fi.Size(), fi.ModTime().UnixNano())
		}
		return
	}
	data, err := d.o.ReadFile(p)
	if err != nil {
		fmt.Fprintf(d.h, "refused %q\n", rel)
		return
	}
	d.bytes += int64(len(data))
	fmt.Fprintf(d.h, "file %q %d\n", rel, len(data))
	d.h.Write(data)
}

// name notes a command or skill: as shown, and as typed.
func (d *folderDigest) name(shown, typed string) {
	if shown = printable.Escape(shown); !slices.Contains(d.names, shown) {
		d.names = append(d.names, shown)
	}
	if !slices.Contains(d.commands, typed) {
		d.commands = append(d.commands, typed)
	}
}

// commandName is the command a file of a commands folder defines (review.md is review, frontend/x.md is
// frontend:x), as the commands package names them.
func commandName(rel string) (string, bool) {
	for _, dir := range []string{".warden/commands/", ".claude/commands/"} {
		if inside, ok := strings.CutPrefix(rel, dir); ok && strings.HasSuffix(strings.ToLower(inside), ".md") {
			return strings.ReplaceAll(inside[:len(inside)-len(".md")], "/", ":"), true
		}
	}
	return "", false
}
