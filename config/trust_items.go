package config

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/printable"
)

// What a workspace loosens is a list of items, each approved on its own (DESIGN.md §6): every allow rule,
// a mode looser than the one before, more steps, a longer longest command or a laxer resource limit, each
// environment variable passed, each sandbox, jail and directory setting, another server or key variable,
// each MCP server Warden would start in the workspace or a project names, each project hook (with its
// timeout and the files that decide what it runs, hook_files.go), and the project's commands and skills as one set. An item's digest
// covers all of it, so that a pull that changes one (another command line for a server of the same name,
// another hook command or an edited hook script, an edited command file) brings a new item that waits for
// the person, while what they approved and is unchanged keeps working. What only tightens (deny and ask
// rules, the sandbox or the jail turned on, a stricter mode, lower limits, a variable dropped) is no
// item: it always applies.

// TrustState is what the person answered about exactly one item.
type TrustState string

const (
	// TrustNew is an item the person was never asked about.
	TrustNew TrustState = "new"
	// TrustChanged is a setting the person answered about with other content (a server of the same
	// name and file with another command line, another mode): asked like a new one.
	TrustChanged TrustState = "changed"
	// TrustApproved applies; under --trust every item counts as approved for that run.
	TrustApproved TrustState = "approved"
	// TrustDeclined stays off, and is not asked again until it changes.
	TrustDeclined TrustState = "declined"
)

// TrustItem is one thing a workspace's files loosen, which applies only once the person approved it.
type TrustItem struct {
	// Key names the setting the item is (an allow rule, the mode, a server of one file): an item of the
	// same key with another digest is that setting changed.
	Key string
	// Digest is "sha256:" and the hash of the key and the item's whole content.
	Digest string
	// File is where the item was written, relative to the workspace when it is in it; empty for the
	// project's commands and skills, which are folders.
	File string
	// Text says what the item lets in, as the person is shown it (escaped: printable).
	Text  string
	State TrustState
	// Commands are the names of the project's commands and skills (the item of Key "commands"), so that
	// using one can say it waits for approval.
	Commands []string
}

// String is the item as listed: the file and what it lets in.
func (it TrustItem) String() string {
	if it.File == "" {
		return it.Text
	}
	return printable.Escape(it.File) + ": " + it.Text
}

// Waits reports an item that does not apply: new, changed or declined.
func (it TrustItem) Waits() bool { return it.State != TrustApproved }

// Asked reports an item to ask about at start: new or changed since the person last answered.
func (it TrustItem) Asked() bool { return it.State == TrustNew || it.State == TrustChanged }

// Waiting returns the items of cfg that do not apply.
func (c *Config) Waiting() []TrustItem {
	return slices.DeleteFunc(slices.Clone(c.TrustItems), func(it TrustItem) bool { return !it.Waits() })
}

// newItem is the item of the setting key with content, written in file, shown as text.
func newItem(key, content, file, text string) TrustItem {
	// The key's length comes first, so that no key and content read as another key and content.
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s", len(key), key)
	h.Write([]byte(content))
	return TrustItem{Key: key, Digest: "sha256:" + hex.EncodeToString(h.Sum(nil)), File: file, Text: printable.Escape(text)}
}

// looseItem is an item of a settings file and how to leave it out of that file's settings.
type looseItem struct {
	TrustItem
	drop func(*Settings)
}

