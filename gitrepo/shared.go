package gitrepo

import "time"

// The functions below read through one Reader the whole process shares. They are for callers that do
// not hold a Reader of their own yet (the permission engine): what one session or test learns through
// them, every other one sees. A value that lives as long as a session holds a Reader (NewReader) and
// calls its methods instead; once none of these is called, they and shared go.

var shared = NewReader()

// Find is Reader.Find with the shared Reader, reading .git files with links kept inside the directory
// that holds them.
func Find(dir string, env Env) (Repo, bool) { return shared.Find(dir, env, nil) }

// AtTop is Reader.AtTop with the shared Reader, reading a .git file with links kept inside dir.
func AtTop(dir string, env Env) (Repo, bool) { return shared.AtTop(dir, env, nil) }

// IsGitDir is Reader.IsGitDir with the shared Reader.
func IsGitDir(dir string, env Env) bool { return shared.IsGitDir(dir, env) }

// LoadConfig reads the configuration git may use in r (or, with r empty, outside any repository) with
// the policy Everything, through the shared Reader: see Reader.Load.
func LoadConfig(r Repo, env Env, home string) Config {
	return shared.Load(r, LoadOptions{Env: env, Home: home})
}

// LoadFile is Reader.LoadFile with the shared Reader.
func LoadFile(path string, includes bool, home string) Config {
	return shared.LoadFile(path, includes, home)
}

// FileHoldsCredential is Reader.FileHoldsCredential with the shared Reader.
func FileHoldsCredential(path string) bool { return shared.FileHoldsCredential(path) }

// ReadIndex is Reader.ReadIndex with the shared Reader, opening the index with links kept inside the
// repository's directories.
func ReadIndex(r Repo) (Index, bool) { return shared.ReadIndex(r, nil) }

// ReadHistoryWithin is Reader.ReadHistory with the shared Reader.
func ReadHistoryWithin(r Repo, env Env, limit time.Duration) (History, error) {
	return shared.ReadHistory(r, env, limit)
}
