package app

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/config"
)

// Where sessions are kept, how they are named, and how the one a command names is found.

// sessionsDir holds the sessions of every workspace, one file each.
func sessionsDir() string { return filepath.Join(config.StateDir(os.Getenv), "sessions") }

// checkSessionID refuses an id that is not a plain name in the sessions directory: a path would open, and
// append to, a file elsewhere.
func checkSessionID(id string) error {
	if id == "." || id == ".." || strings.ContainsAny(id, `/\`) || filepath.Base(id) != id {
		return usageError{fmt.Sprintf("%q is not a session id; run warden sessions to see this directory's sessions", id)}
	}
	return nil
}

// newSessionID is sortable by time and unique: 20261121-214700-1a2b3c.
func newSessionID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return now.Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// latestAnswered is the newest of this directory's sessions in which anything was answered: --continue
// passes over the attempts that failed at once.
func latestAnswered(dir, workspace string) (string, error) {
	list, err := agent.ListSessions(dir, workspace)
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Answered {
			return s.Path, nil
		}
	}
	return "", fmt.Errorf("no earlier session in %s to continue; start one without --continue", workspace)
}

// savedSession is the file of the saved session id.
func savedSession(id string) (string, error) {
	if err := checkSessionID(id); err != nil {
		return "", err
	}
	path := agent.SessionPath(sessionsDir(), id)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no session %q; run warden sessions to see this directory's sessions", id)
	}
	return path, nil
}

// findSession is the file of session id, or of this directory's latest session when id is empty.
func findSession(id string) (string, error) {
	if id != "" {
		return savedSession(id)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the current directory: %w", err)
	}
	list, err := agent.ListSessions(sessionsDir(), wd)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", fmt.Errorf("no saved sessions in %s", wd)
	}
	return list[0].Path, nil
}

// sessionExists reports whether a session is still saved, so that the checkpoints of one that is gone
// are pruned with it.
func sessionExists(id string) bool {
	if checkSessionID(id) != nil {
		return false
	}
	_, err := os.Stat(agent.SessionPath(sessionsDir(), id))
	return err == nil
}
