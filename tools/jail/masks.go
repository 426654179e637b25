package jail

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Masks are what a jailed command must not read, and what of the dark homes it may: each masked path is
// covered, inside the jail, by an empty file or directory that nobody may open; the homes are hidden whole
// but for the shown places.
type Masks struct {
	Files []string
	Dirs  []string
	// Dark are the home directories hidden whole (homes.go), as their links resolve; Shown are what of
	// them jailed commands see (the workspace, the additional directories and the places in them), and
	// Links the symbolic links inside them on the way to those.
	Dark  []string
	Shown []string
	Links []Link
	// Incomplete names the first tree that had more entries than are looked at; what of it was not looked
	// at is masked whole (among Dirs). "" when every tree was looked at whole.
	Incomplete string
}

func (m Masks) equal(o Masks) bool {
	return slices.Equal(m.Files, o.Files) && slices.Equal(m.Dirs, o.Dirs) && slices.Equal(m.Dark, o.Dark) &&
		slices.Equal(m.Shown, o.Shown) && slices.Equal(m.Links, o.Links)
}

// all returns every masked path.
func (m Masks) all() []string { return append(append([]string(nil), m.Dirs...), m.Files...) }

// Scan bounds: a workspace (and each additional directory) is looked at up to maxWorkspaceEntries
// entries, a place of a home the person named up to maxPlaceEntries, where a Read rule's paths begin up to
// maxRootEntries; what lies beyond is masked whole. At most maxMasks paths are masked, more being merged
// into the directories that hold them (fewer).
const (
	maxWorkspaceEntries = 200_000
	maxPlaceEntries     = 20_000
	maxRootEntries      = 20_000
	maxMasks            = 20_000
)

// skipInWorkspace are directories a workspace walk does not enter: compiled Python, named by module. A
// secret is a secret wherever it was put, so .git is walked but for its object store (whose names are
// hashes and whose content is the history git must read), and so is other people's code (shallowDirs).
var skipInWorkspace = map[string]bool{"__pycache__": true}

// shallowDirs hold other people's code, tens of thousands of files that each rescan would walk (about 2
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

// gitObjects reports whether path is a git object store (.git/objects), which no walk enters.
func gitObjects(path string) bool {
	return filepath.Base(path) == "objects" && filepath.Base(filepath.Dir(path)) == ".git"
}