// loosening lists the items of project settings s, read from file, that loosen what the settings read
// before it (cur) allow: allow rules, a mode that lets more run unasked than the one set before (a
// project's "default" over the person's "plan" too), more steps or a longer longest command than before,
// a resource limit raised, removed or set where the person left Warden's default, extra directories, a
// sandbox made more permissive or switched off, places of the home shown in the read-only jail, the jail
// turned off, variables passed to commands beyond the environment's allow-list, and another server or key
// variable, which would send the person's key (or whatever variable the file names) to a server the
// repository chose.
func loosening(s *Settings, cur *Config, file string) []looseItem {
	var out []looseItem
	add := func(key, content, text string, drop func(*Settings)) {
		out = append(out, looseItem{newItem(key, content, file, text), drop})
	}
	if s.BaseURL != nil && strings.TrimRight(*s.BaseURL, "/") != strings.TrimRight(cur.BaseURL, "/") {
		add("base_url", strings.TrimRight(*s.BaseURL, "/"), fmt.Sprintf("base_url %q", maskURL(*s.BaseURL)), func(s *Settings) { s.BaseURL = nil })
	}
	if s.APIKeyEnv != nil && *s.APIKeyEnv != cmp.Or(cur.APIKeyEnv, DefaultAPIKeyEnv) {
		add("api_key_env", *s.APIKeyEnv, fmt.Sprintf("api_key_env %q", *s.APIKeyEnv), func(s *Settings) { s.APIKeyEnv = nil })
	}
	if s.Sandbox.Enabled != nil && !*s.Sandbox.Enabled && cur.SandboxEnabled {
		add("sandbox.enabled", "false", "sandbox.enabled false", func(s *Settings) { s.Sandbox.Enabled = nil })
	}
	if s.Sandbox.Jail != nil && !*s.Sandbox.Jail && cur.SandboxJail {
		add("sandbox.jail", "false", "sandbox.jail false", func(s *Settings) { s.Sandbox.Jail = nil })
	}
	for _, n := range unique(s.Bash.Env) {
		if passesVariable(n) {
			add("bash.env:"+n, "", "bash.env passes "+n, func(s *Settings) { s.Bash.Env = without(s.Bash.Env, n) })
		}
	}
	for _, r := range unique(s.Permissions.Allow) {
		add("allow:"+r, "", "allow rule "+r, func(s *Settings) { s.Permissions.Allow = without(s.Permissions.Allow, r) })
	}
	if m := s.Permissions.Mode; m != nil && modeRank(*m) > modeRank(cmp.Or(cur.Mode, "default")) {
		add("mode", *m, fmt.Sprintf("permission mode %q", *m), func(s *Settings) { s.Permissions.Mode = nil })
	}
	if v := s.MaxSteps; v != nil && *v > cmp.Or(cur.MaxSteps, DefaultMaxSteps) {
		add("max_steps", fmt.Sprint(*v), fmt.Sprintf("max_steps %d", *v), func(s *Settings) { s.MaxSteps = nil })
	}
	if v := s.Bash.MaxTimeoutMS; v != nil && *v > cmp.Or(cur.BashMaxTimeoutMS, DefaultMaxTimeoutMS) {
		add("bash.max_timeout_ms", fmt.Sprint(*v), fmt.Sprintf("bash.max_timeout_ms %d", *v), func(s *Settings) {
			// The file's own timeout may only fit under the maximum left out with it.
			if t := s.Bash.TimeoutMS; t != nil && *t > cmp.Or(cur.BashMaxTimeoutMS, DefaultMaxTimeoutMS) {
				s.Bash.TimeoutMS = nil
			}
			s.Bash.MaxTimeoutMS = nil
		})
	}
	if l := s.Bash.Limits; l != nil {
		for _, name := range []string{"memory_mb", "processes", "cpu_seconds", "file_size_mb"} {
			mine := cur.Limits
			if v := *limitField(l, name); !limitTightens(v, *limitField(&mine, name)) {
				shown := fmt.Sprint(v)
				if v < 0 {
					shown = "none (no limit)"
				}
				add("bash.limits."+name, fmt.Sprint(v), "bash.limits."+name+" "+shown, func(s *Settings) {
					*limitField(s.Bash.Limits, name) = 0
				})
			}
		}
	}
	for _, d := range unique(s.Permissions.AdditionalDirectories) {
		add("additional_directories:"+d, "", "additional directory "+d, func(s *Settings) {
			s.Permissions.AdditionalDirectories = without(s.Permissions.AdditionalDirectories, d)
		})
	}
	if s.Sandbox.AutoAllow != nil && *s.Sandbox.AutoAllow {
		add("sandbox.auto_allow", "true", "sandbox.auto_allow", func(s *Settings) { s.Sandbox.AutoAllow = nil })
	}
	if s.Sandbox.Network != nil && *s.Sandbox.Network {
		add("sandbox.network", "true", "sandbox.network", func(s *Settings) { s.Sandbox.Network = nil })
	}
	for _, w := range unique(s.Sandbox.Writable) {
		add("sandbox.writable:"+w, "", "sandbox.writable "+w, func(s *Settings) { s.Sandbox.Writable = without(s.Sandbox.Writable, w) })
	}
	for _, p := range unique(s.Sandbox.JailReadable) {
		add("sandbox.jail_readable:"+p, "", "sandbox.jail_readable "+p, func(s *Settings) {
			s.Sandbox.JailReadable = without(s.Sandbox.JailReadable, p)
		})
	}
	return out
}

