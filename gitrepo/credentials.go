package gitrepo

import "github.com/warden-cli/warden/secrets"

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
// sets a variable carrying a credential, so that printing the file gives it away. The parse is the one
// the configuration chain uses, kept by the Reader while the file is unchanged.
func (rd *Reader) FileHoldsCredential(path string) bool {
	return len(rd.LoadFile(path, false, "").Credentials()) > 0
}
