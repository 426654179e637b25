// Package files holds the file tools: read_file, write_file, edit_file, glob and grep (DESIGN.md §4), and
// what they share: resolving the model's paths (always through Env.Resolve, so that a tool touches exactly
// the file the permission engine decided about), the record of which files the model has read
// (Env.RememberFile), telling text from binary, listing the files of a directory the way git sees them,
// and diffs.
//
// Decisions worth knowing:
//   - Access reports the resolved absolute path, symlinks evaluated; the engine resolving it again changes
//     nothing. Summary carries the workspace-relative path for panels and the history.
//   - write_file always reports AccessWrite (create or replace, as AccessWrite is defined); edit_file
//     reports AccessEdit. The engine treats both alike; only the wording of its reason differs.
//   - glob and grep list the files git lists inside a work tree (tracked files plus untracked ones that
//     are not ignored), read natively (listFiles; git is never run), and every file outside one. Either
//     way .git is skipped and only regular files count: no link is followed, an index entry's path
//     included, so neither a link nor a crafted index can lead a search outside the directory decided
//     about. A directory that is itself git-ignored (node_modules) and is searched by name is walked
//     whole, because asking for it is asking for its files.
//   - grep searches that same list with rg when rg is on PATH and with Go's regexp when not, and formats
//     both the same way, so the model cannot tell which one ran.
//
// It imports the framework (tools), package images (the pictures read_file returns), the leaves that read the
// workspace safely (ignore, gitrepo, safefile, hostexec) and the secrets catalogue, whose judgement by
// content grep adds to Env.Secret's for what it prints; it must never import bash (the commands' engine),
// permissions, agent, config or ui.
package files
