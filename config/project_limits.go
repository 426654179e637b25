package config

import (
	"cmp"
	"fmt"
)

// A repository's settings file must never stop Warden: a value of its that, with the person's, would fail
// the checks made across files (a timeout above the longest command allowed) is left out or brought
// within the person's limits, with a warning naming where it was written, and a zero duration or size is
// no value at all, so that it inherits what the person set rather than Warden's default.

// zeroInherits leaves out the bash durations and sizes that are zero, for which 0 would mean Warden's
// default; auto_background_after_ms 0 means "never", a value of its own, and stays.
func (b *BashSettings) zeroInherits() {
	for _, v := range []**int{&b.TimeoutMS, &b.MaxTimeoutMS, &b.MaxOutputChars} {
		if *v != nil && **v == 0 {
			*v = nil
		}
	}
}

// fitTimeout brings the default command timeout within the longest command allowed once project file s is
// applied: a project's lower bash.max_timeout_ms tightens and applies, and the timeout the person set (or
// Warden's default) above it is lowered to it, said, instead of failing validate.
func (c *Config) fitTimeout(s *Settings) {
	if s.Bash.MaxTimeoutMS == nil {
		return // the person's own files' conflict, which validate reports as theirs
	}
	t := cmp.Or(c.BashTimeoutMS, DefaultTimeoutMS)
	m := cmp.Or(c.BashMaxTimeoutMS, DefaultMaxTimeoutMS)
	if t <= m {
		return
	}
	c.Warnings = append(c.Warnings, fmt.Sprintf("%s: bash.max_timeout_ms (%d) is below the command timeout set before it (%d ms); commands run with a timeout of %d ms",
		s.at.of("bash", "max_timeout_ms"), m, t, m))
	c.BashTimeoutMS = m
}
