// Package ignore decides which files of a tree are ignored, the way git decides it, and walks a tree
// without descending into ignored directories.
//
// It reads what git reads, without ever running git: a .gitignore in every directory from the work
// tree's top down, the repository's info/exclude, and the file core.excludesFile names (configuration
// files parsed here, includes followed). Patterns follow git's rules to the letter, quirks included:
// negation, directory-only and anchored patterns, `**`, bracket expressions, escapes, trailing spaces,
// core.ignoreCase. The tests compare every answer with `git check-ignore` and `git ls-files`.
//
// The sources are a list (Options.Sources), so other tools' rules can be built from the same parts:
// ripgrep, for example, reads .rgignore and .ignore before .gitignore, with the same pattern syntax.
//
// This package is a leaf: it imports nothing of Warden's, and must not.
package ignore
