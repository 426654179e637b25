package bash

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warden-cli/warden/tools"
)

// Resource limits keep a runaway command (a fork bomb, an allocation loop, a file that never stops growing)
// from taking the person's machine down. They are set for every command, sandboxed or not, by the shell
// itself before it parses the command: the first statements of the script Warden hands to `bash -c` are
// `ulimit` builtins, so no process of the command ever runs without them (no race, unlike prlimit(2) on a
// child that is already running) and no extra process is needed.
//
// What each limit is, and what truly holds:
//   - memory is RLIMIT_DATA, not RLIMIT_AS: since Linux 4.7 DATA counts every private writable mapping
//     (heap, anonymous mmap), which is what a runaway allocation grows, while AS also counts address space
//     that is only reserved (V8 and WebAssembly guard regions, the JVM's heap reservation, Go's arenas),
//     so an AS limit breaks ordinary tools long before memory is short. The limit is per process.
//   - processes is RLIMIT_NPROC, which the kernel counts per user, over all of the user's threads, and
//     never enforces for root. So: as a normal user the limit is set to the number of threads on the
//     machine now plus the allowance (a command can add that many, whatever else the person runs); as root,
//     where NPROC does nothing, the command is put into a pids cgroup of its own (pids.max = the allowance)
//     when a writable pids controller is found (cgroup v1 "pids", or v2 with pids enabled below Warden's
//     cgroup); the shell joins it through an inherited descriptor before it runs anything. If neither
//     holds, the limit is reported as not enforced (LimitStatus).
//   - cpu_seconds is RLIMIT_CPU (SIGXCPU), per process; off by default since builds legitimately burn CPU.
//   - file_size_mb is RLIMIT_FSIZE (SIGXFSZ, or EFBIG when ignored), per file written.
//
// The limits are a safety net against accidents, not a security boundary: a command may lower them
// further, and root may raise them again.

// LimitStatus describes how the limits are enforced on this machine, for the person (a line at start or in
// a status view). It names a limit that cannot be enforced.
func LimitStatus(l tools.Limits) string {
	e := l.Effective()
	var parts []string
	if e.MemoryMB > 0 {
		parts = append(parts, "memory "+sizeMB(e.MemoryMB))
	}
	if e.Processes > 0 {
		switch {
		case os.Geteuid() != 0:
			parts = append(parts, fmt.Sprintf("processes %d", e.Processes))
		case pidsCgroupBase() != "":
			parts = append(parts, fmt.Sprintf("processes %d (pids cgroup)", e.Processes))
		default:
			parts = append(parts, fmt.Sprintf("processes %d NOT ENFORCED (running as root and no writable pids cgroup)",
				e.Processes))
		}
	}
	if e.CPUSeconds > 0 {
		parts = append(parts, fmt.Sprintf("cpu %d s", e.CPUSeconds))
	}
	if e.FileSizeMB > 0 {
		parts = append(parts, "file size "+sizeMB(e.FileSizeMB))
	}
	if len(parts) == 0 {
		return "no resource limits"
	}
	return "limits: " + strings.Join(parts, ", ")
}

// sizeMB writes a size in MB the way a person reads it ("8 GB", "512 MB").
func sizeMB(mb int) string {
	if mb >= 1024 && mb%1024 == 0 {
		return fmt.Sprintf("%d GB", mb/1024)
	}
	return fmt.Sprintf("%d MB", mb)
}

// limitPlan is what one command's limits turned into.
type limitPlan struct {
	limits tools.Limits // effective
	prefix string       // shell statements that set them, ending in "; "
	cgroup *pidsCgroup  // the command's pids cgroup, if any
	procs  *os.File     // cgroup.procs of it, opened for the shell to join through fd 3
	pool   *cgroupPool  // where the cgroup comes from and goes back to
}

