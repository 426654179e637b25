// Package secrets is Warden's catalogue of what holds credentials: the files and places that do (keys,
// the tokens command-line tools and AI assistants keep, shell and editor histories), the environment
// variables whose names or values are secret, the lines of shell start-up files that set a token, and the
// git configuration entries that carry one. Every judgement of Warden's that asks "may this hold a
// secret?" (the permission engine, the environment commands get, the read-only jail's masks, Warden's own
// reads of the person's files) comes here, so that the catalogue grows in one place.
//
// Judgements by name and place (Path, Name, Value, GitConfigEntry, ByContent, GitConfigFile) read
// nothing; a copy of a file (an editor's swap or backup file, a .bak) is judged as the file it copies
// (decorations.go). The judgements by content read a bounded prefix of the file through safefile's
// OpenRegular, never through an Opener (an Opener judges secrets with them: it would judge itself):
// HoldsSecret for shell start-up files and yarn's configuration, and Holds, the whole of it, which adds
// git's configuration files as the caller's git reader parses them. A Judge, which whoever judges files
// for a session holds, remembers each answer by the file's identity, so judging the same file again
// costs a stat. Which to use depends on who reads: what Warden reads as its own input (an instruction
// file, a setting) and what it prints from a search must pass Holds, so that a link or a copy cannot
// carry a .git/config with a token into a request; the read-only jail and the opener of git's own reads
// must not refuse a program's configuration by its content, since git must read a .git/config that
// carries a credential, and a shell a ~/.bashrc that exports a token.
//
// Beside what holds credentials it keeps the catalogue of guarded places (GuardedWrite, guarded.go):
// where a write changes what later programs run or whom they trust (git's directory, Warden's and Claude
// Code's settings and hooks, .mcp.json, editors' tasks, direnv's scripts, start-up files, services), each
// kind with its reason, which neither accept-edits nor a PreToolUse hook's allow lets a file tool write.
//
// What the catalogue does not know it cannot protect: a credential in a file of an ordinary name, under
// a variable the environment's allow-list passes with an ordinary-looking value, or in a form no
// pattern here recognises. The lists are of what today's tools write, not a proof.
//
// It imports nothing of Warden's but the leaves safefile, which opens the person's files without waiting
// on a FIFO or reading a device, and cache, and must import nothing above them.
package secrets
