package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// The trust record is a JSON list of absolute workspace paths in the state directory. Trusting a workspace
// lets its project settings loosen permissions (allow rules, a mode other than default).
func trustFile(getenv func(string) string) string {
	return filepath.Join(StateDir(getenv), "trusted_workspaces.json")
}

// IsTrusted reports whether the person has trusted workspace ws.
func IsTrusted(getenv func(string) string, ws string) (bool, error) {
	list, err := readTrust(getenv)
	if err != nil {
		return false, err
	}
	return slices.Contains(list, ws), nil
}

// Trust records workspace ws as trusted.
func Trust(getenv func(string) string, ws string) error {
	list, err := readTrust(getenv)
	if err != nil {
		return err
	}
	if slices.Contains(list, ws) {
		return nil
	}
	list = append(list, ws)
	data, _ := json.MarshalIndent(list, "", "  ")
	return writeFileAtomic(trustFile(getenv), append(data, '\n'))
}

func readTrust(getenv func(string) string) ([]string, error) {
	path := trustFile(getenv)
	data, err := os.ReadFile(path)
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
func AddProjectAllow(getenv func(string) string, ws, rule string) error {
	path := filepath.Join(ws, ".warden", "settings.local.json")
	s, err := ReadFile(path)
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
	if err := writeFileAtomic(path, append(data, '\n')); err != nil {
		return err
	}
	ignore := filepath.Join(ws, ".warden", ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte("settings.local.json\n"), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", ignore, err)
		}
	}
	return recordSavedRule(getenv, ws, rule)
}

// The saved-rules record maps each workspace to the allow rules the person saved for it with "always allow
// for the project". It lives beside the trust record: a repository can ship a settings.local.json of its
// own (git add -f), so the file alone cannot say which of its rules the person wrote.
func savedRulesFile(getenv func(string) string) string {
	return filepath.Join(StateDir(getenv), "saved_project_rules.json")
}

func readSavedRules(getenv func(string) string) (map[string][]string, error) {
	path := savedRulesFile(getenv)
	data, err := os.ReadFile(path)
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

func recordSavedRule(getenv func(string) string, ws, rule string) error {
	saved, err := readSavedRules(getenv)
	if err != nil {
		return err
	}
	if slices.Contains(saved[ws], rule) {
		return nil
	}
	saved[ws] = append(saved[ws], rule)
	data, _ := json.MarshalIndent(saved, "", "  ")
	return writeFileAtomic(savedRulesFile(getenv), append(data, '\n'))
}

// ownRules splits the allow rules of workspace ws's settings.local.json into those the person saved there
// themselves, which apply whether or not the workspace is trusted, and the rest. A rule counts as theirs
// only while it is in both the file and the record: one they deleted from the file is gone.
func ownRules(getenv func(string) string, ws string, allow []string) (own, rest []string, err error) {
	if len(allow) == 0 {
		return nil, nil, nil
	}
	saved, err := readSavedRules(getenv)
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

func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
