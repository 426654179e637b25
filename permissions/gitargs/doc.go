// Package gitargs is git's command line as git reads it, for the packages that judge git commands: how
// parse-options splits a subcommand's words (Args, Parse), which subcommands git runs itself (Builtins)
// and which print what files hold (ContentSub and the option lists beside it), every option of the
// subcommands the promise models (Options), and what one invocation does that configuration could hook
// into: textconv, external diffs, filters, signatures, the index, submodules (Facets).
//
// It imports only the vocabulary (package shell) and leaves: never the engine nor the packages that
// judge git (supplied, programs, models), which import it.
package gitargs
