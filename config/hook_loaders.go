package config

import (
	"slices"
	"strings"
)

// codeLoaders are the programs that load code of the workspace besides the files a command names: an
// interpreter's imports (python -m, node ., a package.json's main), a toolchain's packages (go run, cargo),
// a task runner's includes, a test runner's or linter's configuration and plugins. A hook that runs one
// has its item say so: approving the command and the files it names does not cover what they load.
var codeLoaders = []string{"pypy", "pypy3", "node", "nodejs", "deno", "bun", "npx", "npm", "pnpm",
	"yarn", "go", "cargo", "rustc", "make", "gmake", "just", "task", "pytest", "pre-commit", "tox", "nox", "uv", "uvx",
	"poetry", "pipenv", "ruby", "bundle", "rake", "perl", "php", "java", "mvn", "gradle", "gradlew", "mvnw", "dotnet",
	"eslint", "prettier", "tsc", "tsx", "ts-node", "jest", "vitest", "mypy", "ruff", "black", "flake8", "pylint",
	"rubocop", "golangci-lint", "lua", "R", "Rscript", "julia", "swift", "cmake", "ninja", "bazel"}

// loadsCode reports whether prog (a base name) is a codeLoader or python, versioned or not.
func loadsCode(prog string) bool {
	if strings.HasPrefix(prog, "python") && versionTail(prog[len("python"):]) {
		return true
	}
	return slices.Contains(codeLoaders, prog)
}

// versionTail reports whether s is "" or a version such as "3.12".
func versionTail(s string) bool { return strings.Trim(s, "0123456789.") == "" }

// loaderVars are variables that name code every program started with them loads.
var loaderVars = map[string]bool{"NODE_OPTIONS": true, "NODE_PATH": true, "PYTHONPATH": true, "PYTHONSTARTUP": true,
	"PYTHONHOME": true, "RUBYOPT": true, "RUBYLIB": true, "PERL5OPT": true, "PERL5LIB": true, "LD_PRELOAD": true,
	"LD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true, "GOFLAGS": true, "JAVA_TOOL_OPTIONS": true,
	"_JAVA_OPTIONS": true, "DYLD_INSERT_LIBRARIES": true}
