package jail

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/warden-cli/warden/tools/confine"
	"github.com/warden-cli/warden/tools/supervisor"
)

// Where bubblewrap is missing, the jail is Landlock: the jail's supervisor (Warden's executable, started
// with HelperArgs and "serve-landlock") confines itself before it serves, so that every command it forks
// is confined the same way. Landlock only grants: reading is granted on the whole file system except the
// masks and the dark homes, by granting, on the way from / down to each of them, every other entry one by
// one, and the listing (not the reading) of the directories on the way; then, the same way, on what is
// shown of the homes (the workspace, the places), each a tree of its own, since Landlock grants a tree
// whatever is granted above it. A dark home's own listing is not granted: its names are the person's.
// Landlock does not govern looking a path up, nor reading a link, so the way to a shown place needs no
// grant and links lead where they lead. Writing is granted in the jail's private tmp
// directory only, plus the final-directory pipes and /dev/null. No TCP (Landlock), no other sockets
// (seccomp), no signals to or abstract sockets of processes outside (Landlock scopes), no capabilities.
// Landlock also keeps a confined process from reading an outside process's /proc/PID/environ or memory,
// which bubblewrap does with a pid namespace.
//
// What it cannot do that bubblewrap does: give the jail a /tmp of its own (commands get TMPDIR instead,
// and /tmp is read-only to them), or hide /run.

// selfExe is the kernel's link to the running file.
const selfExe = "/proc/self/exe"

// landlockSpec is what the confined supervisor is told to allow, sent as JSON through descriptor 4 (it
// can be long: one path per entry beside every masked one).
type landlockSpec struct {
	ReadDirs   []string `json:"read_dirs"`  // read, list and execute the whole tree
	ReadFiles  []string `json:"read_files"` // read and execute this file
	ListDirs   []string `json:"list_dirs"`  // list this directory (and those below), nothing more
	WriteDirs  []string `json:"write_dirs"` // everything below
	PipeDirs   []string `json:"pipe_dirs"`  // open files below for writing: the named pipes
	WriteFiles []string `json:"write_files"`
}

// landlockSpecFile builds the rules for j and returns a pipe to read them from.
func landlockSpecFile(cfg Config, j *Jail, masks Masks) (*os.File, error) {
	spec := landlockSpec{
		WriteDirs:  []string{j.tmp},
		PipeDirs:   []string{j.run},
		WriteFiles: []string{"/dev/null", "/dev/zero", "/dev/full"},
	}
	hidden := map[string]bool{}
	for _, p := range append(masks.all(), masks.Dark...) {
		hidden[p] = true
	}
	// What is shown of the dark homes, as cfg.Show names it too (bash), but not below a mask.
	roots := []string{"/"}
	for _, p := range append(slices.Clone(masks.Shown), cfg.Show...) {
		if p != "" && inAny(masks.Dark, p) && !inAny(masks.all(), p) {
			roots = append(roots, p)
		}
	}
	spec.ReadDirs, spec.ReadFiles, spec.ListDirs = readGrants(roots, hidden)
	// The confined supervisor executes itself afresh (HelperMain): the rule is made on what the link
	// leads to in the helper, its own running file, wherever that lies and whatever its path holds now.
	spec.ReadFiles = append(spec.ReadFiles, selfExe)
	// Landlock grants the listing of a directory to every directory below it, and a dark home's names are
	// the person's too: no directory holding one may be listed (so / cannot be, under Landlock).
	spec.ListDirs = slices.DeleteFunc(spec.ListDirs, func(d string) bool {
		return slices.ContainsFunc(masks.Dark, func(h string) bool { return within(d, h) })
	})
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// The rules can be larger than a pipe holds; the writer must not block the caller.
	go func() {
		_, _ = w.Write(b)
		w.Close()
	}()
	return r, nil
}

