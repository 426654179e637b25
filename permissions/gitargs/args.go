package gitargs

import (
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// Args are a subcommand's arguments split the way git's parse-options splits them.
type Args struct {
	Flags    []shell.Flag
	Operands []shell.Word
}

// Parse splits args: short options cluster, a letter in values takes the rest of the word or else the
// next word, a letter in optional takes only the rest of the word, digits are a count (-3); a long option
// takes `=value`, or the next word when it is (an abbreviation of) one of longValues; `--` ends options.
// Long options keep the name as typed, abbreviated or not.
func Parse(args []shell.Word, values, optional string, longValues []string) Args {
	var g Args
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			g.Operands = append(g.Operands, args[i+1:]...)
			return g
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v, "=")
			if !has && shell.MatchesLong(name[2:], trimDashes(longValues)) && i+1 < len(args) {
				i++
				val, has = args[i].Value, true
			}
			g.Flags = append(g.Flags, shell.Flag{Name: name, Value: val, Has: has})
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				ch := v[j]
				f := shell.Flag{Name: "-" + string(ch)}
				switch {
				case ch >= '0' && ch <= '9':
					continue
				case strings.IndexByte(values, ch) >= 0:
					f.Value, f.Has = v[j+1:], true
					if j == len(v)-1 && i+1 < len(args) {
						i++
						f.Value = args[i].Value
					}
					j = len(v)
				case strings.IndexByte(optional, ch) >= 0:
					f.Value, f.Has = v[j+1:], j < len(v)-1
					j = len(v)
				}
				g.Flags = append(g.Flags, f)
			}
		default:
			g.Operands = append(g.Operands, args[i])
		}
	}
	return g
}

func trimDashes(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.TrimPrefix(n, "--")
	}
	return out
}

// Bad returns the first option that is one of shortBad's letters or stands for one of longBad: git takes
// any unambiguous abbreviation of a long option, so an abbreviation of a bad one is bad.
func (g Args) Bad(shortBad string, longBad []string) string {
	for _, f := range g.Flags {
		if strings.HasPrefix(f.Name, "--") {
			if len(f.Name) > 2 && slices.ContainsFunc(longBad, func(b string) bool { return strings.HasPrefix(b, f.Name) }) {
				return f.Name
			}
			continue
		}
		if strings.Contains(shortBad, f.Name[1:]) {
			return f.Name
		}
	}
	return ""
}

// Has reports whether any of names was given; long ones count abbreviated too.
func (g Args) Has(names ...string) bool {
	for _, f := range g.Flags {
		for _, n := range names {
			if f.Name == n || shell.Abbreviates(f.Name, n) {
				return true
			}
		}
	}
	return false
}

// HasExact reports whether any of names was given spelled out.
func (g Args) HasExact(names ...string) bool {
	for _, f := range g.Flags {
		if slices.Contains(names, f.Name) {
			return true
		}
	}
	return false
}
