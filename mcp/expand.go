package mcp

import (
	"fmt"
	"strings"
)

// expand replaces ${VAR} and ${VAR:-default} in s with values from getenv, as Claude Code does in
// .mcp.json. A variable that is unset (and has no default) is an error naming it, so that a server never
// starts with a silently empty token or path.
func expand(s string, getenv func(string) string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("%q has ${ without a closing }", s)
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a variable name", expr)
		}
		v := getenv(name)
		switch {
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("it needs the environment variable %s, which is not set (or write ${%s:-default})", name, name)
		}
		s = s[i+end+1:]
	}
}

func validVarName(n string) bool {
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	return strings.IndexFunc(n, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) < 0
}

// expandMap expands every value of m.
func expandMap(m map[string]string, getenv func(string) string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		x, err := expand(v, getenv)
		if err != nil {
			return nil, fmt.Errorf("in %s: %w", k, err)
		}
		out[k] = x
	}
	return out, nil
}
