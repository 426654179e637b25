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
