package permissions

import (
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// Fetches of web pages (web_fetch) are decided here, per host: rules `WebFetch` (every host),
// `WebFetch(domain:example.com)` (that host exactly) and `WebFetch(domain:*.example.com)` (its subdomains,
// not itself) in allow, ask and deny, in the order of DESIGN.md §5. Without a rule a fetch asks, and "always
// allow" saves the rule naming the host. A fetch changes nothing on the machine, so plan mode does not deny
// it; what it can do is carry what the model writes into the URL to that host, which is why every new host
// asks.
//
// Naming a host matters beyond the decision: the fetching tool reaches a loopback, private or link-local
// address only for a host an allow rule names exactly (NamesHost), since a name, a redirect or a DNS answer
// can lead a public-looking URL into the person's own network. A bare `WebFetch` or a wildcard names no
// host, and neither does a one-time approval.

// webFetchTool is the tool name of fetch rules.
const webFetchTool = "WebFetch"

// parseWebFetchRule checks a fetch rule: WebFetch, or WebFetch(domain:HOST) with HOST a name, `*.` and a
// name, or an IP address, without a port.
func parseWebFetchRule(raw, pattern string, bare bool) (Rule, error) {
	r := Rule{Raw: raw, Tool: webFetchTool}
	if bare {
		r.any = true
		return r, nil
	}
	host, ok := strings.CutPrefix(strings.TrimSpace(pattern), "domain:")
	if !ok {
		return Rule{}, fmt.Errorf("rule %q: write WebFetch(domain:HOST), like WebFetch(domain:example.com), or WebFetch for every host", raw)
	}
	wild := false
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		wild, host = true, rest
	}
	canon, err := canonicalHost(host)
	if err != nil {
		return Rule{}, fmt.Errorf("rule %q: %v", raw, err)
	}
	if wild {
		if _, err := netip.ParseAddr(canon); err == nil {
			return Rule{}, fmt.Errorf("rule %q: *. goes before a domain name, not an address", raw)
		}
		r.prefix = true
	}
	r.Pattern, r.host = "domain:"+host, canon
	return r, nil
}

// canonicalHost is the one spelling of a host that rules and fetches are compared in: an address in its
// standard form (without brackets), a name in lower-case ASCII (IDNA) without a trailing dot.
func canonicalHost(h string) (string, error) {
	h = strings.TrimSpace(h)
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if a, err := netip.ParseAddr(h); err == nil {
		if a.Zone() != "" {
			return "", fmt.Errorf("the address %q has a zone; name the host without it", h)
		}
		return a.String(), nil
	}
	h = strings.TrimSuffix(h, ".")
	switch {
	case h == "":
		return "", fmt.Errorf("no host is named")
	case strings.ContainsAny(h, ":/@*?#[] "):
		return "", fmt.Errorf("%q is not a host name (a domain rule names a host, without a scheme, port or path)", h)
	}
	ascii, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid host name: %v", h, err)
	}
	return strings.ToLower(ascii), nil
}

// matchHost reports whether a fetch rule covers host (canonical).
func (r *Rule) matchHost(host string) bool {
	switch {
	case r.Tool != webFetchTool:
		return false
	case r.any:
		return true
	case r.prefix:
		return strings.HasSuffix(host, "."+r.host)
	}
	return host == r.host
}

func firstHostMatch(rules []Rule, host string) (Rule, bool) {
	for _, r := range rules {
		if r.matchHost(host) {
			return r, true
		}
	}
	return Rule{}, false
}

// WebFetchRule is the rule that allows fetches from host, the one "always allow this domain" saves.
func WebFetchRule(host string) string {
	if canon, err := canonicalHost(host); err == nil {
		host = canon
	}
	return "WebFetch(domain:" + host + ")"
}

// NamesHost reports whether an allow rule names host exactly (not through `WebFetch` or a wildcard): only
// then may a fetch from it reach a loopback, private or link-local address.
func (e *Engine) NamesHost(host string) bool {
	canon, err := canonicalHost(host)
	if err != nil {
		return false
	}
	for _, r := range e.snapshot().allow {
		if r.Tool == webFetchTool && !r.any && !r.prefix && r.host == canon {
			return true
		}
	}
	return false
}

func (e *Engine) decideFetch(s snapshot, req Request) Verdict {
	host, err := canonicalHost(req.Host)
	if err != nil {
		return Verdict{Decision: Deny, By: "policy", Reason: fmt.Sprintf("fetches from a host that cannot be judged: %v", err)}
	}
	what := fmt.Sprintf("fetches from `%s`", host)
	v := Verdict{Part: host, ReadOnly: true}
	if r, ok := firstHostMatch(s.deny, host); ok {
		v.Decision, v.By, v.Rule = Deny, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, denied by `%s`", what, r.Raw)
		return v
	}
	if r, ok := firstHostMatch(s.ask, host); ok {
		v.Decision, v.By, v.Rule = Ask, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, which `%s` asks about", what, r.Raw)
		v.SuggestedRule = WebFetchRule(host)
		return v
	}
	if r, ok := firstHostMatch(s.allow, host); ok {
		v.Decision, v.By, v.Rule = Allow, "rule", r.Raw
		v.Reason = fmt.Sprintf("%s, allowed by `%s`", what, r.Raw)
		return v
	}
	if s.mode == ModeYolo {
		v.Decision, v.By = Allow, "mode"
		v.Reason = fmt.Sprintf("%s; yolo mode allows it", what)
		return v
	}
	v.Decision, v.By, v.SuggestedRule = Ask, "policy", WebFetchRule(host)
	v.Reason = what + ", a host no rule allows"
	return v
}