// planLimits prepares the limits of one command, taking a cgroup from pool when one is needed. The caller
// must call release once the command is over.
func planLimits(l tools.Limits, pool *cgroupPool) *limitPlan {
	e := l.Effective()
	p := &limitPlan{limits: e, pool: pool}
	var b strings.Builder
	// set limits res to value, in the units of ulimit's flag; unit is their size in the rlimit's own units
	// (bash counts -d and -f in KiB, the kernel in bytes).
	set := func(flag string, res int, value, unit uint64) bool {
		var cur syscall.Rlimit
		if syscall.Getrlimit(res, &cur) == nil && value*unit >= cur.Cur {
			return false // what Warden runs under already is at least as tight
		}
		fmt.Fprintf(&b, "builtin ulimit -%s %d 2>/dev/null; ", flag, value)
		return true
	}
	if e.MemoryMB > 0 {
		set("d", syscall.RLIMIT_DATA, uint64(e.MemoryMB)<<10, 1024)
	}
	if e.Processes > 0 {
		if os.Geteuid() != 0 {
			set("u", rlimitNPROC, uint64(e.Processes+threadsNow()), 1)
		} else if cg, f := pool.get(e.Processes); f != nil {
			p.cgroup, p.procs = cg, f
			// Writing 0 moves the writer itself; the descriptor was opened outside any sandbox.
			b.WriteString("builtin echo 0 >&3 2>/dev/null; exec 3>&-; ")
		}
	}
	if e.CPUSeconds > 0 {
		// The hard limit a second later: at the soft one the process gets SIGXCPU, which says why; at the
		// hard one, SIGKILL, which does not.
		if set("t", syscall.RLIMIT_CPU, uint64(e.CPUSeconds)+1, 1) {
			fmt.Fprintf(&b, "builtin ulimit -S -t %d 2>/dev/null; ", e.CPUSeconds)
		}
	}
	if e.FileSizeMB > 0 {
		// -f is in 1024-byte blocks (512 in POSIX mode, where the limit would be half as large).
		set("f", syscall.RLIMIT_FSIZE, uint64(e.FileSizeMB)<<10, 1024)
	}
	p.prefix = b.String()
	return p
}

const rlimitNPROC = 6 // RLIMIT_NPROC on Linux; package syscall does not name it

// threadsNow is the number of threads on the machine, from /proc/loadavg ("0.00 0.01 0.05 2/345 6789").
// It bounds the user's own count from above, so that NPROC leaves the command its whole allowance.
func threadsNow() int {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0
	}
	_, total, _ := strings.Cut(f[3], "/")
	n, _ := strconv.Atoi(total)
	return n
}

// The pids cgroup, for root. Each command runs in a child cgroup named after Warden's pid and a counter.
// Making and removing a cgroup costs a good part of a short command's run, so emptied cgroups are kept in
// a small pool and reused; the pool is the Tasks' (Tasks.cgroups), emptied when it ends its commands
// (Tasks.KillAll). Where cgroups can be made is a fact about the process, found once, and cgroups a Warden
// that died left behind are removed then; the counter is the process's, so that two Tasks never pick one
// name.
var cgroupSeq atomic.Int64

// cgroupPool keeps a Tasks' emptied cgroups for reuse; the zero value is an empty pool.
type cgroupPool struct {
	mu   sync.Mutex
	free []*pidsCgroup
	// cleanups counts the emptyings under way, which close waits for. It is not a WaitGroup: a command
	// that started as KillAll began may end while close waits, and a WaitGroup's Add must not race its
	// Wait.
	cleanups cleanups
}

// cgroupPoolSize bounds the emptied cgroups kept for reuse.
const cgroupPoolSize = 8

// pidsCgroup is one command's cgroup: its directory, the pids.max written to it, and how many forks it had
// refused (pids.events) when the command started (counted when the previous command released it), so that
// a hit is told from an earlier command's.
type pidsCgroup struct {
	dir     string
	max     int
	refused int
	// procs is its cgroup.procs, open for writing: kept with the cgroup, since opening a cgroup file
	// costs a noticeable part of a short command's run.
	procs *os.File
}

// remove closes the cgroup's file and removes it; it fails, harmlessly, while something runs in it.
func (cg *pidsCgroup) remove() {
	if cg.procs != nil {
		cg.procs.Close()
	}
	_ = os.Remove(cg.dir)
}

// pidsCgroupBase finds a directory in which Warden can create pids cgroups, or "".
var pidsCgroupBase = sync.OnceValue(func() string {
	base := findPidsCgroup()
	if base != "" {
		removeStaleCgroups(base)
	}
	return base
})

