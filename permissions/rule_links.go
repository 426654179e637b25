package permissions

import (
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// A path is judged after its symbolic links are resolved, the way the kernel opens it; a rule naming a
// path through a link (Read(./cfg/**) with cfg -> real) must then cover where the link leads too, or the
// link's own name would be the only one the rule stops and real/prod.yml, or cfg/prod.yml itself once
// resolved, would be read. A deny or ask rule is therefore matched both as written and with the links of
// its literal start resolved. The start is resolved once, when the rule is compiled: a link below a
// wildcard is not followed (that would need a walk), and a link made after the rules were loaded is not
// seen until they are loaded again.

// resolveLinks gives a deny or ask rule its form with links resolved. Only rules that deny or ask get
// one: an allow rule naming a link allows no more than its name, so that a link can only ever make Warden
// stricter.
func (r *Rule) resolveLinks() {
	if r.pathGlob != "" {
		r.linkGlob = linkForm(r.pathGlob)
	}
}

// linkForm returns glob with the symbolic links of its literal start (its components before the first
// one holding a wildcard) resolved, or "" when resolving changes nothing.
func linkForm(glob string) string {
	comps := strings.Split(glob, "/")
	n := 0
	for n < len(comps) && !hasWildcard(comps[n]) {
		n++
	}
	lit := make([]string, n)
	for i, c := range comps[:n] {
		lit[i] = unescapeGlob(c)
	}
	start := filepath.Clean("/" + strings.Join(lit, "/"))
	resolved := shell.ResolvePath("/", start, "")
	if resolved == start {
		return ""
	}
	out := escapeGlob(resolved)
	if rest := comps[n:]; len(rest) > 0 {
		out = strings.TrimSuffix(out, "/") + "/" + strings.Join(rest, "/")
	}
	return out
}

// globs are the forms a path rule matches: as written and, where it differs, with its links resolved.
func (r *Rule) globs() []string {
	switch {
	case r.pathGlob == "":
		return nil
	case r.linkGlob == "":
		return []string{r.pathGlob}
	}
	return []string{r.pathGlob, r.linkGlob}
}
