package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/warden-cli/warden/printable"
	"github.com/warden-cli/warden/safefile"
)

// Claude Code keeps hooks in its own settings files: the person's ~/.claude/settings.json, and a
// project's .claude/settings.json and .claude/settings.local.json. Warden reads the "hooks" key of each
// and nothing else, so that hooks a person or a team wrote for Claude Code run in Warden too: the
// person's as the person's, a project's as a project's, waiting for trust like the hooks of
// .warden/settings.json. The files are Claude Code's and hold much Warden does not know, so they are read
// leniently: what Warden cannot run (a file that does not parse, an event or a hook type it does not
// have, a matcher that is not a regular expression it reads) is left out, and the person is told once at
// start what was; it never stops Warden from starting. "disableAllHooks": true in a file leaves its hooks
// out, as Claude Code does.

// claudeFile is the part of a Claude Code settings file Warden reads.
type claudeFile struct {
	Hooks           map[string]json.RawMessage `json:"hooks"`
	DisableAllHooks bool                       `json:"disableAllHooks"`
}

// readClaudeHooks adds the hooks of Claude Code's settings files, after Warden's own.
func (c *Config) readClaudeHooks(o *safefile.Opener, home string) {
	files := []struct {
		path    string
		project bool
	}{
		{filepath.Join(c.Workspace, ".claude", "settings.json"), true},
		{filepath.Join(c.Workspace, ".claude", "settings.local.json"), true},
	}
	if home != "" {
		files = slices.Insert(files, 0, struct {
			path    string
			project bool
		}{filepath.Join(home, ".claude", "settings.json"), false})
	}
	for _, f := range files {
		hooks, warnings := readClaudeHooksFile(o, f.path)
		c.Warnings = append(c.Warnings, warnings...)
		if len(hooks) > 0 {
			c.addHooks(f.path, f.project, hooks)
		}
	}
}

// readClaudeHooksFile returns the hooks of one Claude Code settings file that Warden can run, and what it
// left out.
func readClaudeHooksFile(o *safefile.Opener, path string) (map[string][]HookMatcher, []string) {
	f, err := o.Open(path)
	var refused *safefile.Refused
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.As(err, &refused):
		return nil, []string{fmt.Sprintf("%v; the hooks in it are not run", err)}
	case err != nil:
		return nil, []string{fmt.Sprintf("%s: %v; the hooks in it are not run", path, err)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsSize+1))
	f.Close()
	switch {
	case err != nil:
		return nil, []string{fmt.Sprintf("%s: %v; the hooks in it are not run", path, err)}
	case len(data) > maxSettingsSize:
		return nil, []string{fmt.Sprintf("%s is larger than %d KB; the hooks in it are not run", path, maxSettingsSize>>10)}
	}
	data = stripBOM(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var cf claudeFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return nil, []string{fmt.Sprintf("%s does not parse as JSON (%v); the hooks in it are not run", path, err)}
	}
	if cf.DisableAllHooks || len(cf.Hooks) == 0 {
		return nil, nil
	}
	out := map[string][]HookMatcher{}
	var left []string
	events := make([]string, 0, len(cf.Hooks))
	for ev := range cf.Hooks {
		events = append(events, ev)
	}
	slices.Sort(events)
	for _, ev := range events {
		if !slices.Contains(HookEvents, ev) {
			left = append(left, fmt.Sprintf("the %s hooks (an event Warden does not have)", printable.Escape(ev)))
			continue
		}
		var ms []HookMatcher
		if err := json.Unmarshal(cf.Hooks[ev], &ms); err != nil {
			left = append(left, fmt.Sprintf("the %s hooks (%v)", ev, err))
			continue
		}
		for _, m := range ms {
			if m.Matcher != "" && m.Matcher != "*" {
				if _, err := regexp.Compile(m.Matcher); err != nil {
					left = append(left, fmt.Sprintf("the %s hooks matched on %q (not a regular expression Warden reads)", ev, printable.Escape(m.Matcher)))
					continue
				}
			}
			kept := HookMatcher{Matcher: m.Matcher}
			for _, h := range m.Hooks {
				switch {
				case h.Type != "command":
					left = append(left, fmt.Sprintf("a %s hook of type %q (Warden runs commands only)", ev, printable.Escape(h.Type)))
				case strings.TrimSpace(h.Command) == "" || h.Timeout < 0:
					left = append(left, fmt.Sprintf("a %s hook without a command or with a negative timeout", ev))
				default:
					kept.Hooks = append(kept.Hooks, h)
				}
			}
			if len(kept.Hooks) > 0 {
				out[ev] = append(out[ev], kept)
			}
		}
	}
	var warnings []string
	if len(left) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: left out %s; the rest of its hooks run", path, strings.Join(left, ", ")))
	}
	return out, warnings
}
