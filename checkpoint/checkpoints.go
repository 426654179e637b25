package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/warden-cli/warden/gitrepo"
)

// Options configure the checkpoints of one session.
type Options struct {
	// Dir holds the checkpoints of every workspace ($XDG_STATE_HOME/warden/checkpoints).
	Dir string
	// Workspace is the directory checkpointed.
	Workspace string
	// Session is the id of the session whose calls are checkpointed.
	Session string
	// MaxFileSize is the size above which a file's content is not saved (default 10 MiB).
	MaxFileSize int64
	// MaxStoreSize caps what the workspace's checkpoints may take on disk (default 1 GiB); the oldest
	// sessions' checkpoints are pruned beyond it.
	MaxStoreSize int64
	// SessionExists reports whether a session is still saved; the checkpoints of one that is not are
	// pruned. Nil prunes none.
	SessionExists func(id string) bool
}

// Default limits.
const (
	DefaultMaxFileSize  = 10 << 20
	DefaultMaxStoreSize = 1 << 30
)

// Checkpoints snapshots one workspace around the calls of one session. It is safe for concurrent use:
// calls that may change files are taken one at a time, from the snapshot before one to the snapshot after
// it, so that each call's changes are its own.
type Checkpoints struct {
	opts Options
	// dir is this workspace's directory in the store.
	dir  string
	lock *os.File

	// turn is held from the snapshot before a call to the one after it, and by whatever else snapshots
	// or writes the workspace (a task's end, a restore), so that none of it falls inside a call. It is
	// not mu: a call may take minutes or never return (a tool that ignores being stopped), and Close,
	// which closes closing, must not wait for it.
	turn    chan struct{}
	closing chan struct{}
	// closeMu orders closing against EndTask's starting of goroutines that Close waits for.
	closeMu sync.Mutex

	// mu guards what follows; it is held while a snapshot is taken, never across a call.
	mu   sync.Mutex
	tree *tree
	// based says the first snapshot was taken.
	based bool
	// off says why checkpoints stopped working (nil while they work).
	off      error
	offNoted bool
	// running holds the background tasks started by checkpointed calls; pending holds what changed
	// while they ran and no call did.
	running map[string]*task
	pending map[string][]Change
	// grown counts what snapshots added to the store since it was last measured.
	grown int64
	refs  *os.File
	// notes are things the person should be told, taken with Notes.
	notes []string
	// ends are the TaskEnded calls EndTask started; closed says Close ran.
	ends   sync.WaitGroup
	closed bool
}

// WorkspaceDir is where the checkpoints of workspace live under dir.
func WorkspaceDir(dir, workspace string) string {
	sum := sha256.Sum256([]byte(workspace))
	return filepath.Join(dir, filepath.Base(workspace)+"-"+hex.EncodeToString(sum[:8]))
}

