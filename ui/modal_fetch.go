package ui

import (
	"strings"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/web"
)

// The approval of a web_fetch call is asked per host: the modal shows the URL and its host, and "always"
// saves the rule that names the host (WebFetch(domain:HOST)), which is also what lets a fetch reach a
// loopback or private address; the modal says so when the host is one.

// fetchBodyLines renders what a fetch reaches: the URL, every control character visible, and its host.
func fetchBodyLines(st *styles, req agent.ApprovalRequest, inner int) []string {
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, inner), "\n")...) }
	add(st.dim.Render("url    ") + highlightPart(req.Access.Summary, "", st.highlight, st.control, st.dim))
	add(st.dim.Render("domain ") + st.highlight.Render(visible(req.Access.Host, st.control, st.dim)))
	if why := web.RestrictedHost(req.Access.Host); why != "" {
		add(st.warn.Render("This is " + why + ": Warden connects to it only under a rule naming the host " +
			"(always allow this domain), never on a one-time approval."))
	}
	return lines
}

// thisDomain says, after "always" in the modal's answers, that for a fetch it is the domain that is
// allowed.
func thisDomain(req agent.ApprovalRequest) string {
	if req.Access.Kind == tools.AccessFetch {
		return " allow this domain"
	}
	return ""
}
