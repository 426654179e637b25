// Package jail is Warden's second wall: a read-only jail around every command that runs without a person's
// approval because the permission engine judged it read-only. The engine judges a command by its text, and
// some read-only programs decide what they do from files in the working tree; in the jail a wrong judgement
// cannot write, reach the network or read a key.
//
// A jailed command sees the file system read-only, except a private temporary directory it may write
// ($TMPDIR; /tmp with bubblewrap); it has no network, no Unix or virtual-machine sockets and no kernel
// keyring; it holds no capabilities, cannot see or signal Warden, and cannot read Warden's environment,
// where the API key lives. What it cannot read is decided two ways:
//
//   - The home directories are dark (homes.go): the person's, wherever it is, /root and every /home/*
//     are hidden whole, but for the workspace, the additional directories and the places in them that
//     read-only tools need (toolchains.go: Go's and cargo's caches, rustup, nvm, pyenv, the directories
//     of PATH, and others, each with its reason) or that the person's settings add
//     (sandbox.jail_readable). A home holds keys, notes and other projects under any name, so what is
//     hidden there does not depend on a scan. Configuration kept in a home is not looked for (Jail.Env);
//     inside a toolchain's place it is looked for where the toolchain keeps it (Place.Configs: a node
//     version's npmrc, conda's .condarc), and masked when the catalogue names it.
//   - What is shown (the workspace, the additional directories, the person's places, and the rest of the
//     system) is searched for the secrets the engine knows of (keys, credentials, .env files, the paths the
//     person's Read rules keep from being read unasked, Warden's own state and settings, and every other
//     name a hard link gives one), and each is masked: covered by an empty file or directory nobody may
//     open. Each walk is bounded, and what it did not get to is masked whole: a scan that cannot finish
//     hides what it did not see. A file with a name no walk found (its other name may be a key of a dark
//     home) is masked too, but among other people's code, where package managers link their caches'
//     files; there, only one that is a credential file of a home under another name (keys.go).
//
// The jail is built once per session and kept warm, because building one per command (a bubblewrap run)
// costs about three bare shells: inside it runs a supervisor (tools/supervisor: Warden's own executable,
// started in the background after the first frame) that forks each command with its own directory,
// environment, descriptors, limits and process group. Two backends:
//
//   - bubblewrap: a mount namespace with / bound read-only, fresh /dev, /proc (in a pid namespace of its
//     own), /run and a size-bounded tmpfs on /tmp, an empty read-only tmpfs over each dark home with what
//     is shown of it bound back (and the links on the way made again), the workspace (and bash) shown
//     again where /tmp hides them, the masks, a network namespace with only loopback, no capabilities,
//     and the seccomp filter of tools/confine; the supervisor is executed through a descriptor of the
//     file Warden runs from, never by its path, which a command may have taken over since;
//   - Landlock with seccomp where bubblewrap is missing (landlock.go): the supervisor, started through
//     the kernel's link to Warden's running file (and executed afresh through its own), confines itself,
//     granting reads of everything but the dark homes and the masks, and of what is shown of the homes;
//     a file of a dark home is refused rather than missing, and / cannot be listed.
//
// Each masked path is a mount (or a Landlock rule), so the masks are found before the jail starts, by a
// walk of the workspace and the additional directories (up to 200,000 entries each; other people's code,
// node_modules and the like, three levels deep; .git but for its object store), of the person's places (up
// to 20,000 entries each) and where Read rules' paths begin (up to 20,000), judging each path as the engine
// does. Files that become secret later are masked once the jail is rebuilt: Keeper rescans after anything
// that may have written (a command that ran outside the jail, a file tool writing a secret file), and the
// next jailed command waits for that.
//
// What the jail does not do: it does not judge anything (the permission engine does); in what it shows, it
// cannot mask a secret in a file of an ordinary name, one deeper in other people's code than the walk
// goes, one written by another program while Warden runs, or one committed to the repository's history,
// which git must be able to read; it does not search the toolchains' places whole, which hold downloads
// and installed programs, only where each keeps its configuration; a toolchain's configuration in the
// home (~/.npmrc, ~/.gitconfig) is dark with the rest, so tools in the jail run with their defaults; and
// what a jailed command prints, the model reads.
//
// This package imports nothing of Warden's outside tools' own leaf packages (confine, supervisor).
package jail
