package checkpoint

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Pruning keeps a workspace's checkpoints as long as their sessions: content that no saved session and
// not the index refers to is removed, and when what is left exceeds MaxStoreSize the oldest sessions'
// checkpoints go first (never the running session's). A pruned session is remembered, so that undoing in
// it says the checkpoint is gone rather than failing obscurely.

// prune runs with the store to itself (an exclusive lock) and mu held.
func (c *Checkpoints) prune() {
	refsDir := filepath.Join(c.dir, "refs")
	entries, err := os.ReadDir(refsDir)
	if err != nil {
		return
	}
	type session struct {
		id  string
		mod time.Time
		ids map[ID]bool
	}
	var sessions []session
	for _, e := range entries {
		id := e.Name()
		path := filepath.Join(refsDir, id)
		if id != c.opts.Session && c.opts.SessionExists != nil && !c.opts.SessionExists(id) {
			os.Remove(path)
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		sessions = append(sessions, session{id: id, mod: info.ModTime(), ids: readRefs(path)})
	}
	base := map[ID]bool{}
	for _, e := range c.tree.index().entries {
		if !e.id.IsZero() {
			base[e.id] = true
		}
	}
	sizes := map[ID]int64{}
	var total int64
	objDir := filepath.Join(c.dir, "objects")
	fans, _ := os.ReadDir(objDir)
	for _, fan := range fans {
		files, _ := os.ReadDir(filepath.Join(objDir, fan.Name()))
		for _, f := range files {
			path := filepath.Join(objDir, fan.Name(), f.Name())
			info, err := f.Info()
			if err != nil {
				continue
			}
			if strings.Contains(f.Name(), ".tmp-") {
				// Left by a Warden that stopped while writing.
				if time.Since(info.ModTime()) > time.Hour {
					os.Remove(path)
				}
				continue
			}
			id, err := ParseID(fan.Name() + f.Name())
			if err != nil {
				continue
			}
			sizes[id] = info.Size()
		}
	}
	live := func() map[ID]bool {
		l := make(map[ID]bool, len(base))
		for id := range base {
			l[id] = true
		}
		for _, s := range sessions {
			for id := range s.ids {
				l[id] = true
			}
		}
		return l
	}
	keep := live()
	for id, n := range sizes {
		if keep[id] {
			total += n
		}
	}
	// Oldest first; the running session is never dropped.
	slices.SortFunc(sessions, func(a, b session) int { return a.mod.Compare(b.mod) })
	var dropped []string
	for total > c.opts.MaxStoreSize {
		i := slices.IndexFunc(sessions, func(s session) bool { return s.id != c.opts.Session })
		if i < 0 {
			break
		}
		dropped = append(dropped, sessions[i].id)
		sessions = slices.Delete(sessions, i, i+1)
		keep = live()
		total = 0
		for id, n := range sizes {
			if keep[id] {
				total += n
			}
		}
	}
	for id := range sizes {
		if !keep[id] {
			h := id.String()
			os.Remove(filepath.Join(objDir, h[:2], h[2:]))
		}
	}
	if len(dropped) > 0 {
		f, err := os.OpenFile(filepath.Join(c.dir, "pruned"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err == nil {
			for _, id := range dropped {
				fmt.Fprintf(f, "%s %s\n", id, time.Now().UTC().Format(time.RFC3339))
				os.Remove(filepath.Join(refsDir, id))
			}
			f.Close()
		}
		c.notes = append(c.notes, fmt.Sprintf("checkpoints: removed those of %d older %s to keep this workspace's checkpoints under %s",
			len(dropped), plural(len(dropped), "session", "sessions"), byteSize(c.opts.MaxStoreSize)))
	}
	if total > c.opts.MaxStoreSize {
		c.notes = append(c.notes, fmt.Sprintf("checkpoints: this workspace's saved files take %s, more than the %s cap, and none of it can be removed yet",
			byteSize(total), byteSize(c.opts.MaxStoreSize)))
	}
}

func readRefs(path string) map[ID]bool {
	ids := map[ID]bool{}
	f, err := os.Open(path)
	if err != nil {
		return ids
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, err := ParseID(strings.TrimSpace(sc.Text())); err == nil {
			ids[id] = true
		}
	}
	return ids
}

// Pruned reports whether the checkpoints of a session were removed to respect the size cap.
func Pruned(dir, workspace, session string) bool {
	data, err := os.ReadFile(filepath.Join(WorkspaceDir(dir, workspace), "pruned"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if id, _, _ := strings.Cut(line, " "); id == session {
			return true
		}
	}
	return false
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
