package gitrepo

import (
	"errors"
	"strings"
)

// Setting is one variable set on git's command line (`git -c key=value`), as GIT_CONFIG_PARAMETERS
// carries it to git and to the git commands git runs.
type Setting struct {
	Key, Value string
	// NoValue is set for a key given without `=`, which git reads as true.
	NoValue bool
}

// ParseParameters reads GIT_CONFIG_PARAMETERS as git reads it: settings each followed by blanks, each
// either `'key'='value'` (how git writes them since 2.31; `'key'=` alone is true) or the older
// `'key=value'`, split at the first `=`, or `'key'` alone (true). Inside the quotes `'\”` and `'\!'`
// stand for a quote and a `!`. On text git would refuse ("bogus format") it returns what it read
// before, and an error.
func ParseParameters(s string) ([]Setting, error) {
	var out []Setting
	// Blanks may follow a setting, but not lead the first.
	rest := s
	for rest != "" {
		key, after, err := sqDequote(rest)
		if err != nil {
			return out, err
		}
		switch {
		case after == "" || isSpace(after[0]):
			k, v, has := strings.Cut(key, "=")
			out = append(out, Setting{Key: k, Value: v, NoValue: !has})
		case after[0] == '=':
			after = after[1:]
			switch {
			case after == "" || isSpace(after[0]):
				out = append(out, Setting{Key: key, NoValue: true})
			case after[0] == '\'':
				var v string
				if v, after, err = sqDequote(after); err != nil {
					return out, err
				}
				if after != "" && !isSpace(after[0]) {
					return out, errors.New("does not parse: a value runs on after its closing quote")
				}
				out = append(out, Setting{Key: key, Value: v})
			default:
				return out, errors.New("does not parse: a value is not quoted")
			}
		default:
			return out, errors.New("does not parse: a key runs on after its closing quote")
		}
		rest = strings.TrimLeft(after, " \t\n\v\f\r")
	}
	return out, nil
}

// sqDequote reads one single-quoted word at the start of s, returning it and what follows.
func sqDequote(s string) (string, string, error) {
	if s == "" || s[0] != '\'' {
		return "", s, errors.New("does not parse: a setting is not quoted")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		// Out of the quotes: `\'` or `\!` followed by a quote goes back in.
		if i+3 < len(s) && s[i+1] == '\\' && (s[i+2] == '\'' || s[i+2] == '!') && s[i+3] == '\'' {
			b.WriteByte(s[i+2])
			i += 3
			continue
		}
		return b.String(), s[i+1:], nil
	}
	return "", "", errors.New("does not parse: a quote is not closed")
}

// QuoteParameter writes one setting the way git adds `-c key=value` to GIT_CONFIG_PARAMETERS.
func QuoteParameter(key, value string, noValue bool) string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	if noValue {
		return q(key)
	}
	return q(key) + "=" + q(value)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
