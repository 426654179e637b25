package gitrepo

import "strings"

// ValidPath reports whether git would write the index path p into a work tree: its verify_path, with
// core.protectNTFS on as git has it by default. git reads an index whatever its paths say (`git ls-files`
// prints `../x` and `/etc/passwd` from a crafted one), but refuses to check such a path out; a reader of
// the work tree's files must refuse it too. Refused: an empty path, an absolute one, an empty component
// (`a//b`), a `.` or `..` component, a `.git` component in any case, and the names NTFS takes for `.git`
// (`.git` followed by spaces or dots or `:stream`, `git~1`), also after a backslash. A trailing slash is
// valid only for a directory entry of a sparse index (mode 040000). The rules git adds for symbolic links
// named like `.gitmodules` are left out: a tracked link is never followed by Warden's readers.
func ValidPath(p string, mode uint32) bool {
	i := 0
	for {
		// At the start of a component.
		if ntfsDotGit(p[i:]) {
			return false
		}
		if i == len(p) {
			return mode&0o170000 == 0o040000 && i > 0
		}
		switch c := p[i]; {
		case c == '/':
			return false
		case c == '.' && !validDotComponent(p[i+1:]):
			return false
		}
		// To the end of the component.
		for i < len(p) && p[i] != '/' {
			if p[i] == '\\' && ntfsDotGit(p[i+1:]) {
				return false
			}
			i++
		}
		if i == len(p) {
			return true
		}
		i++ // past the slash
	}
}

// validDotComponent is git's verify_dotfile: rest follows a component's leading dot.
func validDotComponent(rest string) bool {
	end := func(j int) bool { return j >= len(rest) || rest[j] == '/' }
	switch {
	case end(0):
		return false // "."
	case rest[0] == '.' && end(1):
		return false // ".."
	case len(rest) >= 3 && strings.EqualFold(rest[:3], "git") && end(3):
		return false // ".git"
	}
	return true
}

// ntfsDotGit is git's is_ntfs_dotgit: the component at the start of name is one NTFS opens as .git.
func ntfsDotGit(name string) bool {
	n := strings.IndexAny(name, "\\/:")
	if n < 0 {
		n = len(name)
	}
	onlySpacesAndDots := func(skip int) bool {
		if n < skip {
			return false
		}
		return strings.Trim(name[skip:n], " .") == ""
	}
	return onlySpacesAndDots(4) && strings.EqualFold(name[:4], ".git") ||
		onlySpacesAndDots(5) && strings.EqualFold(name[:5], "git~1")
}
