package web

import (
	"net/netip"
	"strings"
)

// Which addresses a fetch may not reach unless a rule names the host: every address that is not a
// public unicast one, in each of the forms that lead to it (an IPv4 address inside an IPv6 one, mapped,
// compatible, NAT64 or 6to4).

var (
	thisNetwork   = netip.MustParsePrefix("0.0.0.0/8")
	sharedNAT     = netip.MustParsePrefix("100.64.0.0/10")
	ietfProtocol  = netip.MustParsePrefix("192.0.0.0/24")
	benchmarking  = netip.MustParsePrefix("198.18.0.0/15")
	reservedV4    = netip.MustParsePrefix("240.0.0.0/4")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local    = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	v4Compatible  = netip.MustParsePrefix("::/96")
	discardOnly   = netip.MustParsePrefix("100::/64")
	siteLocalV6   = netip.MustParsePrefix("fec0::/10")
	documentation = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("198.51.100.0/24"),
		netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("2001:db8::/32")}
)

// Restricted says what kind of address a is when a fetch may reach it only for a host a rule names ("a
// loopback address", "a private address (IPv4-mapped)"), or "" for a public address.
func Restricted(a netip.Addr) string {
	a = a.WithZone("")
	if a.Is4In6() {
		return within(Restricted(a.Unmap()), "IPv4-mapped")
	}
	if a.Is6() {
		b := a.As16()
		v4 := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[i+1], b[i+2], b[i+3]}) }
		switch {
		case nat64.Contains(a):
			return within(Restricted(v4(12)), "NAT64")
		case nat64Local.Contains(a):
			return "a local NAT64 address"
		case sixToFour.Contains(a):
			return within(Restricted(v4(2)), "6to4")
		case v4Compatible.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
			return within(Restricted(v4(12)), "IPv4-compatible")
		}
	}
	switch {
	case !a.IsValid():
		return "an invalid address"
	case a.IsUnspecified() || thisNetwork.Contains(a):
		return "an unspecified address, which reaches this machine"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case sharedNAT.Contains(a):
		return "a shared (carrier-grade NAT) address"
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case siteLocalV6.Contains(a):
		return "a site-local address"
	case ietfProtocol.Contains(a), benchmarking.Contains(a), reservedV4.Contains(a), discardOnly.Contains(a),
		a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "a reserved address"
	}
	for _, p := range documentation {
		if p.Contains(a) {
			return "a reserved address"
		}
	}
	return ""
}

// within names the form an embedded IPv4 address came in, when it is restricted.
func within(why, form string) string {
	if why == "" {
		return ""
	}
	return why + " (" + form + ")"
}

// RestrictedHost says what kind of address host is when it is an address a fetch may reach only under a
// rule naming it, or the name localhost; "" for any other name, which only its resolution can tell.
func RestrictedHost(host string) string {
	if a, err := netip.ParseAddr(host); err == nil {
		return Restricted(a)
	}
	if h := strings.TrimSuffix(strings.ToLower(host), "."); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "a loopback name"
	}
	return ""
}