// removeStaleCgroups removes the empty cgroups of Wardens that are no longer running.
func removeStaleCgroups(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		var pid, n int
		if _, err := fmt.Sscanf(e.Name(), "warden-%d-%d", &pid, &n); err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue
		}
		_ = os.Remove(filepath.Join(base, e.Name())) // fails, harmlessly, if something still runs in it
	}
}

// close waits for the emptyings under way and removes the pooled cgroups.
func (pool *cgroupPool) close() {
	pool.cleanups.wait()
	pool.mu.Lock()
	defer pool.mu.Unlock()
	for _, cg := range pool.free {
		cg.remove()
	}
	pool.free = nil
}

func findPidsCgroup() string {
	if os.Geteuid() != 0 {
		return ""
	}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	var candidates []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			candidates = append(candidates, filepath.Join("/sys/fs/cgroup", parts[2]))
		case hasWord(parts[1], "pids"):
			candidates = append(candidates, filepath.Join("/sys/fs/cgroup/pids", parts[2]))
		}
	}
	for i := len(candidates) - 1; i >= 0; i-- { // v1 pids first: it needs no delegation
		base := candidates[i]
		dir := filepath.Join(base, fmt.Sprintf("warden-probe-%d", os.Getpid()))
		if os.Mkdir(dir, 0o755) != nil {
			continue
		}
		_, err := os.Stat(filepath.Join(dir, "pids.max"))
		_ = os.Remove(dir)
		if err == nil {
			return base
		}
	}
	return ""
}

func hasWord(list, w string) bool {
	for _, f := range strings.Split(list, ",") {
		if f == w {
			return true
		}
	}
	return false
}

