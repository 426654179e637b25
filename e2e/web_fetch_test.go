package e2e

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// site is an HTTP server on loopback that records the requests that reached it.
type site struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newSite(t *testing.T, h http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(r.Context()))
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

func (s *site) port() string {
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	return port
}

// fetchCall runs one web_fetch of url headless and returns what the model got back, the call's decision,
// and the requests the model server received.
func fetchCall(t *testing.T, r *invocation, url string, flags ...string) (output, decision, reason string, reqs []fakeapi.Request) {
	t.Helper()
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("w1", "web_fetch", fmt.Sprintf(`{"url":%q,"prompt":"what changed?"}`, url)), fakeapi.Text("done"))
	out, stderr, code := r.exec(append([]string{"-p", "read the page", "--base-url", server.URL(), "--model", "m",
		"--output-format", "stream-json"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range events(t, out) {
		switch ev["type"] {
		case "permission":
			decision, reason = fmt.Sprint(ev["decision"]), fmt.Sprint(ev["reason"])
		case "tool_result":
			output = fmt.Sprint(ev["output"])
		}
	}
	return output, decision, reason, server.Requests()
}

const releaseNotes = `<!doctype html><html><head><title>Release notes</title>
<style>body { color: hotpink }</style><script>var secretToken = "SCRIPT-TEXT-1";</script></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<article><h1>Version 2 is out</h1>
<p>Version 2 brings <strong>faster builds</strong> and a shared cache. We spent a year on it, and this page says what
changed, why it changed, and what you need to do when you upgrade your projects to it.</p>
<p>The cache is now shared between projects, so a second build of the same dependency takes no time at all.</p>
<script>document.write("SCRIPT-TEXT-2")</script></article></body></html>`

// releaseSite serves the release notes at /notes after a login that sets a cookie and redirects.
func releaseSite(t *testing.T) *site {
	return newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret"})
			http.Redirect(w, r, "/notes", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, releaseNotes)
	})
}

func TestWebFetchGivesTheModelThePageAsMarkdownWithoutItsScriptsAndSendsNoCredential(t *testing.T) {
	s := releaseSite(t)
	r := newRun(t)
	url := "http://user:hunter2@" + s.Listener.Addr().String() + "/login"
	out, decision, reason, reqs := fetchCall(t, r, url, "--allow", "WebFetch(domain:127.0.0.1)")
	if decision != "allow" || !strings.Contains(reason, "WebFetch(domain:127.0.0.1)") {
		t.Fatalf("decision %s (%s)", decision, reason)
	}
	var toModel string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" {
			toModel = m.Content
		}
	}
	if toModel != out {
		t.Errorf("the model got %q, the event says %q", toModel, out)
	}
	for _, want := range []string{"## Version 2 is out", "**faster builds**", "Title: Release notes", "You asked: what changed?",
		"the user name and password in the URL were not sent"} {
		if !strings.Contains(toModel, want) {
			t.Errorf("the model's result lacks %q:\n%s", want, toModel)
		}
	}
	for _, leak := range []string{"SCRIPT-TEXT", "secretToken", "hotpink", "hunter2"} {
		if strings.Contains(toModel, leak) {
			t.Errorf("the model's result holds %q:\n%s", leak, toModel)
		}
	}
	got := s.requests()
	if len(got) != 2 {
		t.Fatalf("%d requests reached the site", len(got))
	}
	for _, req := range got {
		for _, h := range []string{"Cookie", "Authorization", "Referer"} {
			if v := req.Header.Get(h); v != "" {
				t.Errorf("%s carried %s: %q", req.URL.Path, h, v)
			}
		}
		if ua := req.Header.Get("User-Agent"); !strings.HasPrefix(ua, "Warden/") {
			t.Errorf("User-Agent %q does not name Warden", ua)
		}
	}
}

