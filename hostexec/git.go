package hostexec

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// A repository chooses its own .git/config (it may come with the files, or have been written by a
// command), and git's configuration can name a program to run on almost any operation: core.fsmonitor on
// every look at the work tree, hooks, a pager, credential helpers, ssh commands and the upload-pack of a
// remote, which the lazy fetch of a partial clone starts to get an object it lacks. Git's own runs for
// Warden turn each of those off. Filters, textconv, external diff and merge drivers cannot all be turned
// off by configuration, because the repository's attributes name them under names of its choosing: the
// runner therefore runs only subcommands that read and never convert content.

// gitConfig is given on git's command line, which overrides every configuration file.
var gitConfig = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null", // no hook is found below a file
	"core.pager=cat",
	"credential.helper=", // an empty value empties the list of helpers
	"protocol.allow=never",
	// A bare repository inside the work tree (a test fixture, a vendored .git) is used only when named.
	"safe.bareRepository=explicit",
}

// gitEnv is set in git's environment, over what the caller gives. GIT_ALLOW_PROTOCOL empty allows no
// transport at all, so no fetch (a lazy one included) starts a remote's program, and GIT_NO_LAZY_FETCH
// keeps newer gits from trying. The system configuration is an administrator's, not the person's.
var gitEnv = []string{
	"GIT_ALLOW_PROTOCOL=",
	"GIT_NO_LAZY_FETCH=1",
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_OPTIONAL_LOCKS=0",
	"GIT_PAGER=cat",
}

// gitKeep are the variables of git's own that pass from the caller's environment: they only bound where
// git looks for the repository. Every other GIT_ variable is dropped, since one can name a program
// (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_ASKPASS), a directory of programs (GIT_EXEC_PATH), another
// repository (GIT_DIR) or more configuration (GIT_CONFIG_PARAMETERS).
var gitKeep = []string{"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"}

// gitSubcommands are the subcommands the runner starts: they read the repository and never run a filter,
// textconv, external diff or merge driver, nor sign or verify anything.
var gitSubcommands = []string{"ls-files", "check-ignore", "rev-parse", "ls-tree", "cat-file", "show-ref",
	"merge-base"}

// gitConverting are options that make a subcommand of gitSubcommands run the repository's filters or
// textconv drivers.
var gitConverting = []string{"--filters", "--textconv"}

// Git returns a command that runs git's args (a subcommand and its arguments) in dir, with env as its
// environment less git's own variables, with git found by f and none of the repository's programs able to
// run. A subcommand that could run one is refused.
func (f *Finder) Git(ctx context.Context, env []string, dir string, args ...string) (*exec.Cmd, error) {
	if len(args) == 0 || !slices.Contains(gitSubcommands, args[0]) {
		sub := ""
		if len(args) > 0 {
			sub = args[0]
		}
		return nil, fmt.Errorf("git %q is not run by Warden on its own: it could run a program the repository names", sub)
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		for _, c := range gitConverting {
			if a == c || strings.HasPrefix(a, c+"=") {
				return nil, fmt.Errorf("git %s %s is not run by Warden on its own: it runs the repository's drivers", args[0], a)
			}
		}
	}
	git, err := f.Find("git")
	if err != nil {
		return nil, err
	}
	full := make([]string, 0, 2*len(gitConfig)+len(args))
	for _, kv := range gitConfig {
		full = append(full, "-c", kv)
	}
	cmd := Command(ctx, git, gitEnvironment(env), append(full, args...)...)
	cmd.Dir = dir
	return cmd, nil
}

// gitEnvironment is env without git's own variables (but gitKeep), with gitEnv added.
func gitEnvironment(env []string) []string {
	out := make([]string, 0, len(env)+len(gitEnv))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") && !slices.Contains(gitKeep, name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, gitEnv...)
}
