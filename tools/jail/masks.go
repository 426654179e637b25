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

// Scan bounds: a workspace (and each additional directory) is walked whole up to maxWorkspaceEntries
// entries, a home directory to depth homeDepth and maxHomeEntries entries, where a Read rule's paths
// begin up to maxRootEntries entries; at most maxMasks paths are masked.
const (
	maxWorkspaceEntries = 200_000
	maxHomeEntries      = 20_000
	maxRootEntries      = 20_000
	homeDepth           = 3
	maxMasks            = 20_000
)

// skipInWorkspace are directories a workspace walk does not enter: compiled Python, named by module. A
// secret is a secret wherever it was put, so .git is walked but for its object store (whose names are
// hashes and whose content is the history git must read), and so is other people's code (shallowDirs).
var skipInWorkspace = map[string]bool{"__pycache__": true}

// shallowDirs hold other people's code, tens of thousands of files that each rescan would walk (about 6
// µs an entry): they are walked to shallowDepth levels, enough for node_modules/pkg/.env and
// node_modules/@scope/pkg/.env.
var shallowDirs = []string{"node_modules", ".venv", "venv", "vendor", "site-packages"}

const shallowDepth = 3

// tooDeep reports whether rel, a directory's path relative to a walk's root, is shallowDepth levels or
// more below the first of shallowDirs on its way.
func tooDeep(rel string) bool {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		if slices.Contains(shallowDirs, p) {
			return len(parts)-1-i >= shallowDepth
		}
	}
	return false
}

// skipInHome are directories of a home that hold caches and toolchains, not credentials.
var skipInHome = map[string]bool{".cache": true, ".npm": true, ".rustup": true, "go": true, ".vscode-server": true,
	".local/lib": true, ".cargo/registry": true, ".cargo/git": true, ".m2/repository": true, ".gradle/caches": true,
	".nvm": true, ".pyenv": true, ".conda": true, "snap": true}

// gitObjects reports whether path is a git object store (.git/objects), which no walk enters.
func gitObjects(path string) bool {
	return filepath.Base(path) == "objects" && filepath.Base(filepath.Dir(path)) == ".git"
}

// scan finds what to mask: secret files and directories (as cfg.Secret judges them: the permission
// engine's own notion, Read rules included) in the workspace and the additional directories (cfg.Trees),
// below where Read rules' paths begin (cfg.Roots), in the home directories and among the system's, the
// files that are hard links to any of them, and the paths given whole (cfg.Hide: Warden's own files).
//
// The walk reads directories only: a name says whether a file is secret, and the directory entry whether
// it is a directory. Only secret files are looked at more closely; and only when one of them has more than
// one name is the walk made again, looking at every file, to find the others.
func scan(cfg Config) Masks {
	secret := cfg.Secret
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
				if skip[d.Name()] || skip[rel] || skipInHome[rel] || gitObjects(path) || tooDeep(rel) ||
					(depth > 0 && strings.Count(rel, "/")+1 >= depth) {
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
	walked := func(p string) bool {
		return slices.ContainsFunc(trees, func(t tree) bool { return t.depth == 0 && within(t.root, p) })
	}
	for _, ws := range append([]string{cfg.Workspace}, cfg.Trees...) {
		if ws != "" && !walked(ws) {
			trees = append(trees, tree{ws, maxWorkspaceEntries, 0, skipInWorkspace})
		}
	}
	for _, h := range cfg.Homes {
		trees = append(trees, tree{h, maxHomeEntries, homeDepth, skipInHome})
	}
	// Where a Read rule's paths begin: a path the rule covers whole is masked as it is; below another
	// (the rule has a wildcard) the paths it covers are found by a walk, unless the walks above see them
	// already or it would be a walk of everything above them (a rule such as Read(//**/*.pem)).
	var roots []tree
	for _, r := range cfg.Roots {
		switch {
		case secret(r):
			add(r)
		case walked(r) || slices.ContainsFunc(trees, func(t tree) bool { return within(r, t.root) }) ||
			slices.ContainsFunc(roots, func(t tree) bool { return within(t.root, r) }):
		default:
			roots = append(roots, tree{r, maxRootEntries, 0, skipInWorkspace})
		}
	}
	trees = append(trees, roots...)
	for _, t := range trees {
		if !walk(t.root, t.limit, t.depth, t.skip, nil) && m.Incomplete == "" {
			m.Incomplete = t.root
		}
	}
	for _, p := range systemSecrets() {
		add(p)
	}
	for _, p := range cfg.Hide {
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
			m.Incomplete = cfg.Workspace
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
