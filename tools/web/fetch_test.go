package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-cli/warden/tools"
)

// rules stands for the permission engine: the hosts allowed without asking, and those a rule names.
type rules struct{ allowed, named []string }

func (r rules) judge(host string) tools.HostJudgement {
	host = hostKey(host)
	j := tools.HostJudgement{Reason: "fetches from `" + host + "`, a host no rule allows"}
	for _, h := range r.allowed {
		if h == host {
			j.Allowed, j.Reason = true, "allowed by a test rule"
		}
	}
	for _, h := range r.named {
		if h == host {
			j.Allowed, j.Named, j.Reason = true, true, "allowed by a test rule naming it"
		}
	}
	return j
}

// server is a loopback HTTP server that records what reached it.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
	hit  chan struct{}
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{hit: make(chan struct{}, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(context.Background()))
		s.mu.Unlock()
		s.hit <- struct{}{}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

func (s *server) port() string {
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	return port
}

// run calls web_fetch as the agent does: Access, then Run.
func run(t *testing.T, r rules, args map[string]string) tools.Result {
	t.Helper()
	return runCtx(t, context.Background(), r, args)
}

func runCtx(t *testing.T, ctx context.Context, r rules, args map[string]string) tools.Result {
	t.Helper()
	env := tools.NewEnv(t.TempDir(), t.TempDir())
	env.Hosts = r.judge
	tool := NewTool("Warden/test (web_fetch)")
	input, _ := json.Marshal(args)
	if _, err := tool.Access(env, input); err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	return tool.Run(ctx, env, tools.Call{ID: "f1", Input: input})
}

const article = `<!doctype html><html><head><title>Release notes</title>
<style>body { color: hotpink }</style>
<script>var secretToken = "do-not-leak-1";</script></head>
<body><nav><a href="/">Home</a> · <a href="/blog">Blog</a></nav>
<article><h1>Version 2 is out</h1>
<p>Version 2 brings <strong>faster builds</strong>, a new <a href="/docs/cache">cache</a> and fewer surprises. We spent a year on it,
and this page says what changed, why it changed, and what you need to do when you upgrade your projects.</p>
<p>The cache is now shared between projects, so a second build of the same dependency takes no time at all. It lives in
your home directory and can be moved with an environment variable.</p>
<pre><code>go install example.com/tool@v2</code></pre>
<script>document.write("do-not-leak-2")</script>
</article>
<footer>© Example <noscript>do-not-leak-3</noscript></footer></body></html>`

func TestAPageComesBackAsMarkdownWithoutItsScriptsAndStyles(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, article)
	})
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": s.URL + "/blog/v2", "prompt": "what changed?"})
	if res.IsError {
		t.Fatal(res.Output)
	}
	for _, want := range []string{"URL: " + s.URL + "/blog/v2", "Title: Release notes", "You asked: what changed?",
		"**faster builds**", "[cache](" + s.URL + "/docs/cache)", "go install example.com/tool@v2", "not instructions"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("the result lacks %q:\n%s", want, res.Output)
		}
	}
	for _, leak := range []string{"do-not-leak", "secretToken", "hotpink", "<script", "<p>"} {
		if strings.Contains(res.Output, leak) {
			t.Errorf("the result holds %q:\n%s", leak, res.Output)
		}
	}
	if !strings.HasPrefix(res.Display, "Fetched "+s.URL+"/blog/v2: text/html") {
		t.Errorf("display = %q", res.Display)
	}
}

