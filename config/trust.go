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
	trustName      = "trust.json"
	savedRulesName = "saved_project_rules.json"
)

// The trust record is Warden's own file in the state directory: for each workspace (its absolute path),
// the items the person approved and those they declined, each with its key, its digest and how it was
// shown. An item applies while its digest is among the approved; an item whose key is there with another
// digest changed since. Approving an item never takes back another: switching between two branches that
// each hold an approved version of a server asks about neither again. The record of earlier versions of
// Warden, trusted_workspaces.json (a list of paths), is not read: a workspace trusted that way is asked
// again, its items listed, since what it held when it was trusted is not known.
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

// trustRecord is the shape of the trust record.
type trustRecord struct {
	Workspaces map[string]*workspaceAnswers `json:"workspaces"`
}

// workspaceAnswers are the person's answers about one workspace's items.
type workspaceAnswers struct {
	Approved []answer `json:"approved,omitempty"`
	Declined []answer `json:"declined,omitempty"`
}

// answer is one item answered about: what the setting is, the digest of exactly what was shown, and how it
// was shown (for warden trust --list).
type answer struct {
	Key    string `json:"key"`
	Digest string `json:"digest"`
	Item   string `json:"item"`
}

func (w workspaceAnswers) has(list []answer, digest string) bool {
	return slices.ContainsFunc(list, func(a answer) bool { return a.Digest == digest })
}

func (w workspaceAnswers) hasKey(key string) bool {
	same := func(a answer) bool { return a.Key == key }
	return slices.ContainsFunc(w.Approved, same) || slices.ContainsFunc(w.Declined, same)
}

func readTrust(o *safefile.Opener, getenv func(string) string) (*trustRecord, error) {
	path := trustFile(getenv)
	rec := &trustRecord{Workspaces: map[string]*workspaceAnswers{}}
	data, err := o.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading what you approved in workspaces: %w", err)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("%s is not Warden's record of what you approved (%v); fix or delete it (every workspace then asks again)", path, err)
	}
	if rec.Workspaces == nil {
		rec.Workspaces = map[string]*workspaceAnswers{}
	}
	return rec, nil
}

// answersFor reads the person's answers about workspace ws.
func answersFor(o *safefile.Opener, getenv func(string) string, ws string) (workspaceAnswers, error) {
	rec, err := readTrust(o, getenv)
	if err != nil {
		return workspaceAnswers{}, err
	}
	if w := rec.Workspaces[ws]; w != nil {
		return *w, nil
	}
	return workspaceAnswers{}, nil
}

// ApproveItems records items, exactly as they are, as approved in workspace ws: they apply from the next
// read of the settings on, until they change or the approval is revoked.
func ApproveItems(o *safefile.Opener, getenv func(string) string, ws string, items []TrustItem) error {
	return answerItems(o, getenv, ws, items, true)
}

// DeclineItems records items as declined in workspace ws: they stay off and are not asked about again
// until they change.
func DeclineItems(o *safefile.Opener, getenv func(string) string, ws string, items []TrustItem) error {
	return answerItems(o, getenv, ws, items, false)
}

func answerItems(o *safefile.Opener, getenv func(string) string, ws string, items []TrustItem, approve bool) error {
	if len(items) == 0 {
		return nil
	}
	rec, err := readTrust(o, getenv)
	if err != nil {
		return err
	}
	w := rec.Workspaces[ws]
	if w == nil {
		w = &workspaceAnswers{}
		rec.Workspaces[ws] = w
	}
	for _, it := range items {
		drop := func(a answer) bool { return a.Digest == it.Digest }
		w.Approved = slices.DeleteFunc(w.Approved, drop)
		w.Declined = slices.DeleteFunc(w.Declined, drop)
		a := answer{Key: it.Key, Digest: it.Digest, Item: it.String()}
		if approve {
			w.Approved = append(w.Approved, a)
		} else {
			w.Declined = append(w.Declined, a)
		}
	}
	return writeTrust(getenv, rec)
}

// RevokeTrust forgets every answer about workspace ws: what it loosens waits again, and is asked about. It
// returns how many items had been approved.
func RevokeTrust(o *safefile.Opener, getenv func(string) string, ws string) (int, error) {
	rec, err := readTrust(o, getenv)
	if err != nil {
		return 0, err
	}
	w := rec.Workspaces[ws]
	if w == nil {
		return 0, nil
	}
	delete(rec.Workspaces, ws)
	return len(w.Approved), writeTrust(getenv, rec)
}

func writeTrust(getenv func(string) string, rec *trustRecord) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the trust record: %w", err)
	}
	return writeRecord(getenv, trustName, append(data, '\n'))
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
