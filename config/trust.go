package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/warden-cli/warden/safefile"
)

// The trust record and the saved-rules record are Warden's own files in the state directory. They are
// read through the session's opener like every file Warden reads for itself, and written with
// safefile.WriteWithin, which follows no link: a record that became a link is refused, never written
// through.

const (
	trustName      = "trusted_workspaces.json"
	savedRulesName = "saved_project_rules.json"
)

// The trust record is a JSON list of absolute workspace paths in the state directory. Trusting a workspace
// lets its project settings loosen permissions (allow rules, a mode other than default).
func trustFile(getenv func(string) string) string {
	return filepath.Join(StateDir(getenv), trustName)
}

// OwnFiles are the files of Warden's own that config reads from the settings and state directories: the
// person's settings and the two records. The permission engine judges those directories secret, since a
// command must not read them; Warden reading its own files is another matter, and the wiring tells its
// opener so.
func OwnFiles(getenv func(string) string) []string {
	return []string{filepath.Join(ConfigDir(getenv), "settings.json"), trustFile(getenv), savedRulesFile(getenv)}
}

// IsTrusted reports whether the person has trusted workspace ws.
func IsTrusted(o *safefile.Opener, getenv func(string) string, ws string) (bool, error) {
	list, err := readTrust(o, getenv)
	if err != nil {
		return false, err
	}
	return slices.Contains(list, ws), nil
}

// Trust records workspace ws as trusted.
func Trust(o *safefile.Opener, getenv func(string) string, ws string) error {
	list, err := readTrust(o, getenv)
	if err != nil {
		return err
	}
	if slices.Contains(list, ws) {
		return nil
	}
	list = append(list, ws)
	data, _ := json.MarshalIndent(list, "", "  ")
	return writeRecord(getenv, trustName, append(data, '\n'))
}

func readTrust(o *safefile.Opener, getenv func(string) string) ([]string, error) {
	path := trustFile(getenv)
	data, err := o.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading trusted workspaces: %w", err)
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s is not a JSON list of paths (%v); fix or delete it", path, err)
	}
	return list, nil
}

// AddProjectAllow saves an allow rule to the workspace's personal settings (.warden/settings.local.json),
// keeping everything else in that file, and makes sure git ignores the file. It does not trust the
// workspace: the person approved one command, not the repository's settings and MCP servers, which they may
// just have declined. So that the rule still applies at the next start, it is also recorded as the person's
// in the state directory, where the repository cannot write (see ownRules).
//
// Both files are written below the workspace without following a link (safefile.WriteWithin): a
// repository that committed .warden as a link to a folder of the home gets nothing written there, and the
// error says why.
func AddProjectAllow(o *safefile.Opener, getenv func(string) string, ws, rule string) error {
	const local = ".warden/settings.local.json"
	s, err := ReadFile(o, filepath.Join(ws, filepath.FromSlash(local)))
	if errors.Is(err, os.ErrNotExist) {
		s, err = &Settings{}, nil
	}
	if err != nil {
		return err
	}
	if !slices.Contains(s.Permissions.Allow, rule) {
		s.Permissions.Allow = append(s.Permissions.Allow, rule)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding settings: %w", err)
	}
	if err := safefile.WriteWithin(ws, local, append(data, '\n'), 0o600); err != nil {
		return err
	}
	err = safefile.CreateWithin(ws, ".warden/.gitignore", []byte("settings.local.json\n"), 0o644)
	if err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return recordSavedRule(o, getenv, ws, rule)
}

// The saved-rules record maps each workspace to the allow rules the person saved for it with "always allow
// for the project". It lives beside the trust record: a repository can ship a settings.local.json of its
// own (git add -f), so the file alone cannot say which of its rules the person wrote.
func savedRulesFile(getenv func(string) string) string {
	return filepath.Join(StateDir(getenv), savedRulesName)
}

func readSavedRules(o *safefile.Opener, getenv func(string) string) (map[string][]string, error) {
	path := savedRulesFile(getenv)
	data, err := o.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string][]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading saved project rules: %w", err)
	}
	saved := map[string][]string{}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object of workspaces and their rules (%v); fix or delete it", path, err)
	}
	return saved, nil
}

func recordSavedRule(o *safefile.Opener, getenv func(string) string, ws, rule string) error {
	saved, err := readSavedRules(o, getenv)
	if err != nil {
		return err
	}
	if slices.Contains(saved[ws], rule) {
		return nil
	}
	saved[ws] = append(saved[ws], rule)
	data, _ := json.MarshalIndent(saved, "", "  ")
	return writeRecord(getenv, savedRulesName, append(data, '\n'))
}

// ownRules splits the allow rules of workspace ws's settings.local.json into those the person saved there
// themselves, which apply whether or not the workspace is trusted, and the rest. A rule counts as theirs
// only while it is in both the file and the record: one they deleted from the file is gone.
func ownRules(o *safefile.Opener, getenv func(string) string, ws string, allow []string) (own, rest []string, err error) {
	if len(allow) == 0 {
		return nil, nil, nil
	}
	saved, err := readSavedRules(o, getenv)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range allow {
		if slices.Contains(saved[ws], r) {
			own = append(own, r)
		} else {
			rest = append(rest, r)
		}
	}
	return own, rest, nil
}

// writeRecord replaces one of Warden's records in the state directory, which it makes if needed (the
// directory may be reached through links of the person's, XDG_STATE_HOME among them).
func writeRecord(getenv func(string) string, name string, data []byte) error {
	dir := StateDir(getenv)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return safefile.WriteWithin(dir, name, data, 0o600)
}
