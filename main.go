// Command warden is a full-screen terminal coding agent. Package main is only the program's entry: it
// serves as the sandbox helper when Warden re-executes itself as one, and otherwise hands the command line
// to the application (package app).
package main

import (
	"os"

	"github.com/warden-cli/warden/app"
	"github.com/warden-cli/warden/tools/sandbox"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	// Warden re-executes itself as the Landlock sandbox helper; that must happen before anything else.
	if sandbox.IsHelper(os.Args) {
		os.Exit(sandbox.HelperMain(os.Args))
	}
	os.Exit(app.Run(version, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
