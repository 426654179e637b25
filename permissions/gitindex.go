package permissions

import "github.com/warden-cli/warden/permissions/gitrepo"

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
