package gitrepo

import (
	"sync"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/safefile"
)

// Reader reads repositories and remembers what it read, each result with the identity of the files it
// came from (device, inode, size, change and modification times), so that asking again about an
// unchanged repository costs a handful of system calls: where git directories are, the default Openers,
// parsed configuration files, indexes, the tips of history and the walks of history. What one Reader
// learnt no other sees: a value that lives as long as a session (the permission engine, the checkpoints,
// a listing) holds its own, and each of its memories is bounded in entries. It is safe for concurrent
// use.
type Reader struct {
	gitDirs *cache.LRU[string, gitDirFound]
	// openers keeps the default Openers by the directories they keep links in (see Opener).
	openers *cache.LRU[[3]string, *safefile.Opener]
	configs *cache.LRU[string, *parsed]
	indexes *cache.LRU[string, *cachedIndex]
	tips    *cache.LRU[string, *tipsCache]

	// historiesMu makes finding or starting a repository's walk one step, so that two calls about the
	// same repository share its walk (and the second learns that the first is walking).
	historiesMu sync.Mutex
	histories   *cache.LRU[string, *historyState]
}

// What a Reader remembers at most. A session meets a few repositories (the workspace's, its submodules,
// nested ones), the directories above its working directories and a few dozen configuration files; a
// walk of history and an index can take megabytes each, so fewer of them are kept. What was forgotten is
// read again when asked for.
const (
	maxGitDirs   = 1024
	maxOpeners   = 256
	maxConfigs   = 1024
	maxIndexes   = 64
	maxTips      = 256
	maxHistories = 16
)

// NewReader returns a Reader that remembers nothing yet.
func NewReader() *Reader {
	return &Reader{
		gitDirs:   cache.New[string, gitDirFound](maxGitDirs),
		openers:   cache.New[[3]string, *safefile.Opener](maxOpeners),
		configs:   cache.New[string, *parsed](maxConfigs),
		indexes:   cache.New[string, *cachedIndex](maxIndexes),
		tips:      cache.New[string, *tipsCache](maxTips),
		histories: cache.New[string, *historyState](maxHistories),
	}
}
