// Package sandbox is the first wall (DESIGN.md §11), an operating-system boundary under the permission
// prompt that confines every command when the person turns it on: even a command that was approved too
// quickly, or classified wrongly, can write only inside the workspace, the temporary directories and the
// paths the person listed, cannot change .git, .warden or the workspace's other files run or obeyed
// later without asking (protectedNames), and reaches no network unless allowed. Two backends:
//
//   - bubblewrap, when `bwrap` is on PATH outside the workspace: a read-only view of the whole file system
//     with the writable paths bound over it, the protected places that exist (their whole top-level entries, links left out) bound read-only again inside
//     the workspace, a fresh /tmp, /dev and /proc, a network namespace with only loopback (unless network is allowed), a pid
//     namespace (so that nothing the command starts outlives it), --die-with-parent, and the seccomp filter
//     of tools/confine, passed with --seccomp.
//   - Landlock, otherwise: Warden re-executes itself as a small helper (HelperMain) that restricts
//     itself and then execs bash. File rules: read everywhere, write in the writable paths; TCP bind and
//     connect denied when network is off (ABI 4 and later). Landlock cannot take back a right below a
//     directory it granted, so when the workspace holds .git or .warden the workspace's own top level is
//     not writable: its other entries are (recursively), but new files cannot be created directly in
//     the workspace root, nor entries there deleted. Landlock cannot give a private /tmp either.
//
// A sandbox that cannot be had is an error, never a silent fallback: Probe says why. A Prober keeps what
// probing found for one session (package bash's Tasks holds one), since each probe runs a program. The
// helper's marker (HelperMarker) also starts Warden's other helpers, the supervisor and the jail's.
//
// It imports nothing of tools but the leaf packages below it (confine, jail, supervisor, for the helpers
// it starts); the framework imports it for Config, so it must never import tools, bash or files.
package sandbox
