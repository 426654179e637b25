package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/secrets"
)

// The settings a run starts from: read with the opener of Warden's own reads, their rules checked where
// they were written, and completed with the server and model to talk to.

// loadConfig reads the settings of the current directory, with the flags over them.
func loadConfig(c *commonFlags) (*config.Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the current directory: %w", err)
	}
	// A mode flag may use Claude Code's names (acceptEdits); the settings hold Warden's.
	mode := c.mode
	if m, err := permissions.ParseMode(mode); err == nil && mode != "" {
		mode = string(m)
	}
	cfg, err := config.Load(config.Sources{Workspace: wd, Opener: newOpener(wd, nil)}, config.Overrides{
		Model: c.model, BaseURL: c.baseURL, Mode: mode, Allow: c.allow, Deny: c.deny,
		Sandbox: c.sandbox.value(), Trust: c.trust,
	})
	if err != nil {
		return nil, err
	}
	return cfg, checkRules(cfg, c)
}

// checkRules parses every permission rule where it was written, so that a bad one is reported with the
// settings file or flag it came from (config cannot parse rules itself: it imports nothing of Warden's).
// A rule of the project's own file that does not parse is left out with a warning, as a project file
// that does not parse is: a repository must not be able to stop Warden; the person's own stop it.
func checkRules(cfg *config.Config, c *commonFlags) error {
	check := func(where func(i int) string, list string, rules []string) error {
		for i, r := range rules {
			if _, err := permissions.ParseRule(r); err != nil {
				return fmt.Errorf("%s: permissions.%s: %v", where(i), list, err)
			}
		}
		return nil
	}
	for _, o := range cfg.RuleOrigins {
		for _, l := range []struct {
			name  string
			rules []string
		}{{"allow", o.Allow}, {"deny", o.Deny}, {"ask", o.Ask}} {
			for i, r := range l.rules {
				err := check(func(int) string { return o.Where(l.name, i) }, l.name, []string{r})
				switch {
				case err != nil && o.Project:
					cfg.DropRule(l.name, r)
					cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%v; Warden goes on without this rule of the project's until it is fixed", err))
				case err != nil:
					return err
				}
			}
		}
	}
	flag := func(name string) func(int) string { return func(int) string { return name } }
	if err := check(flag("--allow"), "allow", c.allow); err != nil {
		return usageError{err.Error()}
	}
	if err := check(flag("--deny"), "deny", c.deny); err != nil {
		return usageError{err.Error()}
	}
	return nil
}

// sayConfigWarnings tells the person, on stderr, what the settings could not be read from, for the
// commands that print results rather than start a session (which tells them with its other warnings).
func sayConfigWarnings(stderr io.Writer, cfg *config.Config) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "warden: %s\n", printableText(w))
	}
}

// newOpener is the opener of Warden's own reads (package safefile) for workspace ws and the additional
// directories: a file of theirs that leads out of them through a link is refused, and so is one that is
// or leads to what may hold secrets, except Warden's own settings and records, which the engine keeps from
// commands, not from Warden. Secret is judged whole here, by name and by content: a link to .git/config
// or .yarnrc.yml is refused when the file holds a token, although git and yarn may read their own (the
// engine's IsSecretPath, which the jail shares, leaves those to the programs), since nothing Warden reads
// as its own input is git's or yarn's to read. The settings are read before the additional directories
// are known (they are among the settings), with an opener of the workspace alone: the files it reads lie
// in the workspace or are the person's own.
func newOpener(ws string, additional []string) *safefile.Opener {
	home, _ := os.UserHomeDir()
	own := map[string]bool{}
	for _, p := range config.OwnFiles(os.Getenv) {
		own[p] = true
		if r, err := filepath.EvalSymlinks(p); err == nil {
			own[r] = true
		}
	}
	// The content judgements read through safefile's lower step and gitrepo's default Opener, which
	// judges no secrets: never through this one.
	judge, git := secrets.NewJudge(), gitrepo.NewReader()
	secret := func(p string) bool {
		return !own[p] && (permissions.IsSecretPath(p, home) || judge.Holds(p, git.FileHoldsCredential))
	}
	return safefile.NewOpener(append([]string{ws}, additional...), secret, 0)
}

// additionalDirs are the settings' additional directories, resolved as the engine resolves paths.
func additionalDirs(cfg *config.Config) []string {
	home, _ := os.UserHomeDir()
	var dirs []string
	for _, d := range cfg.AdditionalDirectories {
		dirs = append(dirs, permissions.ResolvePath(cfg.Workspace, d, home))
	}
	return dirs
}

// resumeWhereItWas gives a session that --resume or --continue names the server and model it last used,
// over the settings and the environment, unless --base-url or --model says otherwise: the hint printed
// as the TUI ends (warden --resume ID) then reaches the server the session was talking to, wherever that
// came from. A session from before the server was kept goes on with the settings' server.
func resumeWhereItWas(cfg *config.Config, c *commonFlags) error {
	var path string
	var err error
	switch {
	case c.resume != "":
		path, err = savedSession(c.resume)
	case c.cont:
		path, err = latestAnswered(sessionsDir(), cfg.Workspace)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	info, err := agent.PeekSession(path)
	if err != nil {
		return err
	}
	// The server a session was saved with is reached again as today's settings would reach it: one the
	// person chose (a flag, their settings) at once; one a project's file chose only while a project's
	// file still names it and the person approves that, so that a run under --trust, an approval since
	// revoked, or a file that now names another server or none, does not carry it on.
	saved := strings.TrimRight(info.BaseURL, "/")
	switch {
	case c.baseURL != "" || saved == "" || saved == cfg.BaseURL:
	case info.BaseURLOwn || cfg.ApprovesServer(saved):
		cfg.BaseURL, cfg.BaseURLFromProject = saved, !info.BaseURLOwn
	default:
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("the session was resumed without its server %s, which this workspace's files chose and no longer name or you have not approved (run warden trust, or pass --base-url to choose a server)",
			config.MaskURL(saved)))
	}
	if c.model == "" && info.Model != "" {
		cfg.Model = info.Model
	}
	return nil
}

// resolveServer fills in the base URL and model: a local server is looked for when neither a key nor a
// base URL is set, and the server's first model is used when none is named.
func resolveServer(ctx context.Context, cfg *config.Config) error {
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		cfg.BaseURL = agent.Discover(ctx, "127.0.0.1", agent.LocalServers)
		if cfg.BaseURL == "" {
			return errors.New(agent.NoServerHelp())
		}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.openai.com/v1"
	}
	if !strings.Contains(cfg.BaseURL, "://") {
		return fmt.Errorf("the base URL %q has no scheme: add http:// or https:// (for example http://%s)", cfg.BaseURL, cfg.BaseURL)
	}
	if cfg.Model != "" {
		return nil
	}
	models, err := agent.ListModels(ctx, cfg.BaseURL, cfg.APIKey)
	models = agent.ChatModels(models)
	if err != nil {
		return fmt.Errorf("no model set and listing the server's models failed: %w; set --model or WARDEN_MODEL", err)
	}
	if len(models) == 0 {
		return fmt.Errorf("no model set and the server at %s lists none that can chat; set --model or WARDEN_MODEL", cfg.BaseURL)
	}
	cfg.Model = models[0]
	return nil
}
