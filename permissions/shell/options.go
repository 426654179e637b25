package shell

// SetLetters are the `set` options that only make the shell stricter or louder. Others change what later
// words mean: -k takes NAME=VALUE words anywhere as environment (`set -k; git diff GIT_EXTERNAL_DIFF=x`),
// -P makes `cd link/..` go to the link target's parent, not where Warden follows it.
const SetLetters = "abeufhmnvxBCETt"

// SetNames are the `set -o` names allowed, the long forms of SetLetters and pipefail.
var SetNames = map[string]bool{
	"allexport": true, "notify": true, "errexit": true, "nounset": true, "noglob": true, "hashall": true,
	"monitor": true, "noexec": true, "verbose": true, "xtrace": true, "braceexpand": true, "noclobber": true,
	"errtrace": true, "functrace": true, "onecmd": true, "pipefail": true, "ignoreeof": true,
}
