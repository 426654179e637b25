package gitrepo

import (
	"sync"

	"github.com/warden-cli/warden/secrets"
)

// Credential reports whether the entry carries a credential (secrets.GitConfigEntry): an extraHeader,
// a URL with a password in its value or its subsection, a password or token by its name.
func (e Entry) Credential() bool { return secrets.GitConfigEntry(e.Key, e.Value) }

// Credentials returns the entries of c that carry a credential, in git's order.
func (c Config) Credentials() []Entry {
	var out []Entry
	for _, e := range c.Entries {
		if e.Credential() {
			out = append(out, e)
		}
	}
	return out
}

// FileHoldsCredential reports whether the configuration file at path itself (not what it includes)
// sets a variable carrying a credential, so that printing the file gives it away. The answer is kept
// with the parsed file, which is read again only when it changes.
func FileHoldsCredential(path string) bool {
	pf, ok := parsedFile(path)
	if !ok {
		return false
	}
	credMemo.Lock()
	got, known := credMemo.m[path]
	credMemo.Unlock()
	if known && got.of == pf {
		return got.holds
	}
	holds := false
	for _, e := range pf.entries {
		if e.Credential() {
			holds = true
			break
		}
	}
	credMemo.Lock()
	if credMemo.m == nil || len(credMemo.m) > 4096 {
		credMemo.m = map[string]credJudged{}
	}
	credMemo.m[path] = credJudged{of: pf, holds: holds}
	credMemo.Unlock()
	return holds
}

// credMemo remembers FileHoldsCredential's answers by the parsed file they were given for: the parse
// cache hands out the same value while the file is unchanged.
var credMemo struct {
	sync.Mutex
	m map[string]credJudged
}

type credJudged struct {
	of    *parsed
	holds bool
}
