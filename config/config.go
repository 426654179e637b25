// Package config merges Warden's settings files, environment and flags into one typed Config, and keeps the
// record of what the person approved in each workspace: what a workspace's files loosen is a list of items
// (trust_items.go), each applied only once approved exactly as it is now (trust.go).
//
// Later sources win: user settings, then the project's shared file, then the personal project file, then the
// environment, then flags. List settings (rules, directories, env names) add up instead of replacing.
// Every file is read through the session's safefile.Opener (Sources.Opener), and Warden's own writes (a
// saved rule, the records) go through safefile's link-safe writer; what it shows of a repository's files
// (the trust prompt's items) is escaped by printable's one table, with the values the secrets catalogue
// judges secret masked (masked.go). It must never import other Warden packages than those three leaves.
package config

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/safefile"
)

// Settings is the shape of one settings file. Pointer fields tell "not set" from zero.
type Settings struct {
	Model         *string             `json:"model,omitempty"`
	BaseURL       *string             `json:"base_url,omitempty"`
	APIKeyEnv     *string             `json:"api_key_env,omitempty"`
	ContextWindow *int                `json:"context_window,omitempty"`
	MaxSteps      *int                `json:"max_steps,omitempty"`
	Permissions   PermissionsSettings `json:"permissions,omitzero"`
	Bash          BashSettings        `json:"bash,omitzero"`
	Sandbox       SandboxSettings     `json:"sandbox,omitzero"`
	UI            UISettings          `json:"ui,omitzero"`
	// MCPServers are Model Context Protocol servers whose tools the model may call (mcp.go).
	MCPServers map[string]MCPServer `json:"mcpServers,omitempty"`
	// MCPDeferPercent is the share of the context window the MCP tools may take before they are
	// deferred behind a search (mcp.go).
	MCPDeferPercent *int `json:"mcp_defer_percent,omitempty"`
	// Hooks are programs run at points of a session, by event, in Claude Code's shape (hooks.go).
	Hooks map[string][]HookMatcher `json:"hooks,omitempty"`

	// at says where each setting was written, for errors found later (a rule that does not parse).
	at *positions
}

