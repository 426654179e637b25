package permissions

// Reads of git's object store and of hard links: a file under .git/objects (a loose object, a pack) is
// every version of every file the repository ever tracked, compressed; a hard link is the very file it
// links to under another name. Both are judged as what they really are.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/warden-cli/warden/permissions/gitrepo"
)

// objectStore returns the repository whose object store holds path (resolved): a path below a
// directory named objects whose parent is a git directory.
func objectStore(path string) (gitrepo.Repo, bool) {
	if !strings.Contains(path, "/objects") {
		return gitrepo.Repo{}, false
	}
	for d := filepath.Dir(path); d != "/" && d != "."; d = filepath.Dir(d) {
		if filepath.Base(d) != "objects" {
			continue
		}
		gitDir := filepath.Dir(d)
		if !gitrepo.IsGitDir(gitDir, nil) {
			continue
		}
		r := gitrepo.Repo{GitDir: gitDir, CommonDir: gitDir}
		if filepath.Base(gitDir) == ".git" {
			r.Top = filepath.Dir(gitDir)
		}
		return r, true
	}
	// The objects directory itself.
	if filepath.Base(path) == "objects" && gitrepo.IsGitDir(filepath.Dir(path), nil) {
		r := gitrepo.Repo{GitDir: filepath.Dir(path), CommonDir: filepath.Dir(path)}
		if filepath.Base(r.GitDir) == ".git" {
			r.Top = filepath.Dir(r.GitDir)
		}
		return r, true
	}
	return gitrepo.Repo{}, false
}

// objectRead records that the part reads a repository's object store: like a secret, it asks, and a
// deny rule naming any path the repository ever tracked denies it (historyDenied).
func (c *classifier) objectRead(p *Part, r gitrepo.Repo, operand string) {
	p.objects = append(p.objects, r)
	if !p.Secret {
		p.Secret = true
		if p.ReadOnly {
			p.Reason = fmt.Sprintf("reads `%s` in git's object store, which holds every version of every file the repository ever tracked", operand)
		}
	}
}

// historyDenied returns the deny rule naming a path that a repository whose object store the part reads
// ever tracked (in its history or its index), and that path.
func (e *Engine) historyDenied(rules []Rule, p *Part) (Rule, string, bool) {
	reads := pathRules(rules, Read)
	if len(reads) == 0 {
		return Rule{}, "", false
	}
	for _, r := range p.objects {
		if r.Top == "" {
			continue
		}
		var paths []string
		if h, err := gitrepo.ReadHistoryWithin(r, e.policy.Env, historyBudget); err == nil {
			paths = h.Paths
		}
		if idx, ok := gitrepo.ReadIndex(r); ok {
			paths = append(paths, idx.Paths...)
		}
		for _, path := range paths {
			if rule, ok := firstPathMatch(reads, filepath.Join(r.Top, path)); ok {
				return rule, path, true
			}
		}
	}
	return Rule{}, "", false
}

// A hard link is found by its device and inode: a search of the workspace, the additional directories
// and the home directory's secret places for other names of the same file. The workspace's directories
// are listed once and then only when their modification time changes.

type inode struct{ dev, ino uint64 }

// maxLinkSearch bounds the entries one search for other names looks at; past it the read asks.
const maxLinkSearch = 200000

// linkedDir is one listed directory: its regular files by inode (all of them, since a file's link count
// changes without its directory changing), and its subdirectories.
type linkedDir struct {
	mtime, ctime int64
	ino          uint64
	links        map[inode][]string
	subdirs      []string
	entries      int
}

var (
	linkMu   sync.Mutex
	linkDirs = map[string]*linkedDir{}
)

// homeSecretPlaces are where a home directory keeps credentials, below it.
var homeSecretPlaces = []string{".ssh", ".aws", ".gnupg", ".kube", ".azure", ".docker", ".config/gh", ".config/gcloud",
	".netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass", ".my.cnf", ".vault-token", ".cargo/credentials.toml",
	".cargo/credentials", ".m2/settings.xml", ".gradle/gradle.properties", ".bash_history", ".zsh_history", ".password-store"}

