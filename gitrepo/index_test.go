package gitrepo

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rawEntry is an index entry as bytes are written, so that tests can write what git never would.
type rawEntry struct {
	path     string
	mode     uint32
	nameLen  int    // the length the flags claim; -1: the path's own
	extended uint16 // written when not 0 (version 3)
	stage    uint16
}

// indexFile writes an index of the given version (2 or 3) holding entries, with its checksum.
func indexFile(version uint32, entries ...rawEntry) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, version)
	binary.Write(&b, binary.BigEndian, uint32(len(entries)))
	for _, e := range entries {
		start := b.Len()
		fixed := make([]byte, 62)
		mode := e.mode
		if mode == 0 {
			mode = 0o100644
		}
		binary.BigEndian.PutUint32(fixed[24:], mode)
		n := e.nameLen
		if n < 0 {
			n = min(len(e.path), 0xfff)
		}
		flags := uint16(n) | e.stage<<12
		if e.extended != 0 {
			flags |= 0x4000
		}
		binary.BigEndian.PutUint16(fixed[60:], flags)
		b.Write(fixed)
		if e.extended != 0 {
			binary.Write(&b, binary.BigEndian, e.extended)
		}
		b.WriteString(e.path)
		b.WriteByte(0)
		for (b.Len()-start)%8 != 0 {
			b.WriteByte(0)
		}
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// TestParseIndexReadsPathsAsGitDoes: git reads an index whatever its paths say (ls-files prints a crafted
// `../x`), so the parser lists them as they are, and the flags and stages of each; what git would read
// otherwise than the bytes show, or refuses, is refused whole.
func TestParseIndexReadsPathsAsGitDoes(t *testing.T) {
	idx, ok := parseIndex(indexFile(3,
		rawEntry{path: "../home-secret", nameLen: -1},
		rawEntry{path: "a", nameLen: -1, stage: 1}, rawEntry{path: "a", nameLen: -1, stage: 2},
		rawEntry{path: "sparse/x", nameLen: -1, extended: 0x4000},
		rawEntry{path: "sub", nameLen: -1, mode: 0o160000}))
	if !ok {
		t.Fatal("a well-formed index was refused")
	}
	if want := []string{"../home-secret", "a", "a", "sparse/x", "sub"}; !slices.Equal(idx.Paths, want) {
		t.Errorf("paths %q, want %q", idx.Paths, want)
	}
	if e := idx.Entries[2]; e.Stage != 2 || e.SkipWorktree {
		t.Errorf("the unmerged entry: %+v", e)
	}
	if e := idx.Entries[3]; !e.SkipWorktree || e.Stage != 0 {
		t.Errorf("the skip-worktree entry: %+v", e)
	}
	if !slices.Equal(idx.Gitlinks, []string{"sub"}) {
		t.Errorf("gitlinks %q", idx.Gitlinks)
	}
	for name, data := range map[string][]byte{
		"a length shorter than the path": indexFile(2, rawEntry{path: "abcdef", nameLen: 3}),
		"a length longer than the path":  indexFile(2, rawEntry{path: "abc", nameLen: 9}),
		"a NUL inside the path":          indexFile(2, rawEntry{path: "ab\x00cd", nameLen: 5}),
		"an extended flag git refuses":   indexFile(3, rawEntry{path: "a", nameLen: -1, extended: 0x0001}),
		"an extended flag in version 2":  indexFile(2, rawEntry{path: "a", nameLen: -1, extended: 0x4000}),
		"more entries than the file":     append(indexFile(2, rawEntry{path: "a", nameLen: -1})[:8], 0, 0, 0, 9),
		"a truncated entry":              indexFile(2, rawEntry{path: "a", nameLen: -1})[:30],
		"an extension git must know":     withExtension(indexFile(2, rawEntry{path: "a", nameLen: -1}), "link"),
		"a bad signature":                append([]byte("DIRX"), indexFile(2)[4:]...),
		"a version git has not":          append([]byte("DIRC\x00\x00\x00\x05"), indexFile(2)[8:]...),
	} {
		if _, ok := parseIndex(data); ok {
			t.Errorf("%s: read as complete", name)
		}
	}
}

// withExtension adds an extension with the signature sig (empty) before the checksum.
func withExtension(index []byte, sig string) []byte {
	body := append([]byte(nil), index[:len(index)-20]...)
	body = append(body, sig...)
	body = append(body, 0, 0, 0, 0)
	sum := sha1.Sum(body)
	return append(body, sum[:]...)
}

// TestReadIndexMatchesGitLsFiles: what the parser lists of git's own indexes, versions 2 to 4, with
// unmerged paths, is what `git ls-files --stage` prints.
func TestReadIndexMatchesGitLsFiles(t *testing.T) {
	needGit(t)
	rd := NewReader()
	dir := tempDir(t)
	git(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "c.txt"), "base\n")
	write(t, filepath.Join(dir, "deep/a/b/c/d.txt"), "d\n")
	write(t, filepath.Join(dir, strings.Repeat("long/", 40)+"x"), "x\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "base")
	git(t, dir, "checkout", "-qb", "other")
	write(t, filepath.Join(dir, "c.txt"), "other\n")
	git(t, dir, "commit", "-qam", "other")
	git(t, dir, "checkout", "-q", "main")
	write(t, filepath.Join(dir, "c.txt"), "main\n")
	git(t, dir, "commit", "-qam", "main")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = dir
	cmd.Run() // conflicts: c.txt has stages 1, 2 and 3
	r, _ := rd.Find(dir, nil, nil)
	for _, v := range []string{"2", "3", "4"} {
		git(t, dir, "update-index", "--index-version", v)
		var want []string
		for _, line := range strings.Split(strings.TrimSpace(git(t, dir, "ls-files", "--stage")), "\n") {
			meta, path, _ := strings.Cut(line, "\t")
			f := strings.Fields(meta)
			want = append(want, f[0]+" "+f[2]+" "+path)
		}
		idx, ok := rd.ReadIndex(r, nil)
		if !ok {
			t.Fatalf("version %s: not read", v)
		}
		var got []string
		for _, e := range idx.Entries {
			got = append(got, strconv.FormatUint(uint64(e.Mode), 8)+" "+strconv.Itoa(e.Stage)+" "+e.Path)
		}
		if !slices.Equal(got, want) {
			t.Errorf("version %s:\n got  %q\n want %q", v, got, want)
		}
	}
}