// readGrants lists what to grant so that everything in the trees at roots but hidden can be read: whole
// trees where nothing below is hidden, entry by entry (with the directory itself only listable) where
// something is.
func readGrants(roots []string, hidden map[string]bool) (dirs, files, lists []string) {
	var below []string // hidden paths, to ask "is anything hidden below dir" quickly
	for p := range hidden {
		below = append(below, p)
	}
	sort.Strings(below)
	holds := func(dir string) bool {
		prefix := dir + "/"
		if dir == "/" {
			prefix = "/"
		}
		i := sort.SearchStrings(below, prefix)
		return i < len(below) && len(below[i]) > len(prefix) && below[i][:len(prefix)] == prefix
	}
	var grant func(dir string)
	grant = func(dir string) {
		if !holds(dir) {
			dirs = append(dirs, dir)
			return
		}
		lists = append(lists, dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case hidden[p]:
			case e.Type()&os.ModeSymlink != 0:
				// What a link points to is granted, or not, on its own.
			case e.IsDir():
				grant(p)
			default:
				files = append(files, p)
			}
		}
	}
	for _, r := range roots {
		fi, err := os.Stat(r)
		switch {
		case err != nil || hidden[r]:
		case fi.IsDir():
			grant(r)
		default:
			files = append(files, r)
		}
	}
	return dirs, files, lists
}

// HelperMain is what Warden's executable runs when started as a jail's supervisor: args are what follows
// the helper arguments. It returns the exit status.
func HelperMain(args []string) int {
	if len(args) == 1 && args[0] == "serve" {
		// Inside bubblewrap: the jail is already built around it.
		return supervisor.Serve(3)
	}
	if len(args) != 1 || args[0] != "serve-landlock" {
		fmt.Fprintln(os.Stderr, "warden jail: unknown mode")
		return 2
	}
	b, err := io.ReadAll(io.LimitReader(os.NewFile(4, "rules"), 64<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, "warden jail: reading the rules:", err)
		return 2
	}
	_ = unix.Close(4)
	var spec landlockSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		fmt.Fprintln(os.Stderr, "warden jail: bad rules:", err)
		return 2
	}
	// The capabilities restrict gives up are this thread's, and the exec below must run on it, or the
	// supervisor and every command it starts would have all of root's.
	runtime.LockOSThread()
	if err := spec.restrict(); err != nil {
		// Never serve unconfined: commands would run outside the jail they were promised.
		fmt.Fprintln(os.Stderr, "warden jail: Landlock could not be set up:", err)
		return 2
	}
	// Landlock confines each thread on its own, each in a domain of its own, and a process may signal
	// only within its domain: a command forked by one thread could not be stopped from another. Executed
	// afresh, the supervisor has one thread, whose domain all later threads and commands share. The
	// socket, descriptor 3, was inherited without close-on-exec and stays.
	// Through the kernel's link to the running file, not its path, which a command may have replaced
	// since Warden started (the rules grant executing that file, restrict's ReadFiles).
	err = syscall.Exec(selfExe, append(os.Args[:len(os.Args)-1:len(os.Args)-1], "serve"), []string{})
	fmt.Fprintln(os.Stderr, "warden jail: starting the confined supervisor:", err)
	return 2
}

// restrict confines this process and whatever it starts from now on.
func (s landlockSpec) restrict() error {
	cfg := landlock.V7.BestEffort()
	list := landlock.AccessFSSet(ll.AccessFSReadDir)
	readFile := landlock.AccessFSSet(ll.AccessFSReadFile | ll.AccessFSExecute)
	pipes := landlock.AccessFSSet(ll.AccessFSWriteFile | ll.AccessFSReadFile)
	rules := []landlock.Rule{
		landlock.RODirs(s.ReadDirs...).IgnoreIfMissing(),
		landlock.PathAccess(readFile, s.ReadFiles...).IgnoreIfMissing(),
		landlock.PathAccess(list, s.ListDirs...).IgnoreIfMissing(),
		landlock.RWDirs(s.WriteDirs...),
		landlock.PathAccess(pipes, s.PipeDirs...),
		landlock.RWFiles(s.WriteFiles...).IgnoreIfMissing(),
	}
	// No network rules: with the network handled and nothing granted, every TCP bind and connect fails.
	if err := cfg.Restrict(rules...); err != nil {
		return err
	}
	if err := confine.DropCapabilities(); err != nil {
		return err
	}
	return confine.Install(false)
}