// hardLinks adds to the part's reads the other names of the file at path, when it has more than one:
// a hard link to .env is read as .env, for secrets and deny rules alike.
func (c *classifier) hardLinks(p *Part, path string, sc *scope) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 {
		return
	}
	target := inode{uint64(st.Dev), st.Ino}
	path = ResolvePath("/", path, "")
	roots := c.rootsList()
	var found []string
	complete := true
	budget := maxLinkSearch
	for _, r := range roots {
		names, ok := searchLinks(r, target, &budget)
		found = append(found, names...)
		complete = complete && ok
	}
	if h := c.ctx.Home; h != "" {
		for _, place := range homeSecretPlaces {
			p := filepath.Join(h, place)
			fi, err := os.Lstat(p)
			switch {
			case err != nil:
			case fi.IsDir():
				names, ok := searchLinks(p, target, &budget)
				found = append(found, names...)
				complete = complete && ok
			case sameFile(fi, target):
				found = append(found, p)
			}
		}
	}
	if !complete {
		p.notRO(fmt.Sprintf("`%s` has other names (hard links) that Warden could not all look for", c.shownPath(path)))
	}
	for _, other := range found {
		if other != path {
			c.readOne(p, other, other, sc, false)
		}
	}
}

// hardLinksOf is hardLinks for the files a walk found with other names, in one search.
func (c *classifier) hardLinksOf(p *Part, paths []string, sc *scope) {
	if len(paths) == 0 || p.Secret {
		return
	}
	targets := map[inode]string{}
	for _, path := range paths {
		var st syscall.Stat_t
		if syscall.Stat(path, &st) == nil && st.Nlink > 1 {
			targets[inode{uint64(st.Dev), st.Ino}] = path
		}
	}
	if len(targets) == 0 {
		return
	}
	budget := maxLinkSearch
	complete := true
	var found []string
	search := func(root string) {
		names, ok := searchLinksOf(root, targets, &budget)
		found = append(found, names...)
		complete = complete && ok
	}
	for _, r := range c.rootsList() {
		search(r)
	}
	if h := c.ctx.Home; h != "" {
		for _, place := range homeSecretPlaces {
			if fi, err := os.Lstat(filepath.Join(h, place)); err == nil && fi.IsDir() {
				search(filepath.Join(h, place))
			} else if err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && fi.Mode().IsRegular() {
					if _, hit := targets[inode{uint64(st.Dev), st.Ino}]; hit {
						found = append(found, filepath.Join(h, place))
					}
				}
			}
		}
	}
	if !complete {
		p.notRO("files read have other names (hard links) that Warden could not all look for")
	}
	for _, other := range found {
		c.readOne(p, other, other, sc, false)
		if p.Secret {
			return
		}
	}
}

// searchLinksOf is searchLinks for a set of files.
func searchLinksOf(root string, targets map[inode]string, budget *int) ([]string, bool) {
	var found []string
	stack := []string{root}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ld := listLinked(dir)
		if ld == nil {
			continue
		}
		if *budget -= ld.entries + 1; *budget < 0 {
			return found, false
		}
		for k, names := range ld.links {
			if _, hit := targets[k]; hit {
				for _, name := range names {
					found = append(found, filepath.Join(dir, name))
				}
			}
		}
		for _, sub := range ld.subdirs {
			stack = append(stack, filepath.Join(dir, sub))
		}
	}
	return found, true
}

func sameFile(fi os.FileInfo, target inode) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && inode{uint64(st.Dev), st.Ino} == target
}

// searchLinks returns the names below root of the file target. ok is false when the search stopped at
// the budget.
func searchLinks(root string, target inode, budget *int) ([]string, bool) {
	var found []string
	stack := []string{root}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ld := listLinked(dir)
		if ld == nil {
			continue
		}
		if *budget -= ld.entries + 1; *budget < 0 {
			return found, false
		}
		for _, name := range ld.links[target] {
			found = append(found, filepath.Join(dir, name))
		}
		for _, sub := range ld.subdirs {
			stack = append(stack, filepath.Join(dir, sub))
		}
	}
	return found, true
}

// listLinked returns dir's listing, from the cache while dir has not changed.
func listLinked(dir string) *linkedDir {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return nil
	}
	mtime, ctime := fi.ModTime().UnixNano(), st.Ctim.Sec*1e9+st.Ctim.Nsec
	linkMu.Lock()
	ld := linkDirs[dir]
	linkMu.Unlock()
	if ld != nil && ld.mtime == mtime && ld.ctime == ctime && ld.ino == st.Ino {
		return ld
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	ld = &linkedDir{mtime: mtime, ctime: ctime, ino: st.Ino, links: map[inode][]string{}, entries: len(entries)}
	for _, en := range entries {
		switch {
		case en.IsDir():
			ld.subdirs = append(ld.subdirs, en.Name())
		case en.Type().IsRegular():
			info, err := en.Info()
			if err != nil {
				continue
			}
			if s, ok := info.Sys().(*syscall.Stat_t); ok {
				k := inode{uint64(s.Dev), s.Ino}
				ld.links[k] = append(ld.links[k], en.Name())
			}
		}
	}
	linkMu.Lock()
	if len(linkDirs) > 100000 {
		clear(linkDirs)
	}
	linkDirs[dir] = ld
	linkMu.Unlock()
	return ld
}
