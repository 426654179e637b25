package gitrepo

import (
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/safefile"
)

// The conditions of includeIf.<condition>.path, evaluated as git evaluates them (its config.c): under
// the policy AsGit an include is read only when its condition holds; under Everything always.

// holds reports whether the include variable e, read from the file from ("" for the environment), is
// to be followed.
func (l *loader) holds(e Entry, from string) bool {
	if e.Key == "include.path" || l.policy == Everything {
		return true
	}
	cond := e.Key[len("includeif.") : len(e.Key)-len(".path")]
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return l.gitdirMatches(cond[len("gitdir:"):], from, false)
	case strings.HasPrefix(cond, "gitdir/i:"):
		return l.gitdirMatches(cond[len("gitdir/i:"):], from, true)
	case strings.HasPrefix(cond, "onbranch:"):
		return l.onBranch(cond[len("onbranch:"):])
	case strings.HasPrefix(cond, "hasconfig:remote.*.url:"):
		l.sawHasconfig = true
		if l.collecting {
			return true
		}
		pattern := cond[len("hasconfig:remote.*.url:"):]
		for _, url := range l.remoteURLs {
			if Wildmatch(pattern, url, true, false) {
				return true
			}
		}
	}
	// git takes a condition it does not know for false.
	return false
}

// gitdirMatches is gitdir: and gitdir/i: (fold). The pattern has `~` expanded; one starting with `./` is
// relative to the directory of the file it is in, with that file's links resolved, and that directory is
// compared literally; any other relative pattern matches at any depth (`**/` is put before it); one
// ending in `/` matches everything below (`**` is put after it). It is matched against the git directory
// with its links resolved, and failing that, as written.
func (l *loader) gitdirMatches(pattern, from string, fold bool) bool {
	if l.repo.GitDir == "" {
		return false
	}
	pattern = ExpandPath(pattern, l.home)
	prefix := 0
	switch {
	case strings.HasPrefix(pattern, "./"):
		if from == "" {
			return false // git: relative config include conditionals must come from files
		}
		real, err := filepath.EvalSymlinks(from)
		if err != nil {
			return false
		}
		dir := filepath.Dir(real)
		if dir == "/" {
			dir = ""
		}
		pattern = dir + pattern[1:]
		prefix = len(dir) + 1
	case !filepath.IsAbs(pattern):
		pattern = "**/" + pattern
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	texts := []string{}
	if real, err := filepath.EvalSymlinks(l.repo.GitDir); err == nil {
		texts = append(texts, real)
	}
	if abs, err := filepath.Abs(l.repo.GitDir); err == nil {
		texts = append(texts, abs)
	}
	for _, text := range texts {
		if len(text) < prefix {
			continue
		}
		head, tail := pattern[:prefix], text[:prefix]
		if head != tail && !(fold && strings.EqualFold(head, tail)) {
			continue
		}
		if Wildmatch(pattern[prefix:], text[prefix:], true, fold) {
			return true
		}
	}
	return false
}

// onBranch is onbranch:: HEAD names a branch (born or not) that the pattern matches; a pattern ending in
// `/` matches the branches below it.
func (l *loader) onBranch(pattern string) bool {
	if l.repo.GitDir == "" {
		return false
	}
	data, err := safefile.ReadRegular(filepath.Join(l.repo.GitDir, "HEAD"))
	if err != nil {
		return false
	}
	branch, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/heads/")
	if !ok || branch == "" {
		return false
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	return Wildmatch(pattern, branch, true, false)
}
