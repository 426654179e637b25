// Package supervisor runs the process that starts Warden's commands and stops them all when Warden goes.
//
// Warden starts one supervisor per session (and the read-only jail runs one of its own inside the jail);
// every command is a child of it, never of Warden. The supervisor
//
//   - forks each command with the directory, environment and descriptors it is sent, in a session and
//     process group of its own, and sends back a pidfd of it, from which the client reads the command's pid
//     as Warden sees it (the jail's supervisor lives in a pid namespace of its own, where pids differ);
//   - keeps the command unreaped after it exits, until the client says it is done with it: until then the
//     pid, which is also the process group's id, cannot be reused, so signalling the group can never hit a
//     stranger. The client learns of the exit from a pidfd of its own, and the status from the command's
//     /proc entry, which an unreaped process keeps; only failing those does it ask the supervisor;
//   - is a child subreaper, so a process that a command double-forked or setsid'ed away from its group is
//     reparented to the supervisor instead of to init and stays in reach: when the client is done with a
//     command, its processes that are left (found by the mark in their environment) are killed;
//   - holds a socket from Warden; when it reads end of file there (Warden exited, or was killed with
//     SIGKILL, or the OOM killer took it) it kills every command's process group and every process below
//     it, waits until none is left, and exits. Nothing a command started outlives Warden by more than that.
//
// The supervisor is Warden's own executable re-executed (Serve is its main function): a Go program, whose
// start costs tens of milliseconds, which is why there is one per session and not one per command, and why
// it is started in the background. It keeps no secrets: it is started with an empty environment, its
// memory cannot be read by other processes of the same user (it is not dumpable), and it passes each
// command only the descriptors it was sent for it; every descriptor it holds is closed on exec.
//
// The protocol is a SOCK_SEQPACKET socket pair, one message per request or event, with descriptors passed
// as SCM_RIGHTS. The client sends start (with the command's descriptors) and reap, and, when it cannot
// watch or read a command itself, watch or a reap that asks for the status; the supervisor sends hello
// once, then started (with a pidfd), and exited or reaped when asked. Messages are small binary records
// (protocol.go).
//
// This package imports nothing of Warden's.
package supervisor