// Open starts checkpointing a session's calls in a workspace. Its first snapshot, which later changes
// are measured against, is taken by Start in the background, or else by the first call that needs it.
// Open fails only when the store cannot be made; a workspace that cannot be checkpointed (too many
// files, say) gives Checkpoints that say why at the first call (see Off).
func Open(opts Options) (*Checkpoints, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.MaxStoreSize <= 0 {
		opts.MaxStoreSize = DefaultMaxStoreSize
	}
	ws, err := filepath.Abs(opts.Workspace)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	opts.Workspace = ws
	dir := WorkspaceDir(opts.Dir, ws)
	for _, d := range []string{dir, filepath.Join(dir, "objects"), filepath.Join(dir, "refs")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("checkpoints: creating %s: %w", d, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "workspace"), []byte(ws+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	c := &Checkpoints{opts: opts, dir: dir, lock: lock, running: map[string]*task{}, pending: map[string][]Change{},
		turn: make(chan struct{}, 1), closing: make(chan struct{})}
	// The person's repository is read through a Reader of these checkpoints' own, which remembers its
	// configuration and index between snapshots while their files are unchanged.
	git := gitrepo.NewReader()
	work := findWorkTree(git, ws)
	borrow := newBorrower(git, work)
	store := &objects{dir: filepath.Join(dir, "objects"), borrow: borrow.read}
	// The index is read when first needed (by the first snapshot, which Start takes in the background):
	// in a workspace of 100,000 files it is megabytes, whose reading took half a second before Warden's
	// first frame.
	c.tree = &tree{root: ws, git: git, store: store, indexPath: filepath.Join(dir, "index"), maxSize: opts.MaxFileSize,
		borrow: borrow, tracked: newTracker(git, ws, work)}
	if opts.Session != "" {
		refs, err := os.OpenFile(filepath.Join(dir, "refs", opts.Session), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			lock.Close()
			return nil, fmt.Errorf("checkpoints: %w", err)
		}
		c.refs = refs
	}
	return c, nil
}

// Start takes the first snapshot in the background, so that the first call that changes files need not
// wait for it (it may take seconds in a large workspace seen for the first time).
func (c *Checkpoints) Start() {
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.baseline()
	}()
}

// baseline takes, once, the snapshot later ones are measured against; what it finds changed since the
// index was saved happened before this session and is nobody's call. Called with mu held.
func (c *Checkpoints) baseline() {
	if c.based {
		return
	}
	c.based = true
	// Pruning needs the store to itself: it runs only when no other Warden uses this workspace's
	// checkpoints, since each holds a shared lock while it runs.
	if syscall.Flock(int(c.lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		c.prune()
	}
	_ = syscall.Flock(int(c.lock.Fd()), syscall.LOCK_SH)
	changes, grown, err := c.tree.snapshot()
	c.grown += grown
	if err != nil {
		c.off = err
		return
	}
	c.addRefs(changes)
	c.saveIndexIfWorth(true)
}

// Off reports why checkpoints do not work in this workspace, or nil when they do. It waits for the
// first snapshot.
func (c *Checkpoints) Off() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.baseline()
	return c.off
}

// Window is one call that may change files, between the snapshot before it and the one after.
type Window struct {
	c    *Checkpoints
	err  error
	done bool
	// held says the window holds the turn, which After or Abandon gives back.
	held bool
}

// errClosing says the session's checkpoints were closed before or during a call.
var errClosing = fmt.Errorf("%w: the session is closing", ErrOff)

// hold takes the turn, waiting for a call in progress to end; it reports false once Close started.
func (c *Checkpoints) hold() bool {
	select {
	case <-c.closing:
		return false
	default:
	}
	select {
	case c.turn <- struct{}{}:
		return true
	case <-c.closing:
		return false
	}
}

func (c *Checkpoints) release() { <-c.turn }

// Before takes the snapshot before a call that may change files. What changed since the last
// snapshot was made by no call: by background tasks, if any ran (they get it when they end), or else
// outside Warden, returned as outside. The window must be closed with After, or given up with Abandon;
// until then other calls wait (Close does not).
func (c *Checkpoints) Before() (w *Window, outside []Change) {
	if !c.hold() {
		return &Window{c: c, err: errClosing}, nil
	}
	taken := false
	defer func() {
		if !taken {
			// A panic (a bug in a snapshot), recovered further up: later calls must not wait for a
			// window nobody has.
			c.release()
		}
	}()
	w, outside = c.before()
	taken = true
	return w, outside
}

func (c *Checkpoints) before() (*Window, []Change) {
	w := &Window{c: c, held: true}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		w.err = errClosing
		return w, nil
	}
	c.baseline()
	if c.off != nil {
		if !c.offNoted {
			c.offNoted = true
			c.notes = append(c.notes, fmt.Sprintf("checkpoints are off, so /undo cannot restore what calls change: %v", c.off))
		}
		w.err = fmt.Errorf("%w: %v", ErrOff, c.off)
		return w, nil
	}
	changes, err := c.snap()
	if err != nil {
		w.err = err
		return w, nil
	}
	return w, c.attribute(changes)
}

