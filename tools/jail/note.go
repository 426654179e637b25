package jail

import (
	"slices"
	"strings"
)

// Note recognises a command of this jail that probably failed because of the jail and says so, for the
// model, with what it may do about it. output is what the model sees of the command's output; exit and
// sig are how it ended.
func (j *Jail) Note(output string, exit *int, sig string) string {
	return note(j.backend, j.tmp, j.masks.Dark, output, exit, sig)
}

func note(b Backend, tmp string, dark []string, output string, exit *int, sig string) string {
	if sig == "" && (exit == nil || *exit == 0) {
		return ""
	}
	var network, write, read, tmpGone, home bool
	for _, line := range strings.Split(output, "\n") {
		low := strings.ToLower(line)
		denied := containsAny(low, "permission denied", "operation not permitted")
		// Under bubblewrap what a dark home holds is not there; under Landlock it is refused.
		if (denied || containsAny(low, "no such file or directory", "not found")) &&
			slices.ContainsFunc(dark, func(h string) bool { return strings.Contains(line, h+"/") || strings.Contains(line, "~/") }) {
			home, read = true, true
			continue
		}
		switch {
		case containsAny(low, "network is unreachable", "could not resolve", "temporary failure in name resolution",
			"name or service not known", "connection refused", "no route to host", "failed to connect",
			"couldn't connect", "dial tcp", "getaddrinfo", "/dev/tcp/", "/dev/udp/") ||
			(denied && containsAny(low, "socket", "connect", "dial ")):
			network = true
		case strings.Contains(low, "read-only file system"):
			write = true
		case denied:
			// Landlock refuses a write and a masked read with the same error.
			read = true
			write = write || b == Landlock
		case b == Bubblewrap && strings.Contains(low, "no such file or directory") && strings.Contains(line, "/tmp/"):
			tmpGone = true
		}
	}
	var what []string
	if network {
		what = append(what, "there is no network")
	}
	if write {
		what = append(what, "nothing can be written except in "+tmp)
	}
	if read {
		what = append(what, "keys, credentials and .env files cannot be read")
	}
	if home {
		what = append(what, "the home directories are hidden but for the workspace, the additional directories and "+
			"the toolchains' places (the user may show more with the setting sandbox.jail_readable)")
	}
	if tmpGone {
		what = append(what, "/tmp is a fresh, empty one of its own")
	}
	if len(what) == 0 {
		return ""
	}
	return "[this command was judged read-only, so it ran without asking, in Warden's read-only jail, where " +
		strings.Join(what, "; ") + ". If it really needs more, run it again with \"dangerously_unsandboxed\": " +
		"true; the user will be asked to approve running it outside the jail.]"
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
