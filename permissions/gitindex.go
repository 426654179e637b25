package permissions

import (
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/permissions/gitrepo"
)

// gitTracked lists the files the index of the repository whose top is root tracks, relative to root,
// reading the index directly (gitrepo.ReadIndex): running git to ask would run what the repository's
// configuration names. ok is false when the index cannot be listed in full. gitlinks is set when the
// index holds submodules.
func gitTracked(root string, env gitrepo.Env) (paths []string, gitlinks, ok bool) {
	r, found := gitrepo.AtTop(root, env)
	if !found {
		return nil, false, false
	}
	idx, ok := gitrepo.ReadIndex(r)
	if !ok {
		return nil, false, false
	}
	return idx.Paths, len(idx.Gitlinks) > 0, true
}

// gitHasObjects reports whether the repository at root may hold any object, and so any history: loose
// objects, packs or alternates. One with none can print no file from HEAD or history.
func gitHasObjects(root string) bool {
	dir := filepath.Join(root, ".git", "objects")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return !os.IsNotExist(err)
	}
	for _, en := range entries {
		switch en.Name() {
		case "info":
			if sub, err := os.ReadDir(filepath.Join(dir, "info")); err != nil || len(sub) > 0 && !(len(sub) == 1 && sub[0].Name() == "packs") {
				return true
			}
		case "pack":
			if sub, err := os.ReadDir(filepath.Join(dir, "pack")); err != nil || len(sub) > 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}
