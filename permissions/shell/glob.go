package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxGlobMatches bounds how many file names a glob operand is expanded to for checking; beyond it the
// operand is not read-only, since Warden could not look at every name.
const maxGlobMatches = 2000

// maxGlobReads bounds how many directories one glob operand may make Warden list: a pattern such as
// /*/*/*/* would otherwise walk the whole machine before every command.
const maxGlobReads = 64

// ExpandGlob returns what bash would put in place of a glob operand, or the pattern itself when nothing
// matches (bash's default). ok is false when the matches could not all be listed within the bounds.
// Unlike bash's default, names starting with a dot match too: `shopt -s dotglob` may be in effect.
func (c *State) ExpandGlob(pattern string, sc *Scope) (names []string, ok bool) {
	abs := pattern
	if !filepath.IsAbs(pattern) {
		if sc.Cwd == "" {
			return nil, false
		}
		abs = sc.Cwd + "/" + pattern
	}
	comps := strings.Split(abs, "/")[1:]
	cands := []string{"/"}
	reads := 0
	for _, comp := range comps {
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			// The kernel applies `..` after the links before it: lnk/../.e* lists the link target's parent.
			for i := range cands {
				cands[i] = filepath.Dir(ResolvePath("/", cands[i], ""))
			}
			continue
		}
		if !strings.ContainsAny(comp, "*?[") {
			for i := range cands {
				cands[i] = filepath.Join(cands[i], comp)
			}
			continue
		}
		if _, err := filepath.Match(comp, ""); err != nil {
			return nil, false
		}
		var next []string
		for _, dir := range cands {
			reads++
			if reads > maxGlobReads {
				return nil, false
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if m, _ := filepath.Match(comp, e.Name()); m {
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
			if len(next) > maxGlobMatches {
				return nil, false
			}
		}
		cands = next
	}
	var matches []string
	for _, m := range cands {
		if _, err := os.Lstat(m); err == nil {
			matches = append(matches, m)
		}
	}
	if len(matches) == 0 {
		return []string{pattern}, true
	}
	return matches, true
}

// GlobValues returns the words bash passes for w: the names a glob matches (the pattern itself when
// none does, or when Warden could not list them all), or the word's value.
func (e *Exec) GlobValues(w Word) []string {
	if !w.Static || !w.Glob {
		return []string{w.Value}
	}
	names, ok := e.S.ExpandGlob(w.Value, e.Scope())
	if !ok {
		e.P.NotRO(fmt.Sprintf("`%s` could not be expanded to check it", w.Value))
		return []string{w.Value}
	}
	return names
}
