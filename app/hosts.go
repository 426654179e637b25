package app

import (
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// hostJudge is what web_fetch asks of the hosts it meets (tools.Env.Hosts): the engine's decision on a
// fetch from the host, which must allow without asking, and whether an allow rule names it exactly.
func hostJudge(e *permissions.Engine) func(host string) tools.HostJudgement {
	return func(host string) tools.HostJudgement {
		v := e.Decide(permissions.Request{Kind: permissions.Fetch, Host: host})
		return tools.HostJudgement{Allowed: v.Decision == permissions.Allow, Named: e.NamesHost(host), Reason: v.Reason}
	}
}
