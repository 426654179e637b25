package checkpoint

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A restore puts paths back to the state they had at an earlier point. It is planned first, so that the
// person sees every path it would change, with those changed outside Warden since that point set apart
// (they are restored only when the person says so separately), and those that cannot be restored said
// so. Then it is applied: removals deepest first, then directories, files and links shallowest first,
// every operation through descriptors opened without following links (see safefs.go). Modes and link
// targets are restored with the content; timestamps are not, so that build tools see the change.

// Step is one path a restore changes.
type Step struct {
	Path string
	// From is what is there now; To is what the restore puts there (nil: nothing).
	From, To *State
	// Outside says the path was changed outside Warden since the point restored to.
	Outside bool
	// Problem says why the path cannot be restored; such a step is left out.
	Problem string
	// was is the path's stat when the plan was made, to tell when applying it whether it changed since:
	// a file whose content was not saved has no other identity.
	was stamp
}

// stamp is what stat says of a path, enough to tell that it changed.
type stamp struct {
	there              bool
	mode               uint32
	size, mtime, ctime int64
	ino                uint64
}

func stampOf(e *entry) stamp {
	if e == nil {
		return stamp{}
	}
	return stamp{true, e.mode, e.size, e.mtime, e.ctime, e.ino}
}

// Verb says what the step does, for people: "restore", "remove", "recreate".
func (s Step) Verb() string {
	switch {
	case s.To == nil:
		return "remove"
	case s.From == nil:
		return "recreate"
	}
	return "restore"
}

// String is one line for people: "restore src/main.go".
func (s Step) String() string {
	path := s.Path
	if s.To.IsDir() || (s.To == nil && s.From.IsDir()) {
		path += "/"
	}
	line := s.Verb() + " " + path
	if s.Problem != "" {
		line += " — " + s.Problem
	}
	return line
}

// Plan is a restore as planned: the steps, sorted by path.
type Plan struct {
	Steps []Step
}

// Outside is the steps changed outside Warden, which need their own yes.
func (p *Plan) Outside() []Step {
	return slices.DeleteFunc(slices.Clone(p.Steps), func(s Step) bool { return !s.Outside || s.Problem != "" })
}

// Warden is the steps that undo only what Warden's calls did.
func (p *Plan) Warden() []Step {
	return slices.DeleteFunc(slices.Clone(p.Steps), func(s Step) bool { return s.Outside || s.Problem != "" })
}

// Problems is the steps that cannot be done.
func (p *Plan) Problems() []Step {
	return slices.DeleteFunc(slices.Clone(p.Steps), func(s Step) bool { return s.Problem == "" })
}

// Empty reports whether the plan changes nothing.
func (p *Plan) Empty() bool { return len(p.Steps) == 0 }

// PlanRestore plans putting each path of target back to its state there (nil: absent). outside names the
// paths changed outside Warden since that point. It first takes a snapshot, so the plan starts from what
// is on disk now; what that snapshot finds that no call made is returned as found, for the caller to
// record like any change made outside Warden (those paths count as changed outside too).
func (c *Checkpoints) PlanRestore(target map[string]*State, outside map[string]bool) (plan *Plan, found []Change, err error) {
	if !c.hold() {
		return nil, nil, errClosing
	}
	defer c.release()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, errClosing
	}
	c.baseline()
	if c.off != nil {
		return nil, nil, c.off
	}
	changes, err := c.snap()
	if err != nil {
		return nil, nil, err
	}
	found = c.attribute(changes)
	for _, ch := range changes {
		if outside == nil {
			outside = map[string]bool{}
		}
		outside[ch.Path] = true
	}
	rootFd, err := openRoot(c.opts.Workspace)
	if err != nil {
		return nil, found, err
	}
	defer unix.Close(rootFd)
	plan = &Plan{}
	for path, to := range target {
		now := c.tree.index().entries[path].state()
		if now.same(to) {
			continue
		}
		st := Step{Path: path, From: now, To: to, Outside: outside[path], was: stampOf(c.tree.index().entries[path])}
		switch {
		case checkRel(path) != nil:
			st.Problem = checkRel(path).Error()
		case now == nil && existsAt(rootFd, path):
			st.Problem = "something Warden does not track is there now (an ignored file?); left as it is"
		case to.IsSpecial():
			st.Problem = "it was a " + to.kind() + ", which Warden does not make again"
		case to.IsFile() && to.Skipped:
			st.Problem = "it " + map[bool]string{true: "could not be read", false: "was over the size cap"}[to.Unreadable] +
				", so its content was not saved"
		case to.IsFile() && !c.tree.store.has(to.ID):
			if _, err := c.tree.store.get(to.ID); err != nil {
				st.Problem = "its saved content is gone (checkpoints pruned)"
			}
		}
		plan.Steps = append(plan.Steps, st)
	}
	slices.SortFunc(plan.Steps, func(a, b Step) int { return strings.Compare(a.Path, b.Path) })
	return plan, found, nil
}