// PermissionsSettings is the "permissions" object.
type PermissionsSettings struct {
	Mode                  *string  `json:"mode,omitempty"`
	Allow                 []string `json:"allow,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	AdditionalDirectories []string `json:"additional_directories,omitempty"`
}

// BashSettings is the "bash" object.
type BashSettings struct {
	TimeoutMS             *int         `json:"timeout_ms,omitempty"`
	MaxTimeoutMS          *int         `json:"max_timeout_ms,omitempty"`
	MaxOutputChars        *int         `json:"max_output_chars,omitempty"`
	Env                   []string     `json:"env,omitempty"`
	AutoBackgroundAfterMS *int         `json:"auto_background_after_ms,omitempty"`
	Limits                *LimitValues `json:"limits,omitempty"`
}

// LimitValues are resource limits for every command. Zero means "no limit set here".
type LimitValues struct {
	MemoryMB   int `json:"memory_mb,omitempty"`
	Processes  int `json:"processes,omitempty"`
	CPUSeconds int `json:"cpu_seconds,omitempty"`
	FileSizeMB int `json:"file_size_mb,omitempty"`
}

// SandboxSettings is the "sandbox" object.
type SandboxSettings struct {
	Enabled  *bool    `json:"enabled,omitempty"`
	Network  *bool    `json:"network,omitempty"`
	Writable []string `json:"writable,omitempty"`
	// AutoAllow lets commands that are not read-only run without asking while the sandbox (without
	// network) bounds them.
	AutoAllow *bool `json:"auto_allow,omitempty"`
	// Jail runs the commands that run unasked because they were judged read-only in the read-only jail
	// (the second wall). On unless set to false.
	Jail *bool `json:"jail,omitempty"`
	// JailReadable are more places in the home directories that jailed commands may read, beside the
	// workspace, the additional directories and the toolchains' places the jail shows on its own.
	JailReadable []string `json:"jail_readable,omitempty"`
}

// UISettings is the "ui" object.
type UISettings struct {
	Theme *string `json:"theme,omitempty"`
	// TranscriptOnExit prints the conversation to the terminal's normal screen as the full-screen program
	// ends, so that scrolling up shows it. On unless set to false.
	TranscriptOnExit *bool `json:"transcript_on_exit,omitempty"`
	// Mouse has the full-screen program take the mouse: the wheel scrolls, a drag selects and copies. On
	// unless set to false, which leaves the mouse to the terminal.
	Mouse *bool `json:"mouse,omitempty"`
	// Notifications is how the terminal is told, while out of focus, that an approval waits or a long
	// request ended: one of NotifyMethods.
	Notifications *string `json:"notifications,omitempty"`
}

// NotifyMethods are the values of ui.notifications: auto picks from the terminal's name.
var NotifyMethods = []string{"auto", "osc9", "osc777", "bell", "off"}

// Config is the merged result that the rest of Warden reads.
type Config struct {
	Model   string
	BaseURL string
	// BaseURLFromProject says BaseURL is a project file's choice (approved, or under --trust), not the
	// person's: a session saved with it reaches that server again only while the person approves it.
	BaseURLFromProject bool
	APIKey             string
	APIKeyEnv          string
	ContextWindow      int
	MaxSteps           int

	Mode                  string
	Allow, Deny, Ask      []string
	AdditionalDirectories []string

	BashTimeoutMS             int
	BashMaxTimeoutMS          int
	BashMaxOutputChars        int
	BashEnv                   []string
	BashAutoBackgroundAfterMS int
	Limits                    LimitValues

	SandboxEnabled   bool
	SandboxNetwork   bool
	SandboxWritable  []string
	SandboxAutoAllow bool
	SandboxJail      bool
	// SandboxJailReadable are the places in the home directories the read-only jail shows besides its
	// own, as written (a leading ~ is the home directory).
	SandboxJailReadable []string

	Theme string
	// TranscriptOnExit is ui.transcript_on_exit (true unless a settings file says false).
	TranscriptOnExit bool
	// Mouse is ui.mouse (true unless a settings file says false).
	Mouse bool
	// Notifications is ui.notifications, "auto" when no file sets it.
	Notifications string

	// Workspace is the absolute directory Warden works in.
	Workspace string
	// Files lists the settings files that were read, in order.
	Files []string
	// RuleOrigins says which file each permission rule came from, so that a bad rule can be reported
	// where it was written (config does not parse rules: it imports nothing of Warden's).
	RuleOrigins []RuleOrigin
	// TrustItems are what the workspace's files loosen, each with what the person answered about it
	// (trust_items.go); only the approved apply. Untrusted are those that wait, as listed (FILE: WHAT).
	TrustItems []TrustItem
	Untrusted  []string
	// Warnings are what the person must be told about the settings once: a project file the opener
	// refused (a link out of the workspace, say), which is not applied.
	Warnings []string
	// Trusted reports that nothing the workspace loosens waits: every item is approved (or --trust).
	Trusted bool
	// ProjectCommands reports that the project's commands and skills may be used: the person approved
	// them as they are now. False when the project has none.
	ProjectCommands bool

	// MCPServers are the servers to start, by name, in the order first configured.
	MCPServers []MCPServerEntry
	// UntrustedMCPServers are the servers that wait for the person's approval: the project's, and the
	// person's own that Warden would start in the workspace.
	UntrustedMCPServers []MCPServerEntry
	// MCPDeferPercent is mcp_defer_percent as set; DeferPercent gives it with its default.
	MCPDeferPercent *int

	// Hooks are the hooks to run, the person's and the project's they approved, in the order configured;
	// UntrustedHooks are a project's that wait for approval.
	Hooks, UntrustedHooks []Hook

	// trust tells each item's state from the person's answers.
	trust *trustJudge
	// opener reads the files items cover beyond the settings (a hook's script).
	opener *safefile.Opener
	// hashed are the files hook items covered at this start, by path: hooks share their folders.
	hashed map[string]fileHash
}

// RuleOrigin is the permission rules one settings file contributed.
type RuleOrigin struct {
	File string
	// Project is set for the repository's own file (.warden/settings.json), whose rule that does not
	// parse is left out with a warning rather than stopping Warden; the person's own files' stop it.
	Project          bool
	Allow, Deny, Ask []string
	at               *positions
}

// DropRule takes rule out of the rules in force (from list: allow, deny or ask), as when a project's
// rule does not parse and is left out.
func (c *Config) DropRule(list, rule string) {
	drop := func(l []string) []string { return slices.DeleteFunc(l, func(r string) bool { return r == rule }) }
	switch list {
	case "allow":
		c.Allow = drop(c.Allow)
	case "deny":
		c.Deny = drop(c.Deny)
	case "ask":
		c.Ask = drop(c.Ask)
	}
}

// Where names the file, line and column of rule i of list (allow, deny or ask).
func (o RuleOrigin) Where(list string, i int) string {
	if o.at == nil {
		return o.File
	}
	return o.at.of("permissions", list, fmt.Sprintf("[%d]", i))
}

// Defaults applied when no source sets a value.
const (
	DefaultMaxSteps       = 50
	DefaultContextWindow  = 128000
	DefaultTimeoutMS      = 120_000
	DefaultMaxTimeoutMS   = 600_000
	DefaultMaxOutputChars = 30_000
	DefaultAPIKeyEnv      = "OPENAI_API_KEY"
)

// Overrides are the flags given on the command line; empty or nil means "not given".
type Overrides struct {
	Model, BaseURL, Mode string
	Allow, Deny          []string
	Sandbox              *bool
	// Trust counts every item the workspace loosens as approved, for this run only (--trust).
	Trust bool
}

// Sources says where to read settings from. Zero fields take the usual places.
type Sources struct {
	Workspace string
	// UserFile defaults to $XDG_CONFIG_HOME/warden/settings.json.
	UserFile string
	// Getenv defaults to os.Getenv.
	Getenv func(string) string
	// Opener reads every file: the session's (package safefile), which keeps a repository's links inside
	// the workspace and out of secret places. Nil judges only what a file is, not where it leads.
	Opener *safefile.Opener
}

// Load reads every settings source and merges them.
func Load(src Sources, ov Overrides) (*Config, error) {
	getenv := src.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	ws, err := filepath.Abs(src.Workspace)
	if err != nil {
		return nil, fmt.Errorf("resolving workspace: %w", err)
	}
	userFile := src.UserFile
	if userFile == "" {
		userFile = filepath.Join(ConfigDir(getenv), "settings.json")
	}

	o := src.Opener
	cfg := &Config{Workspace: ws, SandboxJail: true, TranscriptOnExit: true, Mouse: true, trust: &trustJudge{all: ov.Trust}, opener: o}
	if !ov.Trust {
		answers, err := answersFor(o, getenv, ws)
		if err != nil {
			// Nothing counts as approved then, which loosens nothing: Warden goes on, everything the
			// workspace loosens waits, and the person is told how to mend the record.
			cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%v; until then nothing in this workspace counts as approved", err))
		}
		cfg.trust.answers = answers.index()
	}

	files := []struct {
		path    string
		project bool
		// mine is a file the person writes (their settings, the workspace's settings.local.json, where
		// the rules they save for it go).
		mine bool
	}{
		{userFile, false, true},
		{filepath.Join(ws, ".warden", "settings.json"), true, false},
		{filepath.Join(ws, ".warden", "settings.local.json"), true, true},
	}
	for i, f := range files {
		if i == 1 {
			// .mcp.json sits between the person's own settings and Warden's project files, as Claude
			// Code ranks it between user and local scope.
			if err := cfg.readMCPJSON(o); err != nil {
				return nil, err
			}
		}
		s, err := ReadFile(o, f.path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		var refused *safefile.Refused
		switch {
		case errors.As(err, &refused) && f.project:
			// A file in the workspace, which the repository may have committed (settings.local.json
			// too, with git add -f) and chose to make unreadable: leaving it out applies no deny rule
			// of its, but can loosen nothing the person set, and must not stop Warden in every clone.
			cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%v; its settings are not applied", err))
			continue
		case errors.As(err, &refused):
			// The person's own rules may be in it: running without them could allow what they deny.
			return nil, fmt.Errorf("%w; Warden does not start without the settings you keep there: make it a plain settings file, or remove it", err)
		case err != nil && f.project:
			// A repository's file that does not parse would otherwise stop Warden in every clone of it.
			// What it meant cannot be told, so none of it applies: its deny rules included, which could
			// loosen nothing the person set.
			cfg.Warnings = append(cfg.Warnings, projectFileLeftOut(err))
			continue
		case err != nil:
			return nil, err
		}
		cfg.Files = append(cfg.Files, f.path)
		// The rules the person saved for this project themselves (ownRules) are theirs, not the
		// repository's: they apply without approval, and are no item to approve.
		var own []string
		if f.project && f.mine {
			if own, s.Permissions.Allow, err = ownRules(o, getenv, ws, s.Permissions.Allow); err != nil {
				return nil, err
			}
		}
		if f.project {
			// Each item of what the file loosens applies once approved as it is; the rest of the file
			// (what tightens, what changes nothing of the person's safety) applies at once.
			for _, l := range loosening(s, cfg, cfg.relFile(f.path)) {
				if !cfg.judge(l.TrustItem) {
					l.drop(s)
				}
			}
			// A zero duration or size is "not set" in a project's file: it inherits what the files
			// before it set, never Warden's default over the person's limits (a 0 timeout would put
			// back 120000 ms above the person's maximum, and stop every start).
			s.Bash.zeroInherits()
			// A timeout above the longest allowed would stop the start (validate): the project's is
			// left out instead, and said.
			if t := s.Bash.TimeoutMS; t != nil && *t > cmp.Or(derefInt(s.Bash.MaxTimeoutMS), cfg.BashMaxTimeoutMS, DefaultMaxTimeoutMS) {
				cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s: bash.timeout_ms (%d) is above bash.max_timeout_ms (%d); Warden goes on without it",
					s.at.of("bash", "timeout_ms"), *t, cmp.Or(derefInt(s.Bash.MaxTimeoutMS), cfg.BashMaxTimeoutMS, DefaultMaxTimeoutMS)))
				s.Bash.TimeoutMS = nil
			}
		}
		s.Permissions.Allow = append(s.Permissions.Allow, own...)
		if s.BaseURL != nil {
			cfg.BaseURLFromProject = f.project && strings.TrimRight(*s.BaseURL, "/") != strings.TrimRight(cfg.BaseURL, "/")
		}
		cfg.apply(s)
		if f.project {
			cfg.fitTimeout(s)
		}
		cfg.addMCPServers(f.path, f.project, s.MCPServers)
		cfg.addHooks(f.path, f.project, s.Hooks)
		if p := s.Permissions; len(p.Allow)+len(p.Deny)+len(p.Ask) > 0 {
			cfg.RuleOrigins = append(cfg.RuleOrigins, RuleOrigin{File: f.path, Project: f.project, Allow: p.Allow, Deny: p.Deny, Ask: p.Ask, at: s.at})
		}
	}

	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	cfg.readClaudeHooks(o, home)
	// The person's hooks run first and are the ones kept when a project configures the same command
	// (hooks.Runner runs a command once per event): a project's copy with a shorter timeout or another
	// matcher must not stand in for the person's guard.
	slices.SortStableFunc(cfg.Hooks, func(a, b Hook) int { return cmpBool(a.Project, b.Project) })
	cfg.addProjectCommands(o)
	cfg.Trusted = true
	for _, it := range cfg.TrustItems {
		if it.Waits() {
			cfg.Trusted = false
			cfg.Untrusted = append(cfg.Untrusted, it.String())
		}
	}

	if v := getenv("WARDEN_MODEL"); v != "" {
		cfg.Model = v
	}
	if v := getenv("OPENAI_BASE_URL"); v != "" {
		cfg.BaseURL, cfg.BaseURLFromProject = v, false
	}
	if cfg.APIKeyEnv == "" {
		cfg.APIKeyEnv = DefaultAPIKeyEnv
	}
	cfg.APIKey = getenv(cfg.APIKeyEnv)

	if ov.Model != "" {
		cfg.Model = ov.Model
	}
	if ov.BaseURL != "" {
		cfg.BaseURL, cfg.BaseURLFromProject = ov.BaseURL, false
	}
	if ov.Mode != "" {
		cfg.Mode = ov.Mode
	}
	cfg.Allow = append(cfg.Allow, ov.Allow...)
	cfg.Deny = append(cfg.Deny, ov.Deny...)
	if ov.Sandbox != nil {
		cfg.SandboxEnabled = *ov.Sandbox
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	cfg.fillDefaults()
	return cfg, cfg.validate()
}

// projectFileLeftOut is the warning about a project's settings file that does not parse or check, which
// Warden goes on without.
func projectFileLeftOut(err error) string {
	return fmt.Sprintf("%v; Warden goes on without this file of the project's (none of its settings, rules, servers or hooks apply) until it is fixed", err)
}

// passesVariable reports whether a bash.env entry passes a variable to commands ("NAME") rather than
// dropping one ("-NAME").
func passesVariable(n string) bool { return n != "" && !strings.HasPrefix(n, "-") }

func (c *Config) apply(s *Settings) {
	setStr(&c.Model, s.Model)
	setStr(&c.BaseURL, s.BaseURL)
	setStr(&c.APIKeyEnv, s.APIKeyEnv)
	setInt(&c.ContextWindow, s.ContextWindow)
	setInt(&c.MaxSteps, s.MaxSteps)
	setStr(&c.Mode, s.Permissions.Mode)
	c.Allow = append(c.Allow, s.Permissions.Allow...)
	c.Deny = append(c.Deny, s.Permissions.Deny...)
	c.Ask = append(c.Ask, s.Permissions.Ask...)
	c.AdditionalDirectories = append(c.AdditionalDirectories, s.Permissions.AdditionalDirectories...)
	setInt(&c.BashTimeoutMS, s.Bash.TimeoutMS)
	setInt(&c.BashMaxTimeoutMS, s.Bash.MaxTimeoutMS)
	setInt(&c.BashMaxOutputChars, s.Bash.MaxOutputChars)
	c.BashEnv = append(c.BashEnv, s.Bash.Env...)
	setInt(&c.BashAutoBackgroundAfterMS, s.Bash.AutoBackgroundAfterMS)
	if l := s.Bash.Limits; l != nil {
		if l.MemoryMB != 0 {
			c.Limits.MemoryMB = l.MemoryMB
		}
		if l.Processes != 0 {
			c.Limits.Processes = l.Processes
		}
		if l.CPUSeconds != 0 {
			c.Limits.CPUSeconds = l.CPUSeconds
		}
		if l.FileSizeMB != 0 {
			c.Limits.FileSizeMB = l.FileSizeMB
		}
	}
	if s.Sandbox.Enabled != nil {
		c.SandboxEnabled = *s.Sandbox.Enabled
	}
	if s.Sandbox.Network != nil {
		c.SandboxNetwork = *s.Sandbox.Network
	}
	c.SandboxWritable = append(c.SandboxWritable, s.Sandbox.Writable...)
	if s.Sandbox.AutoAllow != nil {
		c.SandboxAutoAllow = *s.Sandbox.AutoAllow
	}
	if s.Sandbox.Jail != nil {
		c.SandboxJail = *s.Sandbox.Jail
	}
	c.SandboxJailReadable = append(c.SandboxJailReadable, s.Sandbox.JailReadable...)
	setStr(&c.Theme, s.UI.Theme)
	if s.UI.TranscriptOnExit != nil {
		c.TranscriptOnExit = *s.UI.TranscriptOnExit
	}
	if s.UI.Mouse != nil {
		c.Mouse = *s.UI.Mouse
	}
	if s.MCPDeferPercent != nil {
		c.MCPDeferPercent = s.MCPDeferPercent
	}
	setStr(&c.Notifications, s.UI.Notifications)
}

func (c *Config) fillDefaults() {
	defInt(&c.MaxSteps, DefaultMaxSteps)
	defInt(&c.ContextWindow, DefaultContextWindow)
	defInt(&c.BashTimeoutMS, DefaultTimeoutMS)
	defInt(&c.BashMaxTimeoutMS, DefaultMaxTimeoutMS)
	defInt(&c.BashMaxOutputChars, DefaultMaxOutputChars)
	if c.Mode == "" {
		c.Mode = "default"
	}
	if c.Notifications == "" {
		c.Notifications = "auto"
	}
}

func (c *Config) validate() error {
	switch c.Mode {
	case "default", "accept-edits", "plan", "yolo":
	default:
		return fmt.Errorf("unknown permission mode %q: use default, accept-edits, plan or yolo", c.Mode)
	}
	if c.MaxSteps < 1 {
		return fmt.Errorf("max_steps must be at least 1, not %d", c.MaxSteps)
	}
	if c.BashTimeoutMS > c.BashMaxTimeoutMS {
		return fmt.Errorf("bash.timeout_ms (%d) is above bash.max_timeout_ms (%d)", c.BashTimeoutMS, c.BashMaxTimeoutMS)
	}
	return nil
}

// ReadFile parses one settings file, read through o. A syntax error names the file, line and column; an
// unknown key, a key in the wrong case and a key given twice are errors too, so that no setting is ever
// silently ignored. A leading byte-order mark is skipped. A file o refuses is a *safefile.Refused, and
// nothing of it is read, so no error quotes it.
func ReadFile(o *safefile.Opener, path string) (*Settings, error) {
	s := &Settings{}
	at, err := readStrict(o, path, s, reflect.TypeFor[Settings]())
	if err != nil {
		return nil, err
	}
	if err := s.check(at); err != nil {
		return nil, err
	}
	s.at = at
	return s, nil
}

// maxSettingsSize bounds a settings file: a repository's file is read at every start, trusted or not, and
// a real one is a few kilobytes.
const maxSettingsSize = 1 << 20

// readStrict decodes the JSON file at path, read through o, into v, of type t, refusing what ReadFile
// refuses, and says where each key is. A missing file is an error that matches os.ErrNotExist, a refused
// one a *safefile.Refused; an empty one leaves v as it is.
func readStrict(o *safefile.Opener, path string, v any, t reflect.Type) (*positions, error) {
	at, _, err := readStrictForeign(o, path, v, t, nil)
	return at, err
}

// readStrictForeign is readStrict for a file other tools write too, whose keys foreign accepts as
// theirs are skipped and returned, with where they are (checkKeysForeign).
func readStrictForeign(o *safefile.Opener, path string, v any, t reflect.Type, foreign func([]string) bool) (*positions, []string, error) {
	data, err := readSettingsBytes(o, path)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, err
	}
	var at *positions
	var ignored []string
	if json.Valid(data) {
		if at, ignored, err = checkKeysForeign(path, data, t, foreign); err != nil {
			return nil, nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if len(ignored) == 0 {
		// Otherwise every key was checked, and those left are the other tools', which the decoder skips.
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return nil, nil, settingsError(path, data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, dec.InputOffset())
		return nil, nil, fmt.Errorf("%s:%d:%d: unexpected content after the settings object; a settings file holds one object", path, line, col)
	}
	return at, ignored, nil
}

// readSettingsBytes reads the settings file at path through o, bounded, without its byte-order mark. A
// missing file is an error that matches os.ErrNotExist, a refused one a *safefile.Refused.
func readSettingsBytes(o *safefile.Opener, path string) ([]byte, error) {
	// A repository chooses what stands at its settings paths: a FIFO must not stall the start, and a
	// link to a key must not be read, nor quoted in an error.
	f, err := o.Open(path)
	if err != nil {
		var refused *safefile.Refused
		if errors.Is(err, os.ErrNotExist) || errors.As(err, &refused) {
			return nil, err
		}
		return nil, fmt.Errorf("reading settings: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsSize+1))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading settings: %w", err)
	}
	if len(data) > maxSettingsSize {
		return nil, fmt.Errorf("%s: a settings file may be at most %d KB, and this one is larger; is it the right file?", path, maxSettingsSize>>10)
	}
	return stripBOM(data), nil
}

// check finds values that parse but make no sense, so that they are reported where they were written
// rather than silently replaced by a default.
func (s *Settings) check(at *positions) error {
	if m := s.Permissions.Mode; m != nil {
		switch *m {
		case "default", "accept-edits", "plan", "yolo":
		default:
			return fmt.Errorf("%s: permissions.mode: unknown permission mode %q: use default, accept-edits, plan or yolo",
				at.of("permissions", "mode"), *m)
		}
	}
	if n := s.UI.Notifications; n != nil && !slices.Contains(NotifyMethods, *n) {
		return fmt.Errorf("%s: ui.notifications: unknown way to notify %q: use %s", at.of("ui", "notifications"),
			printable.Escape(*n), strings.Join(NotifyMethods, ", "))
	}
	ints := []struct {
		keys []string
		v    *int
		min  int
	}{
		{[]string{"context_window"}, s.ContextWindow, 1}, {[]string{"max_steps"}, s.MaxSteps, 1},
		{[]string{"bash", "timeout_ms"}, s.Bash.TimeoutMS, 0}, {[]string{"bash", "max_timeout_ms"}, s.Bash.MaxTimeoutMS, 0},
		{[]string{"bash", "max_output_chars"}, s.Bash.MaxOutputChars, 0}, {[]string{"bash", "auto_background_after_ms"}, s.Bash.AutoBackgroundAfterMS, 0},
	}
	// (A negative resource limit is allowed: it removes that limit.)
	for _, f := range ints {
		switch {
		case f.v == nil:
		case *f.v < 0:
			return fmt.Errorf("%s: %s must not be negative, not %d", at.of(f.keys...), strings.Join(f.keys, "."), *f.v)
		case *f.v < f.min:
			// 0 would silently mean the default.
			return fmt.Errorf("%s: %s must be at least %d, not %d; leave it out for the default", at.of(f.keys...), strings.Join(f.keys, "."), f.min, *f.v)
		}
	}
	if err := checkHooks(s.Hooks, at); err != nil {
		return err
	}
	if err := checkMCPDeferPercent(s.MCPDeferPercent, at); err != nil {
		return err
	}
	return checkMCPServers(s.MCPServers, at)
}

// ConfigDir is $XDG_CONFIG_HOME/warden, or ~/.config/warden.
func ConfigDir(getenv func(string) string) string {
	return xdgDir(getenv, "XDG_CONFIG_HOME", ".config")
}

// StateDir is $XDG_STATE_HOME/warden, or ~/.local/state/warden.
func StateDir(getenv func(string) string) string {
	return xdgDir(getenv, "XDG_STATE_HOME", filepath.Join(".local", "state"))
}

func xdgDir(getenv func(string) string, name, fallback string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv(name); filepath.IsAbs(d) {
		return filepath.Join(d, "warden")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, fallback, "warden")
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// derefInt is *p, 0 for nil.
func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func setStr(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func defInt(dst *int, v int) {
	if *dst == 0 {
		*dst = v
	}
}