// task is a background task started by a checkpointed call: what its call changed before it went to the
// background, and whom to give all it changed when it ends.
type task struct {
	call []Change
	give func(taskID string, all, later []Change)
}

// ErrOff says checkpoints do not work in this workspace (see Off).
var ErrOff = errors.New("checkpoints are off")

// After takes the snapshot after the call and returns what it changed. backgroundID is set when the
// call went on as a background task: when TaskEnded says it ended, onTaskEnd gets all the call changed,
// from its start to the task's end (what changed while it ran and no call did counts as its), and later,
// what changed after After returned. err says the call could not be checkpointed.
func (w *Window) After(backgroundID string, onTaskEnd func(taskID string, all, later []Change)) (changes []Change, err error) {
	c := w.c
	if w.done {
		return nil, errors.New("checkpoint window closed twice")
	}
	w.done = true
	if w.held {
		defer c.release()
	}
	if w.err != nil {
		return nil, w.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		// Closed while the call ran (Warden quit and the call did not stop in time): nothing more is
		// recorded.
		return nil, errClosing
	}
	changes, err = c.snap()
	if err != nil {
		return nil, err
	}
	if backgroundID != "" && onTaskEnd != nil {
		c.running[backgroundID] = &task{call: changes, give: onTaskEnd}
	}
	return changes, nil
}

// Abandon gives a window up without the snapshot after the call, when After was not called: on a way out
// that skipped it (a panic). What the call changed is found by the next snapshot, as no call's. After
// After it does nothing.
func (w *Window) Abandon() {
	if w.done {
		return
	}
	w.done = true
	if w.held {
		w.c.release()
	}
}

// TaskEnded takes a snapshot when a background task has ended and gives all its call changed to the
// onTaskEnd its After named. It reports false for a task no checkpointed call started, and once Close
// started.
func (c *Checkpoints) TaskEnded(taskID string) bool {
	t, all, later, ok := c.taskEnded(taskID)
	if ok {
		t.give(taskID, all, later)
	}
	return ok
}

func (c *Checkpoints) taskEnded(taskID string) (t *task, all, later []Change, ok bool) {
	if !c.hold() {
		return nil, nil, nil, false
	}
	defer c.release()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, nil, false
	}
	c.baseline()
	if t, ok = c.running[taskID]; !ok {
		return nil, nil, nil, false
	}
	if c.off == nil {
		if now, err := c.snap(); err == nil {
			c.attribute(now)
		}
	}
	delete(c.running, taskID)
	later = compose(c.pending[taskID])
	all = compose(append(slices.Clone(t.call), c.pending[taskID]...))
	delete(c.pending, taskID)
	countLines(all, c.tree.store)
	countLines(later, c.tree.store)
	return t, all, later, true
}

// Settle takes a snapshot now, if nothing else is being snapshotted, and returns what changed since the
// last one that no call made (as Before does; a background task's goes to it). The agent calls it as a
// request starts, so that what the person changed while writing the request is recorded before it.
func (c *Checkpoints) Settle() (outside []Change) {
	select {
	case c.turn <- struct{}{}:
		defer c.release()
	default:
		return nil
	}
	if !c.mu.TryLock() {
		return nil
	}
	defer c.mu.Unlock()
	if !c.based || c.off != nil || c.closed {
		return nil
	}
	changes, err := c.snap()
	if err != nil {
		return nil
	}
	return c.attribute(changes)
}

// EndTask is TaskEnded without waiting: a task's end is heard from its own goroutine, which must not
// wait for a call in progress to finish. Close waits for it, unless it waits for a call (then it gives
// up); once Close started it does nothing.
func (c *Checkpoints) EndTask(taskID string) {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	select {
	case <-c.closing:
		return
	default:
	}
	c.ends.Go(func() { c.TaskEnded(taskID) })
}

