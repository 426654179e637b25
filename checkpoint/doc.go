// Package checkpoint records what each call that may change files changed in a workspace, and puts files
// back (undo, rewind).
//
// A call runs between two snapshots taken by Warden's own process (Checkpoints.Before and Window.After);
// what differs between them is the call's, and what changed between calls is recorded apart, as changed
// outside Warden. A snapshot follows what git would: the files the ignore rules leave in, and the files
// git's index tracks whatever the rules say (tracked.go). It costs a stat of each followed path, reads only
// what changed since the last one (snapshot.go), and after a first full walk looks only where inotify saw
// something happen (watch.go). Contents go once each into a store of the workspace's own, under their git
// blob ids (objects.go), or are borrowed from the person's git objects when the index already names them
// (borrow.go). A restore is planned, shown, and applied through directories opened without following
// links, never into .git (restore.go, safefs.go). The person's repository is only ever read, and git is
// never run: the checkpoints of a session read it through a gitrepo.Reader of their own, which remembers
// its configuration and index between snapshots while their files are unchanged.
//
// It imports nothing of Warden's but the leaves gitrepo (the person's index and objects), ignore (the
// rules a snapshot follows) and safefile, and must not import the packages that use it (agent, ui, the
// application): the agent wraps calls in its windows.
package checkpoint
