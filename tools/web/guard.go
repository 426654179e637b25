package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/http/httpproxy"
	"golang.org/x/net/idna"
)

// The guard decides where one fetch may connect (see the package doc): a restricted address (Restricted)
// only for a host a rule names, judged on the address the socket is about to connect to, after whatever
// DNS said; the proxy the environment names as it is, with the page's host judged before the request
// goes to it.

// guard is what one fetch knows of the hosts it meets and the proxies it goes through.
type guard struct {
	mu sync.Mutex
	// named says, for each host the fetch may go to (lower case), whether a rule names it.
	named map[string]bool
	// via is the "host:port" of the proxy the request being sent goes through, "" when it goes straight
	// to its host. A fetch sends one request at a time and keeps no connection (DisableKeepAlives), so
	// the transport's dial that follows its call of proxy is for that request: a page that redirects to
	// the proxy's own address, asked directly, is checked like any other.
	via string
	// proxyFor is the environment's proxy for a URL, nil for none.
	proxyFor func(*url.URL) (*url.URL, error)
	// lookup resolves a name the way this machine does (net.DefaultResolver).
	lookup func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

func newGuard() *guard {
	return &guard{named: map[string]bool{},
		proxyFor: httpproxy.FromEnvironment().ProxyFunc(), lookup: net.DefaultResolver.LookupNetIP}
}

// allow lets the fetch go to host, reaching restricted addresses there when named.
func (g *guard) allow(host string, named bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.named[hostKey(host)] = named
}

// allowed reports whether host was allowed, and whether it is named.
func (g *guard) allowed(host string) (ok, named bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	named, ok = g.named[hostKey(host)]
	return ok, named
}

// hostKey is a host as the guard keeps it: lower case, without a trailing dot, and a name in its ASCII
// form, which is the form net/http dials it by.
func hostKey(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if strings.ContainsFunc(host, func(r rune) bool { return r >= utf8.RuneSelf }) {
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			return ascii
		}
	}
	return host
}

// RestrictedError is a connection refused because it would reach a restricted address for a host no
// rule names.
type RestrictedError struct {
	Host string
	Addr netip.Addr
	// Why is the kind of address (Restricted).
	Why string
	// Proxied says the address came from this machine's DNS while the request was to go through a proxy.
	Proxied bool
}

func (e *RestrictedError) Error() string {
	where := e.Host
	if e.Addr.IsValid() && e.Addr.String() != e.Host {
		where = fmt.Sprintf("%s, which resolves to %s,", e.Host, e.Addr)
		if e.Proxied {
			where = fmt.Sprintf("%s, which resolves here to %s,", e.Host, e.Addr)
		}
	}
	return fmt.Sprintf("%s is %s", where, e.Why)
}

// dial connects to addr for the transport. A proxy's address is dialled as it is: the person chose the
// proxy, and a company's proxy is usually at a private address. Any other host is dialled with a check of
// every address the dialer tries, on the socket itself, so that neither a DNS answer nor a change of it
// between two lookups can lead a host no rule names to a restricted address.
func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	viaProxy := g.via != "" && g.via == addr
	g.mu.Unlock()
	_, named := g.allowed(host)
	d := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	if !viaProxy && !named {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("cannot read the address %q the connection goes to", address)
			}
			if why := Restricted(ap.Addr()); why != "" {
				return &RestrictedError{Host: host, Addr: ap.Addr().Unmap().WithZone(""), Why: why}
			}
			return nil
		}
	}
	return d.DialContext(ctx, network, addr)
}

// proxy is the transport's Proxy: the environment's proxy for the request (HTTPS_PROXY, HTTP_PROXY and
// NO_PROXY, in either case; never for localhost or a loopback address, which are dialled and checked),
// remembered so that the dial to it, which follows, goes unchecked. The proxy resolves the page's host itself, so the host is
// judged here first: an address, or the name localhost, as it is; another name by what this machine's
// DNS says of it, when it says anything (a name only the proxy can resolve goes on to it).
func (g *guard) proxy(req *http.Request) (*url.URL, error) {
	u, err := g.proxyFor(req.URL)
	g.mu.Lock()
	g.via = ""
	if err == nil && u != nil {
		g.via = proxyAddr(u)
	}
	g.mu.Unlock()
	if err != nil || u == nil {
		return nil, err
	}
	host := req.URL.Hostname()
	if _, named := g.allowed(host); named {
		return u, nil
	}
	if why := RestrictedHost(host); why != "" {
		a, _ := netip.ParseAddr(host)
		return nil, &RestrictedError{Host: host, Addr: a, Why: why}
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return u, nil
	}
	ctx, cancel := context.WithTimeout(req.Context(), lookupTimeout)
	defer cancel()
	addrs, err := g.lookup(ctx, "ip", host)
	if err != nil {
		return u, nil
	}
	for _, a := range addrs {
		if why := Restricted(a); why != "" {
			return nil, &RestrictedError{Host: host, Addr: a.Unmap().WithZone(""), Why: why, Proxied: true}
		}
	}
	return u, nil
}

// proxyAddr is the "host:port" the transport dials for proxy u, spelt as net/http spells it.
func proxyAddr(u *url.URL) string {
	host := u.Hostname()
	if strings.ContainsFunc(host, func(r rune) bool { return r >= utf8.RuneSelf }) {
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			host = ascii
		}
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
	}
	return net.JoinHostPort(host, port)
}

// restricted returns the RestrictedError inside err, if any.
func restricted(err error) (*RestrictedError, bool) {
	var re *RestrictedError
	ok := errors.As(err, &re)
	return re, ok
}
