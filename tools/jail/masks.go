package jail

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Masks are the paths a jailed command must not read: each is covered, inside the jail, by an empty file
// or directory that nobody may open.
type Masks struct {
	Files []string
	Dirs  []string
	// Incomplete names a tree that had more entries than are looked at, so that a secret deeper in it may
	// have been missed; "" when every tree was looked at whole.
	Incomplete string
}

func (m Masks) equal(o Masks) bool {
	return slices.Equal(m.Files, o.Files) && slices.Equal(m.Dirs, o.Dirs)
}

// all returns every masked path.
func (m Masks) all() []string { return append(append([]string(nil), m.Dirs...), m.Files...) }

// Scan bounds: a workspace is walked whole up to maxWorkspaceEntries entries, a home directory to depth
// homeDepth and maxHomeEntries entries; at most maxMasks paths are masked.
const (
	maxWorkspaceEntries = 200_000
	maxHomeEntries      = 20_000
	homeDepth           = 3
	maxMasks            = 20_000
)

// skipInWorkspace are directories a workspace walk does not enter: they hold other people's code, not the
// person's secrets, and can be huge. The repository's own object store is read through git, not masked.
var skipInWorkspace = map[string]bool{".git": true, "node_modules": true, ".venv": true, "__pycache__": true}

// skipInHome are directories of a home that hold caches and toolchains, not credentials.
var skipInHome = map[string]bool{".cache": true, ".npm": true, ".rustup": true, "go": true, ".vscode-server": true,
	".local/lib": true, ".cargo/registry": true, ".cargo/git": true, ".m2/repository": true, ".gradle/caches": true,
	".nvm": true, ".pyenv": true, ".gem": true, ".conda": true, "snap": true, ".mozilla": true, ".git": true}

// scan finds what to mask: secret files and directories (as secret judges them: the permission engine's
// own notion) in the workspace, in the home directories and among the system's, the files that are hard
// links to any of them, and the extra paths given whole (Warden's own session files).
//
// The walk reads directories only: a name says whether a file is secret, and the directory entry whether
// it is a directory. Only secret files are looked at more closely; and only when one of them has more than
// one name is the walk made again, looking at every file, to find the others.
func scan(secret func(string) bool, workspace string, homes, extra []string) Masks {
	var m Masks
	files, dirs := map[string]bool{}, map[string]bool{}
	// Hard links: a second name of a secret file reads the same content.
	type inode struct{ dev, ino uint64 }
	secretInodes := map[inode]bool{}
	linked := false // a secret file has more than one name
	note := func(info fs.FileInfo) {
		st, ok := info.Sys().(*syscall.Stat_t)
		if ok && info.Mode().IsRegular() {
			secretInodes[inode{uint64(st.Dev), uint64(st.Ino)}] = true
			linked = linked || st.Nlink > 1
		}
	}
	add := func(path string) {
		info, err := os.Lstat(path)
		if err != nil {
			return
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			// A mount lands on what a link points to: mask the target, whatever its own name.
			target, err := filepath.EvalSymlinks(path)
			if err != nil {
				return
			}
			if info, err = os.Stat(target); err != nil {
				return
			}
			path = target
		}
		if info.IsDir() {
			dirs[path] = true
			// The files directly in a secret directory may have second names elsewhere.
			entries, _ := os.ReadDir(path)
			for i, e := range entries {
				if i >= 1000 {
					break
				}
				if fi, err := e.Info(); err == nil {
					note(fi)
				}
			}
			return
		}
		if info.Mode().IsRegular() {
			files[path] = true
			note(info)
		}
	}
	// walk calls visit with every file (not directory) below root that it does not mask, and reports
	// whether it saw the whole tree.
	walk := func(root string, limit, depth int, skip map[string]bool, visit func(path string, d fs.DirEntry)) bool {
		n := 0
		complete := true
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > limit {
				complete = false
				return filepath.SkipAll
			}
			if path == root {
				return nil
			}
			if secret(path) {
				add(path)
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				// A home's caches are skipped in a workspace too: the workspace may be a home.
				if skip[d.Name()] || skip[rel] || skipInHome[rel] || (depth > 0 && strings.Count(rel, "/")+1 >= depth) {
					return filepath.SkipDir
				}
				return nil
			}
			if visit != nil {
				visit(path, d)
			}
			return nil
		})
		return complete
	}
	type tree struct {
		root         string
		limit, depth int
		skip         map[string]bool
	}
	var trees []tree
	if workspace != "" {
		trees = append(trees, tree{workspace, maxWorkspaceEntries, 0, skipInWorkspace})
	}
	for _, h := range homes {
		trees = append(trees, tree{h, maxHomeEntries, homeDepth, skipInHome})
	}
	for _, t := range trees {
		if !walk(t.root, t.limit, t.depth, t.skip, nil) && m.Incomplete == "" {
			m.Incomplete = t.root
		}
	}
	for _, p := range systemSecrets() {
		add(p)
	}
	for _, p := range extra {
		add(p)
	}
	if linked {
		for _, t := range trees {
			walk(t.root, t.limit, t.depth, t.skip, func(path string, d fs.DirEntry) {
				if !d.Type().IsRegular() {
					return
				}
				if info, err := d.Info(); err == nil {
					if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 &&
						secretInodes[inode{uint64(st.Dev), uint64(st.Ino)}] {
						files[path] = true
					}
				}
			})
		}
	}
	// A path below a masked directory needs no mask of its own (and could not get one).
	for d := range dirs {
		for p := range files {
			if within(d, p) {
				delete(files, p)
			}
		}
		for o := range dirs {
			if o != d && within(d, o) {
				delete(dirs, o)
			}
		}
	}
	m.Files, m.Dirs = sortedKeys(files), sortedKeys(dirs)
	if len(m.Files)+len(m.Dirs) > maxMasks {
		m.Files = m.Files[:max(0, maxMasks-len(m.Dirs))]
		if m.Incomplete == "" {
			m.Incomplete = workspace
		}
	}
	return m
}

// systemSecrets are the places outside homes where the system keeps keys and credentials.
func systemSecrets() []string {
	out := []string{"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers",
		"/etc/ssl/private", "/run/secrets", "/var/run/secrets", "/etc/krb5.keytab"}
	keys, _ := filepath.Glob("/etc/ssh/ssh_host_*_key")
	out = append(out, keys...)
	// Kerberos tickets live in /tmp, which bubblewrap replaces and Landlock cannot.
	tickets, _ := filepath.Glob("/tmp/krb5cc*")
	return append(out, tickets...)
}

// Homes are the home directories to look for secrets in: the person's, and, when Warden runs as root and
// can read them all, everyone's.
func Homes(home string) []string {
	out := []string{}
	if home != "" {
		out = append(out, home)
	}
	if os.Geteuid() == 0 {
		more, _ := filepath.Glob("/home/*")
		for _, h := range append(more, "/root") {
			if fi, err := os.Stat(h); err == nil && fi.IsDir() && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
