package permissions

import (
	osexec "os/exec"
	"strings"
	"testing"
)

// theirs are the vectors an allow rule for the program still covers, and why: they come from the
// person's own files or environment, or fetch a release the project names rather than run a file of it.
var theirs = map[string]string{
	"global configuration":                                "~/.gitconfig is the person's",
	"GIT_CONFIG_GLOBAL":                                   "the person's environment",
	"ripgrep configuration":                               "the person's environment",
	"a program on PATH inside the workspace":              "the person's PATH",
	"legacy rust-toolchain naming an uninstalled channel": "rustup installs a released toolchain",
	"go.mod toolchain under GOTOOLCHAIN=auto":             "Go fetches a released toolchain",
	"packageManager":                                      "corepack fetches a released package manager",
	"docker compose .env":                                 "another daemon, not a program run here",
	"CARGO_HOME's rustc-wrapper":                          "the person's own cargo configuration",
}

// TestAllowRulesDoNotCoverWhatTheWorkTreeSupplies plants each vector of trustVectors and decides its
// commands under the broadest allow rule for their program (Bash(git:*)): a program the working tree
// supplies still asks, named, and no rule is offered (a secret it reads asks for a Read rule, as ever);
// the person's own configuration is theirs to allow.
func TestAllowRulesDoNotCoverWhatTheWorkTreeSupplies(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, v := range trustVectors {
		t.Run(v.name, func(t *testing.T) {
			if v.skip != "" {
				if _, err := osexec.LookPath(v.skip); err != nil {
					t.Skipf("%s is not installed", v.skip)
				}
			}
			l := newTrustLab(t)
			v.setup(l)
			for _, cmd := range v.cmds {
				last := cmd[strings.LastIndex(cmd, "&& ")+1:]
				words := strings.Fields(strings.TrimPrefix(last, "& "))
				if words[0] == "timeout" {
					words = words[2:]
				}
				rule := "Bash(" + words[0] + ":*)"
				e := l.engine()
				if err := e.AddAllow(rule); err != nil {
					t.Fatal(err)
				}
				d := e.Decide(Request{Kind: Exec, Command: cmd, Cwd: l.ws})
				if why, ok := theirs[v.name]; ok {
					if d.Decision != Allow || d.Rule != rule {
						t.Errorf("%q under %s: %s (%s), want it allowed by the rule (%s)", cmd, rule, d.Decision, d.Reason, why)
					}
					continue
				}
				// A secret read asks for a Read rule naming it, as it does under any Bash rule.
				secret := strings.HasPrefix(d.SuggestedRule, "Read(")
				if d.Decision != Ask || !secret && (d.SuggestedRule != "" || !strings.Contains(d.Reason, "`"+rule+"` allows")) {
					t.Errorf("%q under %s: %s (%s), suggested %q; want ask naming the rule, offering none", cmd, rule, d.Decision, d.Reason, d.SuggestedRule)
				}
				for _, w := range v.want {
					if !strings.Contains(d.Reason, w) {
						t.Errorf("%q under %s: reason %q does not say %q", cmd, rule, d.Reason, w)
					}
				}
			}
		})
	}
}
