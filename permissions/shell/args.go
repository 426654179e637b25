package shell

import "strings"

// Args is a command line split into options and operands following GNU conventions.
type Args struct {
	Name     string
	Words    []Word
	Flags    []Flag
	Operands []Word
}

type Flag struct {
	// Name is "-x" or "--long" (without any =value).
	Name  string
	Value string
	Has   bool
}

func (a *Args) Has(names ...string) bool {
	for _, f := range a.Flags {
		for _, n := range names {
			if f.Name == n {
				return true
			}
		}
	}
	return false
}

// HasOpt is has, with a long option also found when it was typed abbreviated (`--reg` for `--regexp`),
// as GNU getopt accepts. Use it where seeing an option makes Warden stricter, never where it relaxes.
func (a *Args) HasOpt(names ...string) bool {
	for _, f := range a.Flags {
		for _, n := range names {
			if f.Name == n || Abbreviates(f.Name, n) {
				return true
			}
		}
	}
	return false
}

// Abbreviates reports whether typed, a long option as written, may stand for option: GNU getopt and git
// take any prefix of a long option that is not ambiguous, and Warden, to be safe, any prefix at all.
func Abbreviates(typed, option string) bool {
	return len(typed) > 2 && strings.HasPrefix(typed, "--") && strings.HasPrefix(option, typed)
}

// MatchesLong reports whether a long option, as typed, is one of names: GNU getopt accepts any
// unambiguous prefix, so `--out` is `--output`.
func MatchesLong(typed string, names []string) bool {
	if typed == "" {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			return true
		}
	}
	return false
}