// get gives a pids cgroup allowing max tasks, from the pool or new, and opens its cgroup.procs; nil if it
// cannot.
func (pool *cgroupPool) get(max int) (*pidsCgroup, *os.File) {
	base := pidsCgroupBase()
	if base == "" {
		return nil, nil
	}
	pool.mu.Lock()
	var cg *pidsCgroup
	if n := len(pool.free); n > 0 {
		cg, pool.free = pool.free[n-1], pool.free[:n-1]
	}
	pool.mu.Unlock()
	if cg == nil {
		cg = &pidsCgroup{dir: filepath.Join(base, fmt.Sprintf("warden-%d-%d", os.Getpid(), cgroupSeq.Add(1)))}
		if err := os.Mkdir(cg.dir, 0o755); err != nil {
			return nil, nil
		}
	}
	if cg.max != max {
		if err := os.WriteFile(filepath.Join(cg.dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
			cg.remove()
			return nil, nil
		}
		cg.max = max
	}
	// A new cgroup has refused nothing; a pooled one's count was taken when it was released.
	if cg.procs == nil {
		f, err := os.OpenFile(filepath.Join(cg.dir, "cgroup.procs"), os.O_WRONLY, 0)
		if err != nil {
			cg.remove()
			return nil, nil
		}
		cg.procs = f
	}
	return cg, cg.procs
}

// refusals is the number of forks the cgroup's limit has refused so far ("max N" in pids.events).
func (cg *pidsCgroup) refusals() int {
	b, err := os.ReadFile(filepath.Join(cg.dir, "pids.events"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 || f[0] != "max" {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// closeProcs closes Warden's copy of the cgroup.procs descriptor once the child has its own.
func (p *limitPlan) closeProcs() {
	// The file stays open with the cgroup, for the next command that gets it.
	p.procs = nil
}

// release has whatever is left in the command's cgroup (processes that left its process group, too)
// killed and the emptied cgroup returned to the pool, or removed, after the command's result, which need
// not wait for it. The function it returns reports whether the cgroup's pids limit was hit while the
// command ran; it waits for the count, which costs a read of the cgroup, to be taken first.
func (p *limitPlan) release() (pidsHit func() bool) {
	p.closeProcs()
	cg := p.cgroup
	if cg == nil {
		return func() bool { return false }
	}
	p.cgroup = nil
	hit := make(chan bool, 1)
	pool := p.pool
	pool.cleanups.add()
	go func() {
		defer pool.cleanups.done()
		now := cg.refusals()
		hit <- now > cg.refused
		cg.refused = now
		pool.empty(cg)
	}()
	return sync.OnceValue(func() bool { return <-hit })
}

// cleanups counts work under way that a close must wait for.
type cleanups struct {
	mu   sync.Mutex
	n    int
	none *sync.Cond
}

func (c *cleanups) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *cleanups) done() {
	c.mu.Lock()
	if c.n--; c.n == 0 && c.none != nil {
		c.none.Broadcast()
	}
	c.mu.Unlock()
}

func (c *cleanups) wait() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.none == nil {
		c.none = sync.NewCond(&c.mu)
	}
	for c.n > 0 {
		c.none.Wait()
	}
}

// empty kills what is in the cgroup, and puts it back in the pool once nothing is, or removes it.
func (pool *cgroupPool) empty(cg *pidsCgroup) {
	procs := filepath.Join(cg.dir, "cgroup.procs")
	empty := false
	for deadline := time.Now().Add(2 * time.Second); ; {
		b, _ := os.ReadFile(procs)
		pids := strings.Fields(string(b))
		if len(pids) == 0 {
			empty = true
			break
		}
		for _, s := range pids {
			if pid, err := strconv.Atoi(s); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if empty && len(pool.free) < cgroupPoolSize {
		pool.free = append(pool.free, cg)
		return
	}
	cg.remove()
}

// limitNote recognises a command that ended because of a limit and says so, for the model. output is
// what the model sees of the command's output; exit and sig are how the shell ended.
func limitNote(l tools.Limits, output string, exit *int, sig string, pidsHit func() bool) string {
	failed := sig != "" || (exit != nil && *exit != 0)
	low := strings.ToLower(output)
	// A refused fork is asked about only for a command that failed or said a fork failed: the count is
	// read from the cgroup, which most commands need not wait for.
	refused := false
	if failed || forkFailed(low) {
		refused = pidsHit()
	}
	if !failed && !refused {
		return ""
	}
	code := -1
	if exit != nil {
		code = *exit
	}
	var hit []string
	if l.CPUSeconds > 0 && (sig == "SIGXCPU" || code == 128+int(syscall.SIGXCPU) ||
		strings.Contains(low, "cpu time limit exceeded")) {
		hit = append(hit, fmt.Sprintf("cpu (%d s of CPU time per process; bash.limits.cpu_seconds)", l.CPUSeconds))
	}
	if l.FileSizeMB > 0 && (sig == "SIGXFSZ" || code == 128+int(syscall.SIGXFSZ) ||
		strings.Contains(low, "file size limit exceeded") || strings.Contains(low, "file too large")) {
		hit = append(hit, fmt.Sprintf("file size (%s per file; bash.limits.file_size_mb)", sizeMB(l.FileSizeMB)))
	}
	if l.MemoryMB > 0 && containsAny(low, "cannot allocate memory", "memoryerror", "memory exhausted",
		"out of memory", "bad_alloc", "failed to allocate", "allocation failed", "not enough memory") {
		hit = append(hit, fmt.Sprintf("memory (%s per process; bash.limits.memory_mb)", sizeMB(l.MemoryMB)))
	}
	if l.Processes > 0 && (refused || forkFailed(low)) {
		hit = append(hit, fmt.Sprintf("processes (%d; bash.limits.processes)", l.Processes))
	}
	if len(hit) == 0 {
		return ""
	}
	return "[limit reached: " + strings.Join(hit, "; ") + ". Warden limits every command so that a runaway one " +
		"cannot take the machine down; do the work in smaller pieces, or ask the user to raise the limit in " +
		"the settings.]"
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// forkFailed recognises "could not create a process or thread" in the usual wordings (bash, coreutils,
// Python, Go, glibc).
func forkFailed(low string) bool {
	for _, line := range strings.Split(low, "\n") {
		if strings.Contains(line, "resource temporarily unavailable") &&
			containsAny(line, "fork", "thread", "spawn", "clone", "exec", "errno 11") {
			return true
		}
	}
	return false
}

// confinementNote explains a failure that came from a limit, the jail or the sandbox, if it looks like one.
func (j *job) confinementNote(output string, exit *int, sig string) string {
	if n := limitNote(j.proc.limits.limits, output, exit, sig, j.proc.pidsHit); n != "" {
		return n
	}
	if j.jail != nil {
		return j.jail.Note(output, exit, sig)
	}
	return j.proc.sandbox.Note(output, exit, sig)
}
