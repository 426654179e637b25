package permissions

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/warden-cli/warden/permissions/shell"
)

// mayMatch reports whether the path rule may match what the loose path becomes below dir (its known
// directory, as written or resolved), a directory above it or something below it.
func mayMatch(lp shell.LoosePath, r Rule, dir string) bool {
	segs := make([]shell.LooseSeg, 0, 8+len(lp.Segs))
	for _, s := range strings.Split(dir, "/") {
		segs = append(segs, shell.LooseSeg{Text: s})
	}
	segs = append(segs, lp.Segs...)
	for _, glob := range []string{r.pathGlob, r.linkGlob} {
		if glob != "" && segsMayMatch(strings.Split(glob, "/"), segs) {
			return true
		}
	}
	return false
}

// segsMayMatch reports whether a rule's pattern, split at `/`, may match a path the segments become,
// or one above or below it.
func segsMayMatch(rule []string, segs []shell.LooseSeg) bool {
	if len(rule) == 0 || len(segs) == 0 {
		return true // one names a directory the other lies below
	}
	if rule[0] == "**" {
		return segsMayMatch(rule[1:], segs) || segsMayMatch(rule, segs[1:])
	}
	return segMayMatch(rule[0], segs[0]) && segsMayMatch(rule[1:], segs[1:])
}

// segMayMatch reports whether one component of a rule's pattern may match a component of a loose
// path.
func segMayMatch(rule string, s shell.LooseSeg) bool {
	wild := strings.ContainsAny(rule, `*?[{\`)
	switch {
	case !s.Dynamic && !wild:
		return rule == s.Text
	case !s.Dynamic:
		ok, err := doublestar.Match(rule, s.Text)
		return ok || err != nil
	case wild:
		return true
	}
	return len(rule) >= len(s.Pre)+len(s.Suf) && strings.HasPrefix(rule, s.Pre) && strings.HasSuffix(rule, s.Suf)
}
