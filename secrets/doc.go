// Package secrets is Warden's catalogue of what holds credentials: the files and places that do (keys,
// the tokens command-line tools and AI assistants keep, shell and editor histories), the environment
// variables whose names or values are secret, the lines of shell start-up files that set a token, and the
// git configuration entries that carry one. Every judgement of Warden's that asks "may this hold a
// secret?" (the permission engine, the environment commands get, the read-only jail's masks, Warden's own
// reads of the person's files) comes here, so that the catalogue grows in one place.
//
// Judgements by name and place (Path, Name, Value, GitConfigEntry, ByContent, GitConfigFile) read
// nothing. The one judgement by content, HoldsSecret (for shell start-up files and yarn's
// configuration), reads a bounded prefix of the file through safefile; a Judge, which whoever judges
// files for a session holds, remembers each answer by the file's identity, so judging the same file
// again costs a stat. An opener that refuses links into secret places should use Path, not the content
// checks: git must read a .git/config that carries a credential, and a shell a ~/.bashrc that exports a
// token.
//
// What the catalogue does not know it cannot protect: a credential in a file of an ordinary name, under
// a variable the environment's allow-list passes with an ordinary-looking value, or in a form no
// pattern here recognises. The lists are of what today's tools write, not a proof.
//
// It imports nothing of Warden's but the leaves safefile, which opens the person's files without waiting
// on a FIFO or reading a device, and cache, and must import nothing above them.
package secrets
