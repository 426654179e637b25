// Package hostexec finds and starts the programs Warden runs on the host for its own purposes, outside
// any jail or sandbox: bubblewrap, ripgrep, the bash that runs the model's commands, and Warden's own
// executable started again as a helper. Whoever controls a repository must not be able to stand in for
// any of them, nor reach what Warden's own environment holds (the API key), so:
//
//   - a program is taken only from an absolute PATH entry outside the directories the model may change
//     (the workspace, the additional directories, and the git work trees their repositories control:
//     those around them, a submodule's superproject, a linked work tree's main one; trees.go), and only when,
//     every link resolved, it does not lie inside one of them; relative and empty entries are never
//     searched (Finder);
//   - it starts with exactly the environment it is given, never Warden's own (Command);
//   - Warden starts itself again through the kernel's link to the file it is running from, not by the
//     path it was started from, which a link or a new file may have taken over since (SelfPath).
//
// The untrusted directories reach it as a value built at the session's start (NewFinder), never as a
// package-level setting. The model's own commands are not found here: they keep the person's PATH, where a
// project's virtualenv is what the person wants. git is not among them: Warden reads repositories itself
// (package gitrepo), since no configuration of git turns off every program a repository can name.
//
// It is a leaf: it imports nothing of Warden's but the leaf safefile, which reads the .git files a
// repository planted without waiting on a FIFO.
package hostexec
