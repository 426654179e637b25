package permissions

import "slices"

// The rules in force, as the person reviews them (/permissions): listed as written, and removable for the
// rest of the session.

// Rules returns the rules in force, as written: those of the policy, then those granted since.
func (e *Engine) Rules() (allow, deny, ask []string) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return slices.Clone(e.policy.Allow), slices.Clone(e.policy.Deny), slices.Clone(e.policy.Ask)
}

// RemoveRule stops the rule raw of list ("allow", "deny" or "ask") from applying for the rest of the
// session; it reports whether the rule was in force.
func (e *Engine) RemoveRule(list, raw string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	var texts *[]string
	var compiled *[]Rule
	switch list {
	case "allow":
		texts, compiled = &e.policy.Allow, &e.allow
	case "deny":
		texts, compiled = &e.policy.Deny, &e.deny
	case "ask":
		texts, compiled = &e.policy.Ask, &e.ask
	default:
		return false
	}
	i := slices.Index(*texts, raw)
	j := slices.IndexFunc(*compiled, func(r Rule) bool { return r.Raw == raw })
	if i < 0 || j < 0 {
		return false
	}
	// New slices: a decision in progress may hold the old ones (snapshot).
	*texts = slices.Delete(slices.Clone(*texts), i, i+1)
	*compiled = slices.Delete(slices.Clone(*compiled), j, j+1)
	return true
}
