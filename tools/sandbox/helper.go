package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"

	"github.com/warden-cli/warden/tools/confine"
	"github.com/warden-cli/warden/tools/jail"
	"github.com/warden-cli/warden/tools/supervisor"
)

// The Landlock helper is Warden's own executable started with HelperMarker as its first argument: it
// restricts itself and then becomes bash, so that the restriction covers the command and everything it
// starts, and Warden itself stays unrestricted. The same marker starts Warden's other helpers: the
// session's supervisor ("serve", package supervisor) and the read-only jail's ("jail", package jail).
// main calls it before anything else:
//
//	if sandbox.IsHelper(os.Args) {
//		os.Exit(sandbox.HelperMain(os.Args))
//	}

// HelperMarker is the first argument that makes Warden act as a helper. It is not a flag a person would
// type.
const HelperMarker = "__warden_sandbox_exec__"

// helperSpec is what the helper is told to allow, as JSON in its second argument.
type helperSpec struct {
	Network    bool     `json:"network"`
	WriteDirs  []string `json:"write_dirs"`
	WriteFiles []string `json:"write_files"`
}

// IsHelper reports whether args (os.Args) ask Warden to act as a helper.
func IsHelper(args []string) bool {
	return len(args) > 1 && args[1] == HelperMarker
}

// HelperMain runs the helper: args are os.Args, then the rules, then the program and its arguments.
// It only returns on failure, with the exit status to use; the message is on stderr, for the model.
func HelperMain(args []string) int {
	if len(args) == 3 && args[2] == "probe" {
		fmt.Println("ok")
		return 0
	}
	if len(args) == 3 && args[2] == "serve" {
		return supervisor.Serve(3)
	}
	if len(args) >= 3 && args[2] == "jail" {
		return jail.HelperMain(args[3:])
	}
	if len(args) < 4 {
		fmt.Fprintln(os.Stderr, "warden sandbox helper: missing arguments")
		return 126
	}
	// Capabilities belong to a thread, and so does an exec: the thread that gives them up must be the one
	// that runs bash, or bash starts with every capability of root.
	runtime.LockOSThread()
	var spec helperSpec
	if err := json.Unmarshal([]byte(args[2]), &spec); err != nil {
		fmt.Fprintf(os.Stderr, "warden sandbox helper: bad rules: %v\n", err)
		return 126
	}
	if err := spec.restrict(); err != nil {
		// Never run the command unconfined when confinement was asked for.
		fmt.Fprintf(os.Stderr, "warden: the Landlock sandbox could not be set up, so the command did not run: %v\n", err)
		return 126
	}
	err := syscall.Exec(args[3], args[3:], os.Environ())
	fmt.Fprintf(os.Stderr, "warden sandbox helper: exec %s: %v\n", args[3], err)
	return 127
}

// restrict applies the rules to this process. The rights are pinned at ABI 7 (what this code is tested
// against); BestEffort only drops what an older kernel does not know, and the probe has already refused a
// kernel that cannot block the network when it must be blocked.
func (s helperSpec) restrict() error {
	cfg := landlock.V7.BestEffort()
	if s.Network {
		cfg.HandledAccessNet = 0
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(s.WriteDirs...).IgnoreIfMissing(),
		landlock.RWFiles(s.WriteFiles...).IgnoreIfMissing(),
	}
	// No network rules: with network off every TCP bind and connect is denied.
	if err := cfg.Restrict(rules...); err != nil {
		return err
	}
	// Landlock stops mounts, not what other capabilities of root allow (network configuration, modules).
	if err := confine.DropCapabilities(); err != nil {
		return err
	}
	// What Landlock does not cover: Unix sockets, and UDP and other families with the network off.
	return confine.Install(s.Network)
}