// snap takes a snapshot, keeps its content referenced by this session and counts its lines. Called
// with mu held.
func (c *Checkpoints) snap() ([]Change, error) {
	changes, grown, err := c.tree.snapshot()
	c.grown += grown
	if err != nil {
		if errors.Is(err, errTooLarge) {
			c.off = err
		}
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	c.grown += keep(changes, c.tree.store, c.opts.MaxFileSize)
	c.addRefs(changes)
	countLines(changes, c.tree.store)
	c.saveIndexIfWorth(false)
	return changes, nil
}

// attribute gives changes that no call made to the running background tasks, or returns them as made
// outside Warden when none runs.
func (c *Checkpoints) attribute(changes []Change) (outside []Change) {
	if len(changes) == 0 {
		return nil
	}
	if len(c.running) == 0 {
		return changes
	}
	for task := range c.running {
		c.pending[task] = append(c.pending[task], changes...)
	}
	return nil
}

// compose joins successive changes into one per path, from the first state to the last.
func compose(seq []Change) []Change {
	first := map[string]*State{}
	last := map[string]*State{}
	var order []string
	for _, ch := range seq {
		if _, seen := first[ch.Path]; !seen {
			first[ch.Path] = ch.Old
			order = append(order, ch.Path)
		}
		last[ch.Path] = ch.New
	}
	var out []Change
	for _, p := range order {
		if ch, ok := classify(p, first[p], last[p]); ok {
			out = append(out, ch)
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// addRefs records the content changes refer to as this session's, so that pruning keeps it while the
// session exists.
func (c *Checkpoints) addRefs(changes []Change) {
	if c.refs == nil || len(changes) == 0 {
		return
	}
	var b strings.Builder
	for _, ch := range changes {
		for _, s := range []*State{ch.Old, ch.New} {
			if s.IsFile() && !s.ID.IsZero() {
				b.WriteString(s.ID.String())
				b.WriteByte('\n')
			}
		}
	}
	if b.Len() > 0 {
		if _, err := c.refs.WriteString(b.String()); err != nil && c.off == nil {
			c.notes = append(c.notes, fmt.Sprintf("checkpoints: could not record what this session refers to (%v); pruning may remove it", err))
		}
	}
}

// saveIndexIfWorth saves the index when snapshots have read many files since it was last saved, so that
// a crash does not cost the next session that work again. Called with mu held.
func (c *Checkpoints) saveIndexIfWorth(force bool) {
	if c.tree.hashed == 0 || (!force && c.tree.hashed < 1000) {
		return
	}
	if err := saveIndex(filepath.Join(c.dir, "index"), c.tree.index()); err == nil {
		c.tree.hashed = 0
	}
}

// Notes returns, once, what the person should be told about checkpoints (pruned sessions, problems).
func (c *Checkpoints) Notes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notes
	c.notes = nil
	return n
}

// Close saves the index and releases the store. It waits for a snapshot in progress, but not for a
// call: a window still open is left to end on its own, recording nothing more, so that a call that does
// not stop (a tool that ignores being stopped) cannot hold Warden at quit.
func (c *Checkpoints) Close() error {
	c.closeMu.Lock()
	select {
	case <-c.closing:
	default:
		close(c.closing)
	}
	c.closeMu.Unlock()
	// A task's end waiting for the turn gives up now that closing is closed.
	c.ends.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	var err error
	if c.tree.hashed > 0 && c.off == nil {
		err = saveIndex(filepath.Join(c.dir, "index"), c.tree.index())
	}
	if c.refs != nil {
		c.refs.Close()
	}
	if c.tree.watch != nil {
		c.tree.watch.close()
		c.tree.watch = nil
	}
	c.tree.borrow.close()
	c.lock.Close()
	return err
}

// Workspace is the directory checkpointed, symbolic links resolved.
func (c *Checkpoints) Workspace() string { return c.opts.Workspace }

// Content returns a saved content, for showing a diff.
func (c *Checkpoints) Content(id ID) ([]byte, error) { return c.tree.store.get(id) }