// scan finds what the jail hides and shows. The homes are dark (homes.go): only the workspace, the
// additional directories and the places cfg names are shown of them. What is seen is searched for secrets
// (as cfg.Secret judges them: the permission engine's own notion, Read rules included): the workspace and
// the additional directories (cfg.Trees), the places the person named, and below where Read rules' paths
// begin (cfg.Roots); each walk is bounded, and what a walk did not get to is masked whole. Also masked:
// the system's credential stores, the paths given whole (cfg.Hide: Warden's own files), and every name of
// a file that is secret or that has a name no walk found (a hard link to ~/.ssh/id_rsa is the key).
//
// The walk reads directories, and looks closer only at regular files: a name says whether a file is
// secret, and a file's link count whether it has names elsewhere.
func scan(cfg Config) Masks {
	secret := cfg.Secret
	var m Masks
	m.Dark = darkHomes(cfg.Homes)
	isDark := func(p string) bool { return inAny(m.Dark, p) }
	links := map[Link]bool{}
	shown := map[string]bool{}
	// keep notes a path to show, as follow resolved it, and the links on the way, where a home hides them.
	keep := func(real string, ls []Link) {
		for _, l := range ls {
			links[l] = true
		}
		if isDark(real) {
			shown[real] = true
		}
	}
	show := func(p string) (string, bool) {
		if p == "" {
			return "", false
		}
		real, ls, ok := follow(p, isDark)
		if ok {
			keep(real, ls)
		}
		return real, ok
	}
	var trees []string
	for _, t := range append([]string{cfg.Workspace}, cfg.Trees...) {
		if real, ok := show(t); ok {
			trees = append(trees, real)
		}
	}
	// The toolchains' places are not walked, here or inside a walked tree, but looked into where they
	// keep their configuration; the person's places are walked.
	unwalked := map[string]bool{}
	var configs []string
	var places []string
	for _, pl := range cfg.Places {
		if pl.Scan {
			continue
		}
		real, ls, ok := follow(pl.Path, isDark)
		// A toolchain's variable that names a home whole (GOMODCACHE=~) would show it unsearched.
		if ok && !slices.ContainsFunc(m.Dark, func(h string) bool { return within(real, h) }) {
			keep(real, ls)
			unwalked[real] = true
			for _, pattern := range pl.Configs {
				configs = append(configs, filepath.Join(real, pattern))
			}
		}
	}
	for _, pl := range cfg.Places {
		if !pl.Scan {
			continue
		}
		real, ok := show(pl.Path)
		if ok && isDark(real) && !slices.ContainsFunc(slices.Collect(maps.Keys(unwalked)), func(u string) bool { return within(u, real) }) {
			places = append(places, real)
		}
	}

	shownList := sortedKeys(shown)
	files, dirs := map[string]bool{}, map[string]bool{}
	// Hard links: every name of a secret file reads the same content, and so does a name no walk found.
	type names struct {
		paths  []string
		nlink  uint64
		secret bool
	}
	inodes := map[inode]*names{}
	note := func(path string, dev, ino, nlink uint64, isSecret bool) {
		if nlink < 2 && !isSecret {
			return
		}
		k := inode{dev, ino}
		n := inodes[k]
		if n == nil {
			n = &names{nlink: nlink}
			inodes[k] = n
		}
		if !slices.Contains(n.paths, path) {
			n.paths = append(n.paths, path)
		}
		n.secret = n.secret || isSecret
	}
	noteInfo := func(path string, info fs.FileInfo, isSecret bool) {
		if st, ok := info.Sys().(*syscall.Stat_t); ok && info.Mode().IsRegular() {
			note(path, uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), isSecret)
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
					noteInfo(filepath.Join(path, e.Name()), fi, true)
				}
			}
			return
		}
		if info.Mode().IsRegular() {
			files[path] = true
			noteInfo(path, info, true)
		}
	}
	walked := map[string]bool{}
	// keys are the inodes of the homes' credential files, gathered when the walk first meets other
	// people's code.
	var keys map[inode]string
	// walk looks at the tree below root, in order, until it has read limit entries; the directories it
	// did not get to are masked whole.
	walk := func(root string, limit int) {
		if cfg.bound > 0 {
			limit = cfg.bound
		}
		if slices.ContainsFunc(slices.Collect(maps.Keys(walked)), func(w string) bool { return within(w, root) }) {
			return
		}
		walked[root] = true
		if secret(root) {
			add(root)
			return
		}
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			return
		}
		skip := func(path string) bool {
			rel, _ := filepath.Rel(root, path)
			// A dark home inside a walked tree (a workspace holding /home) is hidden: nothing to look for;
			// nor in the kernel's file systems, which the jail has its own of or shows no file of.
			return skipInWorkspace[filepath.Base(path)] || gitObjects(path) || tooDeep(rel) || unwalked[path] ||
				(isDark(path) && !inAny(shownList, path)) || path == "/proc" || path == "/sys" || path == "/dev"
		}
		n := 0
		stack := []string{root}
		for len(stack) > 0 {
			dir := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n >= limit {
				dirs[dir] = true
				if m.Incomplete == "" {
					m.Incomplete = root
				}
				continue
			}
			f, err := os.Open(dir)
			if err != nil {
				continue
			}
			entries, _ := readDirents(f)
			n += len(entries)
			// Package managers link other people's code from their caches (bun, pnpm, uv): a second name
			// there is theirs, unless it is one of the homes' credential files (keys.go).
			rel, _ := filepath.Rel(root, dir)
			pkg := slices.ContainsFunc(strings.Split(rel, "/"), func(p string) bool { return slices.Contains(shallowDirs, p) })
			var dev uint64
			if pkg {
				if keys == nil {
					keys = storeInodes(cfg.Stores)
				}
				var st unix.Stat_t
				if unix.Fstat(int(f.Fd()), &st) == nil {
					dev = uint64(st.Dev)
				}
			}
			var sub []string
			for _, e := range entries {
				path := filepath.Join(dir, e.name)
				switch {
				case secret(path):
					add(path)
				case e.IsDir():
					if !skip(path) {
						sub = append(sub, path)
					}
				case e.IsRegular() && pkg:
					if _, key := keys[inode{dev, e.ino}]; key {
						files[path] = true
					}
				case e.IsRegular():
					// The link count, from the directory already open: a second name is rare, and a stat
					// by path costs twice as much.
					var st unix.Stat_t
					if unix.Fstatat(int(f.Fd()), e.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Nlink > 1 {
						note(path, uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), false)
					}
				}
			}
			f.Close()
			// In order, so that which directories a bound leaves out does not depend on the file system.
			slices.Sort(sub)
			for i := len(sub) - 1; i >= 0; i-- {
				stack = append(stack, sub[i])
			}
		}
	}
	for _, t := range trees {
		walk(t, maxWorkspaceEntries)
	}
	for _, p := range places {
		walk(p, maxPlaceEntries)
	}
	// Where a Read rule's paths begin: a path the rule covers whole is masked as it is; below another
	// (the rule has a wildcard) the paths it covers are found by a walk, unless the walks above see them
	// already, they are in a dark home and not shown, or it would be a walk of everything above a walked
	// tree (a rule such as Read(//**/*.pem)).
	for _, r := range cfg.Roots {
		switch {
		case secret(r):
			add(r)
		case isDark(r) && !inAny(shownList, r):
		case slices.ContainsFunc(trees, func(t string) bool { return within(r, t) }):
		default:
			walk(r, maxRootEntries)
		}
	}
	// A place that is itself secret (a variable naming ~/.ssh, a link there) is masked, walked or not;
	// in one that is not walked, the configuration files the catalogue names, where the toolchain keeps
	// them, and whole a directory of more versions than are looked through.
	for p := range unwalked {
		if secret(p) {
			add(p)
		}
	}
	found, tooMany := toolchainConfigs(configs, cfg.listings)
	for _, p := range found {
		if secret(p) {
			add(p)
		}
	}
	for _, d := range tooMany {
		dirs[d] = true
		if m.Incomplete == "" {
			m.Incomplete = d
		}
	}
	for _, p := range systemSecrets() {
		add(p)
	}
	for _, p := range cfg.Hide {
		add(p)
	}
	for _, n := range inodes {
		if n.secret || uint64(len(n.paths)) < n.nlink {
			for _, p := range n.paths {
				files[p] = true
			}
		}
	}
	// A path below a masked directory needs no mask of its own (and could not get one).
	m.Files, m.Dirs = outermost(files, dirs)
	m.Shown = sortedKeys(shown)
	for l := range links {
		m.Links = append(m.Links, l)
	}
	slices.SortFunc(m.Links, func(a, b Link) int { return strings.Compare(a.Path, b.Path) })
	return m.fewer(maxMasks)
}

