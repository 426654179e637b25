package permissions

// Decisions worth knowing, kept here so they are read before the code is changed:
//
//   - Read-only is decided per simple command against the table in readonly_table.go (and
//     commands_git.go, commands_text.go). A command or option that is not in the table asks.
//   - /bin, /usr/bin, /usr/local/bin, /sbin and /usr/sbin are trusted: /usr/bin/cat is cat. Any other
//     path-qualified program (./cat, bin/cat, /tmp/x/cat) asks.
//   - A bash command may read files outside the workspace without asking (`cat /etc/os-release`, the Go
//     module cache); only secrets ask. `cd` outside the workspace asks, because the session's directory
//     persists. The file tools are stricter: reading outside the workspace asks (issue 6).
//   - Globs are expanded against the file system, bounded (maxGlobReads), to catch file names that
//     would be taken as options and secrets hidden behind patterns; dot files count as matches.
//   - Brace expansion, loop variables and variables assigned earlier in the same command are not
//     tracked: words using them are only known at run time and ask unless the program only prints.
//   - Dangerous commands ask even in yolo and even when an allow rule matches; deny rules still deny.
//   - In yolo mode, a command with parts only known at run time asks when deny or ask rules for Bash
//     exist, because those rules cannot be checked against it.
//   - Edit and Write rules are interchangeable: both govern any change to a file.
//   - A path rule naming a directory covers everything below it.
//   - A function replaces the program of its name only where bash is certain to have defined it: at the
//     same level, unconditionally, earlier, in the same directory. One defined in a subshell, a branch,
//     after && or in a background job leaves later calls to the program. Wrappers, xargs and find -exec
//     always run the program. `unset` of a function's name asks.
//   - find -exec's {} may only be a plain file operand of a table command; a program that reads it reads
//     every file found, judged like grep -r over the roots, narrowed only by a plain conjunction of -name
//     tests. `echo NAMES | xargs cat` and `find ... | xargs cat` are judged the same way; other producers
//     of file names for xargs are not modelled.
//   - `shopt -s`/`-u` asks: nullglob, nocaseglob, globstar and the rest change what globs expand to.
//     zsh, ksh and mksh bodies are not read as bash and ask.
//   - Long options count in any abbreviation their program accepts (GNU getopt, git) wherever that makes
//     the answer stricter; an abbreviated option that would narrow what is read is ignored.
