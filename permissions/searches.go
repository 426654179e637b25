package permissions

// What a search of a directory may show. The engine decides a file tool's search (the grep tool) on the
// directory it starts from, but a Read deny or ask rule may name files below it. Unlike grep -r in a shell,
// which Warden cannot make skip a file and so asks about (decideExec), the tool can leave such files out:
// it asks SearchRule about each file it is about to read and says in its result which rule kept how many
// back. A search then never asks more often than before, and never shows what read_file would not.

// SearchRule returns the Read rule that keeps the content of the file at abs (absolute, its links
// resolved) out of a search of a directory above it: a deny rule, or else an ask rule (ask is then set).
// It returns "" when no such rule covers abs.
func (e *Engine) SearchRule(abs string) (rule string, ask bool) {
	s := e.snapshot()
	for _, r := range s.deny {
		if r.Tool == "Read" && r.matchPath(abs) {
			return r.Raw, false
		}
	}
	for _, r := range s.ask {
		if r.Tool == "Read" && r.matchPath(abs) {
			return r.Raw, true
		}
	}
	return "", false
}