// maxConfigEntries bounds the entries read of one directory a toolchain's configuration pattern has a
// wildcard for (its node versions, its environments): a directory with more is no one's toolchain, and is
// hidden whole, as a walk's bound hides what it did not see.
const maxConfigEntries = 1024

// toolchainConfigs returns the paths that patterns (absolute, with wildcards only in whole components)
// name, and the directories whose entries were too many to look through, which are to be hidden whole.
// It reads only the directories a wildcard stands in, each once (ls remembers them between scans), and
// looks no deeper than a pattern says.
func toolchainConfigs(patterns []string, ls *listings) (files, tooMany []string) {
	for _, pat := range patterns {
		cur := []string{"/"}
		for _, comp := range strings.Split(strings.TrimPrefix(pat, "/"), "/") {
			var next []string
			for _, dir := range cur {
				if !strings.ContainsAny(comp, "*?[") {
					next = append(next, filepath.Join(dir, comp))
					continue
				}
				names, ok := ls.read(dir)
				if !ok {
					if !slices.Contains(tooMany, dir) {
						tooMany = append(tooMany, dir)
					}
					continue
				}
				for _, n := range names {
					if ok, _ := filepath.Match(comp, n); ok {
						next = append(next, filepath.Join(dir, n))
					}
				}
			}
			cur = next
		}
		for _, p := range cur {
			if _, err := os.Lstat(p); err == nil {
				files = append(files, p)
			}
		}
	}
	return files, tooMany
}