func TestWebFetchReachesALoopbackAddressOnlyUnderARuleNamingIt(t *testing.T) {
	s := releaseSite(t)
	r := newRun(t)
	url := s.URL + "/notes"
	// Allowed without asking, by yolo or by a rule for every host, but named by no rule: refused.
	for _, flags := range [][]string{{"--permission-mode", "yolo"}, {"--allow", "WebFetch"}} {
		out, decision, _, _ := fetchCall(t, r, url, flags...)
		if decision != "allow" || !strings.Contains(out, "127.0.0.1 is a loopback address") ||
			!strings.Contains(out, "WebFetch(domain:127.0.0.1)") {
			t.Errorf("%v: decision %s, output %s", flags, decision, out)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Fatalf("%d requests reached the site", n)
	}
	out, _, _, _ := fetchCall(t, r, url, "--allow", "WebFetch(domain:127.0.0.1)")
	if !strings.Contains(out, "Version 2 is out") {
		t.Errorf("under a rule naming it: %s", out)
	}
}

func TestHeadlessWebFetchWithoutARuleIsDenied(t *testing.T) {
	s := releaseSite(t)
	r := newRun(t)
	out, decision, reason, _ := fetchCall(t, r, s.URL+"/notes")
	if decision != "deny" || !strings.Contains(reason, "127.0.0.1") {
		t.Errorf("decision %s (%s)", decision, reason)
	}
	if !strings.Contains(out, "--allow 'WebFetch(domain:127.0.0.1)'") {
		t.Errorf("the model is not told which rule would allow it: %s", out)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests reached the site", n)
	}
}

// A public-looking name is served through a proxy on loopback (the environment's HTTP_PROXY; the proxy
// is the person's and is not judged): docs.example.test redirects to addresses on this machine, one
// given as an address and one as a name that resolves to 127.0.0.1.
func TestARedirectFromAnAllowedNameToAPrivateAddressIsRefused(t *testing.T) {
	inner := newSite(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "INTERNAL ADMIN PAGE") })
	var proxied []string
	var mu sync.Mutex
	proxy := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		proxied = append(proxied, r.URL.String())
		mu.Unlock()
		switch r.URL.Path {
		case "/to-address":
			http.Redirect(w, r, inner.URL+"/admin", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, "http://localhost:"+inner.port()+"/admin", http.StatusFound)
		default:
			fmt.Fprint(w, "docs home")
		}
	})
	r := newRun(t)
	r.env = append(r.env, "HTTP_PROXY="+proxy.URL)
	allowDocs := []string{"--allow", "WebFetch(domain:docs.example.test)"}

	out, decision, _, _ := fetchCall(t, r, "http://docs.example.test/", allowDocs...)
	if decision != "allow" || !strings.Contains(out, "docs home") {
		t.Fatalf("through the proxy: %s %s", decision, out)
	}
	// The rules allow no fetch from 127.0.0.1: the redirect is not followed, and the model is given the URL.
	out, _, _, _ = fetchCall(t, r, "http://docs.example.test/to-address", allowDocs...)
	if !strings.Contains(out, "redirects to "+inner.URL+"/admin, on another host, which was not followed") {
		t.Errorf("to an address no rule allows: %s", out)
	}
	// yolo allows every host, but names none: the connection to 127.0.0.1 is refused, given as an
	// address or as a name that resolves to it.
	yolo := append([]string{"--permission-mode", "yolo"}, allowDocs...)
	out, _, _, _ = fetchCall(t, r, "http://docs.example.test/to-address", yolo...)
	if !strings.Contains(out, "127.0.0.1 is a loopback address") {
		t.Errorf("to an address, in yolo: %s", out)
	}
	out, _, _, _ = fetchCall(t, r, "http://docs.example.test/to-name", yolo...)
	if !strings.Contains(out, "localhost, which resolves to 127.0.0.1, is a loopback address") {
		t.Errorf("to a name, in yolo: %s", out)
	}
	if n := len(inner.requests()); n != 0 {
		t.Errorf("%d requests reached the private site", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(proxied) != 4 || proxied[0] != "http://docs.example.test/" {
		t.Errorf("the proxy saw %q", proxied)
	}
}
