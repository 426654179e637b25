// Package jail is Warden's second wall: a read-only jail around every command that runs without a person's
// approval because the permission engine judged it read-only. The engine judges a command by its text, and
// some read-only programs decide what they do from files in the working tree; in the jail a wrong judgement
// cannot write, reach the network or read a key.
//
// A jailed command sees the whole file system read-only, except a private temporary directory it may write
// ($TMPDIR; /tmp with bubblewrap); it has no network and no Unix sockets; it cannot read the secrets the
// engine knows of (keys, credentials, .env files: those of the workspace, of the additional directories, of
// the home directories and of the system, found by a scan, and other names of them made with hard links),
// nor what the person's Read rules keep from being read unasked, nor Warden's own state and settings;
// it holds no capabilities, cannot see or signal Warden, and cannot read Warden's environment, where the API
// key lives.
//
// The jail is built once per session and kept warm, because building one per command (a bubblewrap run)
// costs about three bare shells: inside it runs a supervisor (tools/supervisor: Warden's own executable,
// started in the background after the first frame) that forks each command with its own directory,
// environment, descriptors, limits and process group. Two backends:
//
//   - bubblewrap: a mount namespace with / bound read-only, fresh /dev, /proc (in a pid namespace of its
//     own), /run and a size-bounded tmpfs on /tmp, the workspace (and bash and Warden's executable) shown
//     again where /tmp hides them, each secret covered by an empty file or directory nobody may open, a
//     network namespace with only loopback, no capabilities, and the seccomp filter of tools/confine;
//   - Landlock with seccomp where bubblewrap is missing (landlock.go): the supervisor confines itself.
//
// Each masked path is a mount (or a Landlock rule), so the masks are found before the jail starts: a scan
// of the workspace and the additional directories (whole, up to a bound), where Read rules' paths begin,
// the home directories (a few levels deep) and the system's credential stores, judging each path as the
// engine does. Files that become secret later are masked once
// the jail is rebuilt: Keeper rescans after anything that may have written (a command that ran outside the
// jail, a file tool writing a secret file), and the next jailed command waits for that.
//
// What the jail does not do: it does not judge anything (the permission engine does); it cannot mask what
// the scan does not find (secrets in files of ordinary names, a workspace larger than the bound, a secret
// file written by another program while Warden runs, a secret committed to the repository's history, which
// git must be able to read); and what a jailed command prints, the model reads.
//
// This package imports nothing of Warden's outside tools' own leaf packages (confine, supervisor).
package jail