func existsAt(rootFd int, rel string) bool {
	_, ok := lstatAt(rootFd, rel)
	return ok
}

// Restored is what applying a plan did.
type Restored struct {
	// Done are the steps applied.
	Done []Step
	// Skipped are steps left out: changed outside Warden and not included, or with a problem, or that
	// failed (Problem says why).
	Skipped []Step
	// Changes is what the restore changed, as a snapshot after it saw it.
	Changes []Change
	// Found is what had changed, by no call, between the plan and the restore (see PlanRestore).
	Found []Change
}

// Apply carries out a plan. Steps changed outside Warden are applied only with includeOutside. A path
// that changed again since the plan was made is left as it is and reported.
func (c *Checkpoints) Apply(plan *Plan, includeOutside bool) (*Restored, error) {
	if !c.hold() {
		return nil, errClosing
	}
	defer c.release()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errClosing
	}
	c.baseline()
	if c.off != nil {
		return nil, c.off
	}
	r := &Restored{}
	changes, err := c.snap()
	if err != nil {
		return nil, err
	}
	r.Found = c.attribute(changes)
	rootFd, err := openRoot(c.opts.Workspace)
	if err != nil {
		return nil, err
	}
	defer unix.Close(rootFd)
	var todo []Step
	for _, st := range plan.Steps {
		switch {
		case st.Problem != "":
		case st.Outside && !includeOutside:
			st.Problem = "changed outside Warden; not included"
		case !c.tree.index().entries[st.Path].state().same(st.From) && stampOf(c.tree.index().entries[st.Path]) != st.was:
			st.Problem = "changed again since the plan was shown; left as it is"
		}
		if st.Problem != "" {
			r.Skipped = append(r.Skipped, st)
			continue
		}
		todo = append(todo, st)
	}
	failed := map[string]string{}
	// Removals first, deepest first: what is there goes when the target has nothing there or something
	// of another type.
	byDepth := slices.Clone(todo)
	slices.SortFunc(byDepth, func(a, b Step) int {
		if d := strings.Count(b.Path, "/") - strings.Count(a.Path, "/"); d != 0 {
			return d
		}
		return strings.Compare(a.Path, b.Path)
	})
	for _, st := range byDepth {
		if st.From == nil || (st.To != nil && st.From.Mode&unix.S_IFMT == st.To.Mode&unix.S_IFMT) {
			continue
		}
		if err := removeAt(rootFd, st.Path, st.From.IsDir()); err != nil {
			failed[st.Path] = err.Error()
		}
	}
	// Then what the target has, shallowest first, so that directories exist before what they hold.
	slices.Reverse(byDepth)
	for _, st := range byDepth {
		if st.To == nil || failed[st.Path] != "" {
			continue
		}
		if err := c.putAt(rootFd, st); err != nil {
			failed[st.Path] = err.Error()
		}
	}
	for _, st := range todo {
		if msg := failed[st.Path]; msg != "" {
			st.Problem = msg
			r.Skipped = append(r.Skipped, st)
			continue
		}
		r.Done = append(r.Done, st)
	}
	after, err := c.snap()
	if err != nil {
		return r, err
	}
	r.Changes = after
	return r, nil
}

