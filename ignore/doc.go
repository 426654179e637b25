// Package ignore decides which files of a tree are ignored, the way git decides it, walks a tree
// without descending into ignored directories, and lists a work tree's files as `git ls-files --cached
// --others --exclude-standard` does (List: the index's entries and the untracked files the rules leave),
// never through a link and never out of the directory, whatever the index says (list.go).
//
// It reads what git reads, without ever running git: a .gitignore in every directory from the work
// tree's top down, the repository's info/exclude, and the file core.excludesFile names. Where the work
// tree is and what its configuration says (core.excludesFile, core.ignoreCase, with includes read as git
// reads them, conditions evaluated) come from package gitrepo, the one home of git's formats, through the
// caller's gitrepo.Reader (ListOptions.Git, ForDirWith), which remembers them for its next call. Patterns
// follow git's rules to the letter, quirks included: negation, directory-only and anchored patterns,
// `**`, bracket expressions, escapes, trailing spaces, core.ignoreCase. The tests compare every answer
// with `git check-ignore` and `git ls-files`, on repositories of every shape the listing has a rule for
// (submodules, nested repositories, unmerged paths, sparse checkouts, linked work trees).
//
// Whoever controls a repository chooses what stands where the rules are read, so every file is opened
// through a safefile.Opener (Options.Open, ForDirWith): a link out of the workspace or into a secret
// place, a FIFO, a file of the kernel's is not read. A per-directory ignore file that is a link is not
// read at all, as git does not follow it.
//
// The sources are a list (Options.Sources), so other tools' rules can be built from the same parts:
// ripgrep, for example, reads .rgignore and .ignore before .gitignore, with the same pattern syntax.
//
// It imports nothing of Warden's but gitrepo and the leaves safefile and cache, and must not.
package ignore
