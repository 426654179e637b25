package shell

import (
	"os"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions/treewalk"
	"github.com/warden-cli/warden/secrets"
)

// Memory is what an engine remembers between the commands it classifies, each part bounded in entries
// and each entry kept only while what it was read from is unchanged: the repositories read (Git), the
// files judged by what they hold (Secrets), the directory listings of walks (Lister) and of the search
// for a file's other names, and the directories of PATH. What one engine learnt, no other sees.
type Memory struct {
	Git     *gitrepo.Reader
	Secrets *secrets.Judge
	Lister  *treewalk.Lister
	// links are the listings of the search for other names (hardlinks.go), by directory.
	links *cache.LRU[string, *linkedDir]
	// pathDirs and pathEntries are what PATH's directories are (path.go), by the value of PATH.
	pathDirs    *cache.LRU[string, map[string]bool]
	pathEntries *cache.LRU[string, []PathEntry]
	// envPaths are the credential paths the environment names (SOPS_AGE_KEY_FILE, KUBECONFIG...), read
	// once: the environment does not change while Warden runs, and every file a walk meets is judged,
	// which seventeen look-ups each would slow by half.
	envPaths []string
	// own are Warden's own directories (secrets.go), by the environment and home that name them.
	own *cache.LRU[[3]string, *ownDirs]
}

// What a Memory keeps at most, besides what its Git, Secrets and Lister bound: the directories the
// searches for other names list (the workspace, the additional directories, the home's secret places),
// and the values of PATH a session meets (a few).
const (
	maxLinkedDirs = 100000
	maxPaths      = 64
	maxOwnDirs    = 4
)

// NewMemory returns a Memory that remembers nothing yet.
func NewMemory() *Memory {
	m := newJudgeMemory()
	m.Git = gitrepo.NewReader()
	m.Lister = treewalk.NewLister(m.IsSecret)
	m.links = cache.New[string, *linkedDir](maxLinkedDirs)
	m.pathDirs = cache.New[string, map[string]bool](maxPaths)
	m.pathEntries = cache.New[string, []PathEntry](maxPaths)
	return m
}

// newJudgeMemory returns the part of a Memory IsSecretPath needs, for a judgement made once: it reads
// no repository (IsSecretPath never judges git's files by content).
func newJudgeMemory() *Memory {
	return &Memory{
		Secrets:  secrets.NewJudge(),
		envPaths: secrets.EnvPaths(os.Getenv),
		own:      cache.New[[3]string, *ownDirs](maxOwnDirs),
	}
}