// removeAt removes the file, link or (empty) directory at rel.
func removeAt(rootFd int, rel string, dir bool) error {
	if err := checkRel(rel); err != nil {
		return err
	}
	fd, name, err := openParent(rootFd, rel)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	flags := 0
	if dir {
		flags = unix.AT_REMOVEDIR
	}
	err = unix.Unlinkat(fd, name, flags)
	switch {
	case err == nil, errors.Is(err, unix.ENOENT):
		return nil
	case errors.Is(err, unix.ENOTEMPTY), errors.Is(err, unix.EEXIST):
		return errors.New("the directory holds files Warden does not track (ignored ones?); left as it is")
	}
	return fmt.Errorf("removing it failed: %w", err)
}

// putAt creates or replaces rel with st.To.
func (c *Checkpoints) putAt(rootFd int, st Step) error {
	if err := checkRel(st.Path); err != nil {
		return err
	}
	fd, name, err := openParent(rootFd, st.Path)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	to := st.To
	perm := to.Mode & 0o7777
	switch {
	case to.IsDir():
		if err := unix.Mkdirat(fd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return fmt.Errorf("creating the directory failed: %w", err)
		}
		beforeDirMode(fd, name)
		// The mode is set through a descriptor of the directory itself: by name, a link put in its
		// place after it was checked would be followed, and the mode set on what it points to.
		dfd, err := unix.Openat(fd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return errors.New("something else stands where the directory goes")
		}
		defer unix.Close(dfd)
		return fchmodPath(dfd, perm)
	case to.IsLink():
		tmp := ".warden-restore-" + randomSuffix()
		if err := unix.Symlinkat(to.Link, fd, tmp); err != nil {
			return fmt.Errorf("creating the link failed: %w", err)
		}
		if err := unix.Renameat(fd, tmp, fd, name); err != nil {
			unix.Unlinkat(fd, tmp, 0)
			return fmt.Errorf("putting the link in place failed: %w", err)
		}
		return nil
	case to.IsFile():
		content, err := c.tree.store.get(to.ID)
		if err != nil {
			return fmt.Errorf("its saved content cannot be read: %w", err)
		}
		tmp := ".warden-restore-" + randomSuffix()
		wfd, err := unix.Openat(fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return fmt.Errorf("writing it failed: %w", err)
		}
		werr := writeAll(wfd, content)
		if werr == nil {
			werr = unix.Fchmod(wfd, perm)
		}
		if cerr := unix.Close(wfd); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = unix.Renameat(fd, tmp, fd, name)
		}
		if werr != nil {
			unix.Unlinkat(fd, tmp, 0)
			return fmt.Errorf("writing it failed: %w", werr)
		}
		return nil
	}
	return fmt.Errorf("cannot restore a file of mode %o", to.Mode)
}

// beforeDirMode runs just before a restored directory's mode is set; tests put a link in its place.
var beforeDirMode = func(parentFd int, name string) {}

// fchmodPath sets the mode of what an O_PATH descriptor names. fchmod refuses such descriptors, and a
// directory Warden may not read (mode 0300, say) cannot be opened otherwise; its name under
// /proc/self/fd is the directory itself, whatever stands at its path now.
func fchmodPath(fd int, perm uint32) error {
	err := unix.Fchmodat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), perm, 0)
	if err == nil {
		return nil
	}
	// Without /proc: a descriptor opened for reading takes fchmod.
	rfd, oerr := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if oerr != nil {
		return fmt.Errorf("setting the directory's mode failed: %w", err)
	}
	defer unix.Close(rfd)
	if err := unix.Fchmod(rfd, perm); err != nil {
		return fmt.Errorf("setting the directory's mode failed: %w", err)
	}
	return nil
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return err
		}
		b = b[n:]
	}
	return nil
}

// Recorded is changes as a session recorded them, in order: a call's, a background task's, a restore's
// (Outside false), or ones made outside Warden (Outside true).
type Recorded struct {
	Outside bool
	Changes []Change
}

// Target is what restoring to a point means, given everything recorded since that point in order: each
// path touched since goes back to its state before the first change to it. outside names the paths
// changed outside Warden since.
func Target(since []Recorded) (target map[string]*State, outside map[string]bool) {
	target, outside = map[string]*State{}, map[string]bool{}
	for _, r := range since {
		for _, ch := range r.Changes {
			if _, seen := target[ch.Path]; !seen {
				target[ch.Path] = ch.Old
			}
			if r.Outside {
				outside[ch.Path] = true
			}
		}
	}
	return target, outside
}
