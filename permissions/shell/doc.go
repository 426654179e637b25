// Package shell is the vocabulary the permission engine and its knowledge of programs share: a command
// line as bash will run it, and what Warden finds each of its simple commands does.
//
//   - Words: a shell word after the quote removal bash does, known exactly or only at run time
//     (words.go), and the shape of one only known at run time (loose.go); arithmetic that may run code
//     (arith.go); here-documents (heredoc.go); globs expanded against the file system (glob.go).
//   - Paths: ResolvePath, Warden's one path-resolution function, which walks a path as the kernel does
//     (paths.go); the command's own streams and process views (streams.go).
//   - Reads: what reading a path means (read.go, secrets.go, hardlinks.go, walk.go): a secret by its
//     name or its content, a link read where it leads, a file read under every other name it has, git's
//     object store read as the whole history, a directory read recursively the way its program walks it
//     (package treewalk says which entries the program takes in).
//   - The record of one simple command, Part (part.go), with the kinds of thing Warden cannot see
//     (unseen.go), and the context it is judged in: Context (where a command runs), Scope (what bash
//     carries along a list: the directory, known variables, defined functions), Level (one parsed
//     source), State (what one classification knows beyond a part), Exec (one simple command being
//     judged), Args (its words split into options and operands by GNU's conventions).
//   - What an engine remembers between the commands it classifies, Memory (memory.go): the repositories
//     it read, the files it judged by content, directory listings, the other names of files, PATH's
//     directories (path.go), each bounded and kept only while what it came from is unchanged. An
//     engine owns one; a classification without one makes its own and forgets it.
//
// A program's judgement that finds a command inside another (find -exec's, a shell body, a body read
// only for deny and ask rules) calls back through Judge, which the engine's walker implements.
//
// It imports only leaf packages (gitrepo, secrets, ignore, cache) and treewalk: never the engine
// (package permissions) nor the program knowledge above it (gitargs, supplied, programs, models).
package shell