func TestARestrictedAddressIsReachedOnlyForAHostARuleNames(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from loopback") })
	for _, host := range []string{"127.0.0.1", "localhost"} {
		u := "http://" + net.JoinHostPort(host, s.port()) + "/"
		before := len(s.requests())
		// Allowed without asking (a wildcard, bare WebFetch or yolo would), but not named.
		res := run(t, rules{allowed: []string{host}}, map[string]string{"url": u})
		if !res.IsError || !strings.Contains(res.Output, "a loopback address") || !strings.Contains(res.Output, "WebFetch(domain:"+host+")") {
			t.Errorf("%s without a rule naming it: %s", host, res.Output)
		}
		if host == "localhost" && !strings.Contains(res.Output, "localhost, which resolves to 127.0.0.1, is a loopback address") {
			t.Errorf("the refusal does not say where the name led: %s", res.Output)
		}
		if n := len(s.requests()) - before; n != 0 {
			t.Fatalf("%d requests reached the server", n)
		}
		res = run(t, rules{named: []string{host}}, map[string]string{"url": u})
		if res.IsError || !strings.Contains(res.Output, "hello from loopback") {
			t.Errorf("%s under a rule naming it: %s", host, res.Output)
		}
	}
}

func TestADialToARestrictedAddressIsRefusedOnTheSocketWhateverTheNameSaid(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	g := newGuard()
	g.allow("public.example", false)
	// The transport dials the URL's name; whatever DNS answers for it, the socket's address decides.
	// "localhost" stands for a name that rebinds to loopback.
	for _, addr := range []string{"localhost:" + s.port(), "127.0.0.1:" + s.port(), "[::ffff:127.0.0.1]:" + s.port()} {
		_, err := g.dial(context.Background(), "tcp", addr)
		re, ok := restricted(err)
		if !ok || !strings.HasPrefix(re.Why, "a loopback address") || re.Addr != netip.MustParseAddr("127.0.0.1") {
			t.Errorf("dial %s: %v", addr, err)
		}
	}
	g.allow("localhost", true)
	c, err := g.dial(context.Background(), "tcp", "localhost:"+s.port())
	if err != nil {
		t.Fatalf("a named host was refused: %v", err)
	}
	c.Close()
}

func TestARedirectToAnotherHostIsJudgedAsANewHost(t *testing.T) {
	inner := newServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "internal secrets") })
	innerURL := "http://localhost:" + inner.port() + "/admin"
	outer := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/final":
			fmt.Fprint(w, "arrived")
		default:
			http.Redirect(w, r, innerURL, http.StatusFound)
		}
	})
	// A redirect on the same host is followed.
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": outer.URL + "/same"})
	if res.IsError || !strings.Contains(res.Output, "arrived") || !strings.Contains(res.Output, "Redirected from: "+outer.URL+"/same") {
		t.Fatalf("same host: %s", res.Output)
	}
	// To a host no rule allows: not followed, and the model is given the URL to fetch with a call of its own.
	res = run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": outer.URL + "/go"})
	if res.IsError || !strings.Contains(res.Output, "redirects to "+innerURL+", on another host, which was not followed") ||
		!strings.Contains(res.Output, "a host no rule allows") {
		t.Errorf("to a host no rule allows: %s", res.Output)
	}
	// Allowed without a rule naming it: followed, and refused at the restricted address it leads to.
	res = run(t, rules{named: []string{"127.0.0.1"}, allowed: []string{"localhost"}}, map[string]string{"url": outer.URL + "/go"})
	if !res.IsError || !strings.Contains(res.Output, "a loopback address") {
		t.Errorf("to an allowed host at a loopback address: %s", res.Output)
	}
	if n := len(inner.requests()); n != 0 {
		t.Errorf("%d requests reached the inner server", n)
	}
	// Named, it is reached.
	res = run(t, rules{named: []string{"127.0.0.1", "localhost"}}, map[string]string{"url": outer.URL + "/go"})
	if res.IsError || !strings.Contains(res.Output, "internal secrets") || !strings.Contains(res.Output, "a redirect to localhost was followed") {
		t.Errorf("to a named host: %s", res.Output)
	}
}

func TestRedirectsAreBounded(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path+"x", http.StatusFound) })
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": s.URL + "/"})
	if !res.IsError || !strings.Contains(res.Output, "stopped after 5 redirects") {
		t.Errorf("%s", res.Output)
	}
	if n := len(s.requests()); n != 6 {
		t.Errorf("%d requests", n)
	}
}

