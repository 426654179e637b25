package permissions

import (
	"strings"
	"testing"
)

func fetchReq(host string) Request { return Request{Kind: Fetch, Host: host} }

func TestWebFetchDecisions(t *testing.T) {
	cases := []struct {
		name             string
		mode             Mode
		allow, deny, ask []string
		host             string
		want             Decision
		by, rule         string
	}{
		{"asks by default", ModeDefault, nil, nil, nil, "example.com", Ask, "policy", ""},
		{"a domain rule allows its host", ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil, "example.com", Allow, "rule", "WebFetch(domain:example.com)"},
		{"a domain rule covers no subdomain", ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil, "docs.example.com", Ask, "policy", ""},
		{"a domain rule covers no longer name", ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil, "badexample.com", Ask, "policy", ""},
		{"a wildcard covers subdomains", ModeDefault, []string{"WebFetch(domain:*.example.com)"}, nil, nil, "a.b.example.com", Allow, "rule", "WebFetch(domain:*.example.com)"},
		{"a wildcard does not cover the domain itself", ModeDefault, []string{"WebFetch(domain:*.example.com)"}, nil, nil, "example.com", Ask, "policy", ""},
		{"a wildcard does not cover a longer name", ModeDefault, []string{"WebFetch(domain:*.example.com)"}, nil, nil, "xexample.com", Ask, "policy", ""},
		{"bare WebFetch allows every host", ModeDefault, []string{"WebFetch"}, nil, nil, "example.org", Allow, "rule", "WebFetch"},
		{"case and a trailing dot do not matter", ModeDefault, []string{"WebFetch(domain:Example.COM.)"}, nil, nil, "EXAMPLE.com.", Allow, "rule", "WebFetch(domain:Example.COM.)"},
		{"an address is one spelling", ModeDefault, []string{"WebFetch(domain:[::1])"}, nil, nil, "0:0:0:0:0:0:0:1", Allow, "rule", "WebFetch(domain:[::1])"},
		{"a name in Unicode is its ASCII form", ModeDefault, []string{"WebFetch(domain:bücher.example)"}, nil, nil, "xn--bcher-kva.example", Allow, "rule", "WebFetch(domain:bücher.example)"},
		{"deny beats allow", ModeDefault, []string{"WebFetch"}, []string{"WebFetch(domain:evil.example)"}, nil, "evil.example", Deny, "rule", "WebFetch(domain:evil.example)"},
		{"deny holds in yolo", ModeYolo, nil, []string{"WebFetch(domain:*.evil.example)"}, nil, "x.evil.example", Deny, "rule", "WebFetch(domain:*.evil.example)"},
		{"ask beats allow", ModeDefault, []string{"WebFetch"}, nil, []string{"WebFetch(domain:example.com)"}, "example.com", Ask, "rule", "WebFetch(domain:example.com)"},
		{"yolo allows", ModeYolo, nil, nil, nil, "example.com", Allow, "mode", ""},
		{"plan mode asks, a fetch changes nothing here", ModePlan, nil, nil, nil, "example.com", Ask, "policy", ""},
		{"accept-edits does not cover fetches", ModeAcceptEdits, nil, nil, nil, "example.com", Ask, "policy", ""},
		{"a Bash rule is no fetch rule", ModeDefault, []string{"Bash"}, nil, nil, "example.com", Ask, "policy", ""},
		{"a fetch rule is no Read rule", ModeDefault, []string{"WebFetch"}, nil, nil, "", Deny, "policy", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := NewEngine(Policy{Mode: c.mode, Allow: c.allow, Deny: c.deny, Ask: c.ask, Workspace: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			v := e.Decide(fetchReq(c.host))
			if v.Decision != c.want || v.By != c.by || v.Rule != c.rule {
				t.Fatalf("got %s by %s rule %q (%s), want %s by %s rule %q", v.Decision, v.By, v.Rule, v.Reason, c.want, c.by, c.rule)
			}
			if c.host == "" {
				return
			}
			host, _ := canonicalHost(c.host)
			if v.Decision == Ask && v.SuggestedRule != "WebFetch(domain:"+host+")" {
				t.Errorf("suggested rule %q", v.SuggestedRule)
			}
			if !strings.Contains(v.Reason, "`"+host+"`") {
				t.Errorf("reason %q does not name the host", v.Reason)
			}
		})
	}
}

func TestWebFetchRulesThatDoNotParseSayHowToWriteThem(t *testing.T) {
	for _, c := range []struct{ rule, want string }{
		{"WebFetch(example.com)", "WebFetch(domain:HOST)"},
		{"WebFetch()", "WebFetch(domain:HOST)"},
		{"WebFetch(domain:)", "no host"},
		{"WebFetch(domain:example.com:8080)", "without a scheme, port or path"},
		{"WebFetch(domain:https://example.com)", "without a scheme, port or path"},
		{"WebFetch(domain:example.com/docs)", "without a scheme, port or path"},
		{"WebFetch(domain:*.127.0.0.1)", "not an address"},
		{"WebFetch(domain:a*.example.com)", "not a host name"},
		{"WebFetch(domain:fe80::1%eth0)", "zone"},
	} {
		_, err := ParseRule(c.rule)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRule(%q) = %v, want an error saying %q", c.rule, err, c.want)
		}
	}
	if _, err := NewEngine(Policy{Allow: []string{"WebFetch(domain:docs.example.com)", "WebFetch(domain:*.example.org)", "WebFetch"}}); err != nil {
		t.Errorf("valid fetch rules refused: %v", err)
	}
}

func TestOnlyAnAllowRuleNamingTheHostExactlyNamesIt(t *testing.T) {
	e, err := NewEngine(Policy{
		Allow: []string{"WebFetch(domain:127.0.0.1)", "WebFetch(domain:*.corp.example)", "WebFetch"},
		Ask:   []string{"WebFetch(domain:localhost)"},
		Deny:  []string{"WebFetch(domain:10.0.0.1)"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]bool{
		"127.0.0.1":         true,
		"127.0.0.2":         false, // no rule names it; bare WebFetch names nothing
		"wiki.corp.example": false, // a wildcard names no host
		"localhost":         false, // ask rules name nothing
		"10.0.0.1":          false,
		"::ffff:127.0.0.1":  false, // another spelling is another host
	} {
		if got := e.NamesHost(host); got != want {
			t.Errorf("NamesHost(%q) = %v, want %v", host, got, want)
		}
	}
	if e.NamesHost("internal.example") {
		t.Fatal("named before the grant")
	}
	if err := e.AddAllow(WebFetchRule("Internal.Example")); err != nil {
		t.Fatal(err)
	}
	if !e.NamesHost("internal.example") {
		t.Error("the rule \"always allow this domain\" saves does not name its host")
	}
}
