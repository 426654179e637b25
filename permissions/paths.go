package permissions

import "github.com/warden-cli/warden/permissions/shell"

// ResolvePath is Warden's one path-resolution function: every tool that takes a path and every rule that
// names one goes through it, so that a path means the same thing everywhere. It walks the path the way
// the kernel does (shell.ResolvePath says how); the file tools receive it by injection.
func ResolvePath(cwd, path, home string) string { return shell.ResolvePath(cwd, path, home) }

// IsSecretPath reports whether the file at the absolute path may hold secrets (keys, credentials, .env
// files, a start-up file exporting a token), as the file tools and the read-only jail judge it:
// shell.IsSecretPath says what it leaves to commands' own judgement.
func IsSecretPath(path, home string) bool { return shell.IsSecretPath(path, home) }

// IsSecretPath is the package's IsSecretPath judged from the engine's home with what the engine
// remembers: a start-up file is read again only when it changed.
func (e *Engine) IsSecretPath(path string) bool { return e.mem.IsSecretPath(path, e.home) }