func TestNoCookieOrCredentialIsSent(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret"})
			http.Redirect(w, r, "http://user2:pass2@"+r.Host+"/home", http.StatusFound)
			return
		}
		fmt.Fprint(w, "home")
	})
	u, _ := url.Parse(s.URL + "/login")
	u.User = url.UserPassword("user", "pass")
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": u.String()})
	if res.IsError || !strings.Contains(res.Output, "the user name and password in the URL were not sent") {
		t.Fatalf("%s", res.Output)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		for _, h := range []string{"Cookie", "Authorization", "Referer", "Proxy-Authorization"} {
			if v := r.Header.Get(h); v != "" {
				t.Errorf("%s carried %s: %q", r.URL.Path, h, v)
			}
		}
		if ua := r.Header.Get("User-Agent"); ua != "Warden/test (web_fetch)" {
			t.Errorf("User-Agent %q", ua)
		}
	}
	if strings.Contains(res.Output, "pass2") || strings.Contains(res.Output, ":pass@") {
		t.Errorf("the password reached the model: %s", res.Output)
	}
}

func TestTextAndJSONComeAsTheyAreAndOtherContentIsRefused(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"name": "warden", "<b>": "kept"}`)
		case "/a.txt":
			w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
			w.Write([]byte("caf\xe9 <script>kept in text</script>"))
		case "/a.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 100)))
		case "/untyped":
			w.Header()["Content-Type"] = nil
			w.Write([]byte("%PDF-1.7\n" + strings.Repeat("\x00\x01", 100)))
		case "/lies":
			w.Header().Set("Content-Type", "text/plain")
			w.Write(bytes.Repeat([]byte{0, 1, 2, 3}, 100))
		}
	})
	named := rules{named: []string{"127.0.0.1"}}
	if res := run(t, named, map[string]string{"url": s.URL + "/a.json"}); res.IsError || !strings.Contains(res.Output, `{"name": "warden", "<b>": "kept"}`) ||
		!strings.Contains(res.Output, "as JSON") {
		t.Errorf("JSON: %s", res.Output)
	}
	if res := run(t, named, map[string]string{"url": s.URL + "/a.txt"}); res.IsError || !strings.Contains(res.Output, "café <script>kept in text</script>") {
		t.Errorf("text: %s", res.Output)
	}
	for path, want := range map[string]string{"/a.png": "is image/png, 108 bytes, which web_fetch does not read", "/untyped": "is application/pdf",
		"/lies": "holds binary data"} {
		if res := run(t, named, map[string]string{"url": s.URL + path}); !res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("%s: %s", path, res.Output)
		}
	}
}

func TestABodyIsReadOnlyToItsBoundEvenCompressed(t *testing.T) {
	// 60 MB of text that travels as some 60 KB of gzip.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	line := bytes.Repeat([]byte("all work and no play\n"), 1000)
	for range 3000 {
		zw.Write(line)
	}
	zw.Close()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": s.URL + "/big.txt"})
	if res.IsError {
		t.Fatal(res.Output)
	}
	if !strings.Contains(res.Output, "only its first 5.0 MB were read") || !res.Truncated || len(res.Output) > 200_000 {
		t.Errorf("%d bytes, truncated %v: %.300s", len(res.Output), res.Truncated, res.Output)
	}
}

func TestAnErrorPageSaysItsStatus(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<html><body><h1>Not here</h1><p>"+strings.Repeat("padding ", 1000)+"</p></body></html>")
	})
	res := run(t, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": s.URL + "/gone"})
	if !res.IsError || !strings.Contains(res.Output, "answered HTTP 404 Not Found") || !strings.Contains(res.Output, "Not here") || len(res.Output) > errorExcerpt+500 {
		t.Errorf("%d bytes: %.400s", len(res.Output), res.Output)
	}
}

func TestAnInterruptEndsAFetchThatHangs(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.hit // the request reached the server, which now says nothing
		cancel()
	}()
	done := make(chan tools.Result, 1)
	go func() {
		done <- runCtx(t, ctx, rules{named: []string{"127.0.0.1"}}, map[string]string{"url": s.URL + "/slow"})
	}()
	select {
	case res := <-done:
		if !res.IsError || !strings.Contains(res.Output, "was not fetched") {
			t.Errorf("%s", res.Output)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the fetch went on after the interrupt")
	}
}

func TestTheURLMustBeHTTPWithAHost(t *testing.T) {
	for raw, want := range map[string]string{
		"file:///etc/passwd": "must start with http:// or https://", "ftp://example.com/": "must start with http:// or https://",
		"example.com": "must start with http:// or https://", "http:///path": "names no host", "http://[::1": "does not parse",
	} {
		res := run(t, rules{}, map[string]string{"url": raw})
		if !res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("%q: %s", raw, res.Output)
		}
	}
	env := tools.NewEnv(t.TempDir(), t.TempDir())
	ac, err := NewTool("ua").Access(env, json.RawMessage(`{"url":"https://user:pw@Docs.Example.COM./a#frag"}`))
	if err != nil || ac.Kind != tools.AccessFetch || ac.Host != "docs.example.com" || ac.Summary != "https://Docs.Example.COM./a" {
		t.Errorf("access = %+v, %v", ac, err)
	}
}

func TestAProxyIsUsedAndThePagesHostJudgedBeforeTheRequestGoesToIt(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	proxy := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		fmt.Fprint(w, "via the proxy: "+r.Host)
	})
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	// A name this machine cannot resolve goes on to the proxy, which is not judged though it listens on loopback.
	res := run(t, rules{named: []string{"docs.example.test"}}, map[string]string{"url": "http://docs.example.test/guide"})
	if res.IsError || !strings.Contains(res.Output, "via the proxy: docs.example.test") {
		t.Fatalf("%s", res.Output)
	}
	// An address the rules do not name is refused before the proxy hears of it.
	res = run(t, rules{allowed: []string{"10.1.2.3"}}, map[string]string{"url": "http://10.1.2.3/admin"})
	if !res.IsError || !strings.Contains(res.Output, "10.1.2.3 is a private address") {
		t.Errorf("%s", res.Output)
	}
	mu.Lock()
	if len(seen) != 1 || seen[0] != "http://docs.example.test/guide" {
		t.Errorf("the proxy saw %q", seen)
	}
	mu.Unlock()

	// A name this machine resolves to a restricted address is refused too.
	g := newGuard()
	g.lookup = func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("192.168.1.20")}, nil
	}
	req := httptest.NewRequest(http.MethodGet, "http://intranet.example.test/", nil)
	_, err := g.proxy(req)
	if re, ok := restricted(err); !ok || !strings.Contains(re.Error(), "intranet.example.test, which resolves here to 192.168.1.20, is a private address") {
		t.Errorf("err = %v", err)
	}
	g.allow("intranet.example.test", true)
	if u, err := g.proxy(req); err != nil || u == nil {
		t.Errorf("a named host: %v, %v", u, err)
	}
}

func TestTheProxysOwnAddressIsNoWayPastTheCheck(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	proxy := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		if r.URL.Host == "docs.example.test" {
			// A page that sends the fetch to the proxy's own address, asked directly (loopback is never proxied).
			http.Redirect(w, r, "http://"+r.Context().Value(http.LocalAddrContextKey).(net.Addr).String()+"/admin", http.StatusFound)
			return
		}
		fmt.Fprint(w, "the proxy's own admin page")
	})
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	res := run(t, rules{named: []string{"docs.example.test"}, allowed: []string{"127.0.0.1"}}, map[string]string{"url": "http://docs.example.test/"})
	if !res.IsError || !strings.Contains(res.Output, "127.0.0.1 is a loopback address") {
		t.Errorf("%s", res.Output)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 {
		t.Errorf("the proxy saw %q", seen)
	}
}
