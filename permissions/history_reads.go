package permissions

// Reads of git's object store and of hard links: a file under .git/objects (a loose object, a pack) is
// every version of every file the repository ever tracked, compressed; a hard link is the very file it
// links to under another name. Both are judged as what they really are.

import (
	"path/filepath"

	"github.com/warden-cli/warden/permissions/shell"
)

// historyDenied returns the deny rule naming a path that a repository whose object store the part reads
// ever tracked (in its history or its index), and that path.
func (e *Engine) historyDenied(rules []Rule, p *shell.Part) (Rule, string, bool) {
	reads := pathRules(rules, Read)
	if len(reads) == 0 {
		return Rule{}, "", false
	}
	for _, r := range p.Objects {
		if r.Top == "" {
			continue
		}
		var paths []string
		if h, err := e.mem.Git.ReadHistory(r, e.policy.Env, shell.HistoryBudget); err == nil {
			paths = h.Paths
		}
		if idx, ok := e.mem.Git.ReadIndex(r, nil); ok {
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
