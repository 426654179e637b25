package web

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestAHostIsReadAsAURLParserAndInetAtonReadIt(t *testing.T) {
	for host, want := range map[string]string{
		"127.1": "127.0.0.1", "2130706433": "127.0.0.1", "0": "0.0.0.0", "0x7f000001": "127.0.0.1",
		"0177.1": "127.0.0.1", "127.000.000.001": "127.0.0.1", "0x7F.0.0.1": "127.0.0.1", "127.0.0.1.": "127.0.0.1",
		"10.1": "10.0.0.1", "192.168.257": "192.168.1.1", "0xa9.0xfe.0xa9.0xfe": "169.254.169.254", "0x": "0.0.0.0",
		"１２７．０．０．１": "127.0.0.1", "127。0。0。1": "127.0.0.1", "::1": "::1", "::ffff:127.0.0.1": "::ffff:127.0.0.1",
		"example.com": "example.com", "Docs.Example.COM": "docs.example.com", "ⓛocalhost": "localhost",
		"0x7f.example": "0x7f.example", "1.2.3.example": "1.2.3.example",
	} {
		got, _, err := canonicalHost(host)
		if err != nil || got != want {
			t.Errorf("canonicalHost(%q) = %q, %v; want %q", host, got, err, want)
		}
	}
	for _, host := range []string{"1.2.3.4.5", "256.1.1.1", "127.0.0.08", "4294967296", "1.2.0x1000000", "::127.1", "a:b"} {
		if got, _, err := canonicalHost(host); err == nil {
			t.Errorf("canonicalHost(%q) = %q, want an error", host, got)
		}
	}
	for host, ok := range map[string]bool{"example.com": true, "_dmarc.example.com.": true, "xn--bcher-kva.example": true,
		"a..b": false, "-a.example": false, "a b": false, "a!b": false, "a%00": false, strings.Repeat("a", 64) + ".x": false, "": false} {
		if dnsName(host) != ok {
			t.Errorf("dnsName(%q) = %v", host, !ok)
		}
	}
}

// forwardProxy is a tiny HTTP forward proxy that resolves a page's host as a proxy on this machine would
// (getaddrinfo, whose inet_aton takes every numeric spelling of an address; names from its table), and
// records the hosts it was asked for.
type forwardProxy struct {
	names map[string]string
	mu    sync.Mutex
	asked []string
}

func (p *forwardProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.asked = append(p.asked, r.URL.Host)
	p.mu.Unlock()
	host := r.URL.Hostname()
	addr, ok := p.names[host]
	if !ok {
		a, err := inetAton(host)
		if err != nil {
			http.Error(w, "the proxy cannot resolve "+host, http.StatusBadGateway)
			return
		}
		addr = a.String()
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.URL.Host = net.JoinHostPort(addr, r.URL.Port())
	resp, err := (&http.Transport{Proxy: nil}).RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// inetAton reads an IPv4 address as the C library's inet_aton does, with strconv's base prefixes.
func inetAton(s string) (netip.Addr, error) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, fmt.Errorf("too many parts")
	}
	var v uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, err
		}
		if i < len(parts)-1 {
			v |= n << (8 * (3 - i))
		} else {
			v |= n
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

func TestAProxyIsNoWayToALoopbackAddressSpeltAnotherWay(t *testing.T) {
	page := newServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "the loopback listener's secret") })
	fp := &forwardProxy{names: map[string]string{"docs.example.test": "127.0.0.1"}}
	proxy := newServer(t, fp.ServeHTTP)
	for _, k := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	port := page.port()

	// The proxy is a real one: a name a rule names goes through it to the listener.
	res := run(t, rules{named: []string{"docs.example.test"}}, map[string]string{"url": "http://docs.example.test:" + port + "/"})
	if res.IsError || !strings.Contains(res.Output, "the loopback listener's secret") {
		t.Fatalf("through the proxy: %s", res.Output)
	}
	<-page.hit
	fp.mu.Lock()
	fp.asked = nil
	fp.mu.Unlock()

	for _, host := range []string{"127.1", "2130706433", "0", "0x7f000001", "0177.1", "127.000.000.001", "0x7f.0.0.1",
		"127.0.0.1.", "１２７．０．０．１", "127。0。0。1", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
		"[0:0:0:0:0:0:0:1]", "localhost", "LOCALHOST.", "ⓛocalhost", "127.0.0.1!", "1.2.3.4.5", "0x7f.1.1.1.1"} {
		u := "http://" + host + ":" + port + "/secret"
		res := run(t, rules{allowed: []string{hostKey(host)}}, map[string]string{"url": u})
		if !res.IsError || strings.Contains(res.Output, "secret\n") || strings.Contains(res.Output, "listener's secret") {
			t.Errorf("%s was fetched: %s", u, res.Output)
		}
	}
	// Nor is a redirect to one, followed through the proxy from a page a rule names.
	hop := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://0x7f000001:"+port+"/secret", http.StatusFound)
	})
	fp.mu.Lock()
	fp.names["hop.example.test"] = "127.0.0.1"
	fp.mu.Unlock()
	res = run(t, rules{named: []string{"hop.example.test"}, allowed: []string{"0x7f000001", "127.0.0.1"}},
		map[string]string{"url": "http://hop.example.test:" + hop.port() + "/"})
	if !res.IsError || !strings.Contains(res.Output, "127.0.0.1 is a loopback address") {
		t.Errorf("the redirect: %s", res.Output)
	}
	select {
	case <-page.hit:
		t.Errorf("the loopback listener was reached: %v", page.requests()[len(page.requests())-1].URL)
	default:
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if len(fp.asked) != 1 || !strings.HasPrefix(fp.asked[0], "hop.example.test:") {
		t.Errorf("the proxy was asked for %q", fp.asked)
	}
}