// listings remembers the directories toolchainConfigs read, each with its identity (device, inode,
// modification and change times), so that a rescan, which follows every command outside the jail, reads
// again only a directory that changed: a stat costs a fraction of a listing. It is safe for concurrent
// use; a nil *listings remembers nothing.
type listings struct {
	mu   sync.Mutex
	dirs map[string]listing
}

type listing struct {
	dev, ino     uint64
	mtime, ctime int64
	names        []string
	tooMany      bool
}

// maxListings bounds what a listings remembers: the directories of a home's toolchains a pattern has a
// wildcard for, a few dozen.
const maxListings = 1024

// read returns the names in dir (none when it cannot be read); ok is false when it holds more than
// maxConfigEntries.
func (ls *listings) read(dir string) (names []string, ok bool) {
	var st unix.Stat_t
	if unix.Stat(dir, &st) != nil {
		return nil, true
	}
	id := listing{dev: uint64(st.Dev), ino: st.Ino, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
	if ls != nil {
		ls.mu.Lock()
		got, known := ls.dirs[dir]
		ls.mu.Unlock()
		if known && got.dev == id.dev && got.ino == id.ino && got.mtime == id.mtime && got.ctime == id.ctime {
			return got.names, !got.tooMany
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, true
	}
	names, _ = f.Readdirnames(maxConfigEntries + 1)
	f.Close()
	id.names, id.tooMany = names, len(names) > maxConfigEntries
	if id.tooMany {
		id.names = nil
	}
	if ls != nil {
		ls.mu.Lock()
		if ls.dirs == nil || len(ls.dirs) >= maxListings {
			ls.dirs = map[string]listing{}
		}
		ls.dirs[dir] = id
		ls.mu.Unlock()
	}
	return id.names, !id.tooMany
}

// outermost returns the files and directories that are not below one of dirs, sorted.
func outermost(files, dirs map[string]bool) ([]string, []string) {
	below := func(p string) bool {
		for d := filepath.Dir(p); ; d = filepath.Dir(d) {
			if dirs[d] {
				return true
			}
			if d == "/" || d == "." {
				return false
			}
		}
	}
	var fs, ds []string
	for f := range files {
		if !below(f) && !dirs[f] {
			fs = append(fs, f)
		}
	}
	for d := range dirs {
		if !below(d) {
			ds = append(ds, d)
		}
	}
	slices.Sort(fs)
	slices.Sort(ds)
	return fs, ds
}

// fewer returns m with at most n masks: where there are more, the directories holding the most masked
// paths are masked in their place, level by level, so that what cannot be masked one by one is hidden with
// what is around it rather than left readable.
func (m Masks) fewer(n int) Masks {
	files, dirs := map[string]bool{}, map[string]bool{}
	for _, f := range m.Files {
		files[f] = true
	}
	for _, d := range m.Dirs {
		dirs[d] = true
	}
	for len(files)+len(dirs) > n && n > 0 {
		byParent := map[string]int{}
		for p := range files {
			byParent[filepath.Dir(p)]++
		}
		for p := range dirs {
			byParent[filepath.Dir(p)]++
		}
		parents := slices.Collect(maps.Keys(byParent))
		slices.SortFunc(parents, func(a, b string) int {
			if c := byParent[b] - byParent[a]; c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		if byParent[parents[0]] < 2 {
			// No directory holds two: one level up for all.
			for _, d := range parents {
				dirs[d] = true
			}
		} else {
			total := len(files) + len(dirs)
			for _, d := range parents {
				if total <= n || byParent[d] < 2 {
					break
				}
				dirs[d] = true
				total -= byParent[d] - 1
			}
		}
		f, d := outermost(files, dirs)
		files, dirs = map[string]bool{}, map[string]bool{}
		for _, p := range f {
			files[p] = true
		}
		for _, p := range d {
			dirs[p] = true
		}
		if m.Incomplete == "" {
			m.Incomplete = fmt.Sprintf("more than %d secret files", n)
		}
	}
	m.Files, m.Dirs = sortedKeys(files), sortedKeys(dirs)
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