// modeRank orders the permission modes from the one that lets least run unasked: a project's mode applies
// at once when it ranks no higher than the mode the person's settings chose.
func modeRank(m string) int {
	return slices.Index([]string{"plan", "default", "accept-edits", "yolo"}, m)
}

// limitTightens reports whether a project's resource limit v (0: not set; negative: none) only tightens
// the limit mine the settings before it set (0: Warden's default, which config does not know, so that
// only a limit no laxer than one the person set, or none over none, tightens for sure).
func limitTightens(v, mine int) bool {
	switch {
	case v == 0:
		return true
	case v < 0:
		return mine < 0
	}
	return mine < 0 || mine > 0 && v <= mine
}

// limitField is the field of l of the key name.
func limitField(l *LimitValues, name string) *int {
	switch name {
	case "memory_mb":
		return &l.MemoryMB
	case "processes":
		return &l.Processes
	case "cpu_seconds":
		return &l.CPUSeconds
	}
	return &l.FileSizeMB
}

// mcpItem is the item of a server Warden would start in the workspace or a project names: its name and
// file are the setting, everything the entry says (command, arguments, environment, URL, headers, whether
// its read-only marks count, its timeout) is the content.
func mcpItem(e MCPServerEntry, file string) TrustItem {
	content, _ := json.Marshal(e.MCPServer) // maps are written in key order: the same entry, the same digest
	key, _ := json.Marshal([]string{file, e.Key})
	return newItem("mcp:"+string(key), string(content), file, e.Describe())
}

// hookItem is the item of a project's hook. Its event, matcher and command are the setting, its timeout
// and the files of the workspace that decide what the command runs (hook_files.go: the hook folders, the
// files it names and their folders, a task runner's task file) are the content: a pull that edits a
// script an approved hook runs or sources, or raises its timeout, brings another item. The command is
// shown with the secret values in it masked, as a server's are, and with what the item cannot cover.
func (c *Config) hookItem(h Hook, file string) TrustItem {
	key, _ := json.Marshal([]string{h.Event, h.Matcher, h.Command})
	cover := c.hookCover(h.Command)
	content, _ := json.Marshal(struct {
		Timeout int `json:"timeout"`
		hookCover
	}{h.TimeoutSec, cover})
	text := fmt.Sprintf("hook %s %s runs %s", h.Event, cmpMatcher(h.Matcher), strings.Join(maskWords(strings.Split(h.Command, " ")), " "))
	if h.TimeoutSec > 0 {
		text += fmt.Sprintf(" (timeout %d s)", h.TimeoutSec)
	}
	if len(cover.Uncovered) > 0 {
		text += "; approving it does not cover " + strings.Join(maskWords(strings.Split(strings.Join(cover.Uncovered, "; "), " ")), " ")
	}
	return newItem("hook:"+string(key), string(content), file, text)
}

// ApprovesServer reports whether url is a server the workspace's settings name now, in an item the person
// approved (or under --trust): a resumed session that a project's server served goes back to it only then,
// as today's settings would. An approval the record keeps for a server the files no longer name (changed
// to {} or to another server) is not enough: it was given for a file that said so.
func (c *Config) ApprovesServer(url string) bool {
	want := newItem("base_url", strings.TrimRight(url, "/"), "", "").Digest
	return slices.ContainsFunc(c.TrustItems, func(it TrustItem) bool {
		return it.Key == "base_url" && it.Digest == want && it.State == TrustApproved
	})
}

// trustJudge tells each item's state from the person's answers for the workspace.
type trustJudge struct {
	answers answerIndex
	// all is --trust: every item counts as approved for this run, and nothing is recorded.
	all bool
}

func (j *trustJudge) state(it TrustItem) TrustState {
	switch {
	case j.all || j.answers.approved[it.Digest]:
		return TrustApproved
	case j.answers.declined[it.Digest]:
		return TrustDeclined
	case j.answers.keys[it.Key]:
		return TrustChanged
	}
	return TrustNew
}

// judge adds item it to the workspace's items and reports whether it applies. An item found twice (one
// allow rule in two files) is listed once.
func (c *Config) judge(it TrustItem) bool {
	for _, seen := range c.TrustItems {
		if seen.Digest == it.Digest {
			return !seen.Waits()
		}
	}
	it.State = c.trust.state(it)
	c.TrustItems = append(c.TrustItems, it)
	return !it.Waits()
}

// relFile is path as items show it: relative to the workspace when it is in it.
func (c *Config) relFile(path string) string {
	if rel, err := filepath.Rel(c.Workspace, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

func unique(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func without(list []string, s string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(x string) bool { return x == s })
}
