package permissions

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// mayMatch reports whether the path rule may match what the loose path becomes below dir (its known
// directory, as written or resolved), a directory above it or something below it.
func mayMatch(lp loosePath, r Rule, dir string) bool {
	segs := make([]looseSeg, 0, 8+len(lp.segs))
	for _, s := range strings.Split(dir, "/") {
		segs = append(segs, looseSeg{text: s})
	}
	segs = append(segs, lp.segs...)
	for _, glob := range []string{r.pathGlob, r.linkGlob} {
		if glob != "" && segsMayMatch(strings.Split(glob, "/"), segs) {
			return true
		}
	}
	return false
}

// segsMayMatch reports whether a rule's pattern, split at `/`, may match a path the segments become,
// or one above or below it.
func segsMayMatch(rule []string, segs []looseSeg) bool {
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
func segMayMatch(rule string, s looseSeg) bool {
	wild := strings.ContainsAny(rule, `*?[{\`)
	switch {
	case !s.dynamic && !wild:
		return rule == s.text
	case !s.dynamic:
		ok, err := doublestar.Match(rule, s.text)
		return ok || err != nil
	case wild:
		return true
	}
	return len(rule) >= len(s.pre)+len(s.suf) && strings.HasPrefix(rule, s.pre) && strings.HasSuffix(rule, s.suf)
}
