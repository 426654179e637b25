// Package treewalk says which files a program that reads a directory recursively takes in, the way that
// program walks it: grep -r reads every file, its last matching --include or --exclude deciding; rg
// decides as its ignore crate does (rg.go); ag, diff -r and find are read as reading everything their
// filters leave in. A Tree describes one such read (where it starts, its filters, whether it follows
// links or hands the names it finds to a program that opens them); its methods answer, entry by entry,
// whether the walk goes in. MayName answers for a whole pattern: may a file it names be read?
//
// It knows nothing of commands, parts or rules: the permission engine's vocabulary (package shell)
// walks a Tree and judges what it meets, and the engine asks MayName with its rules' patterns. A
// Lister remembers directory listings while a directory's times and inode stay the same, so that a
// repository with 100,000 ignored files costs a stat per directory that is read; it belongs to the
// engine that walks, and is bounded.
//
// It imports only leaf packages (ignore, cache, safefile): never shell, the engine, or the program
// knowledge above them.
package treewalk
