package web

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// How a URL's host is read before it is judged. A proxy, a browser or the C library does not read
// 127.1, 2130706433, 0x7f000001, 0177.0.0.1 or １２７．０．０．１ as names: the WHATWG URL standard's
// host parser and inet_aton take each for 127.0.0.1. A judge that reads only the dotted form would take
// them for names, which only the proxy can resolve, and let them through; so a host is put in the form
// every reader agrees on before anything is decided on it.

// canonicalHost is host (a URL's Hostname, without brackets) read as the WHATWG URL standard reads it:
// its ASCII form (IDNA, as net/http writes it on the wire) and, when that form ends in a number, the IPv4
// address it spells, in which case addr is valid. An IPv6 address comes back as it is. A host
// no such reader can make sense of (an IPv4 spelling out of range, a colon outside an IPv6 address, a
// name IDNA refuses) is an error.
func canonicalHost(host string) (canon string, addr netip.Addr, err error) {
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil {
			return "", netip.Addr{}, fmt.Errorf("the host %q holds a colon but is not an IPv6 address", host)
		}
		return host, a, nil
	}
	ascii := host
	if strings.ContainsFunc(host, func(r rune) bool { return r >= utf8.RuneSelf }) {
		if ascii, err = idna.Lookup.ToASCII(host); err != nil {
			return "", netip.Addr{}, fmt.Errorf("the host %q is not a valid international name: %v", host, err)
		}
	}
	ascii = strings.ToLower(ascii)
	a, isAddr, err := numericIPv4(ascii)
	switch {
	case err != nil:
		return "", netip.Addr{}, fmt.Errorf("the host %q ends in a number but is no IPv4 address: %v", host, err)
	case isAddr:
		return a.String(), a, nil
	}
	return ascii, netip.Addr{}, nil
}

// numericIPv4 is the WHATWG URL standard's IPv4 parser, which reads as inet_aton does: a host whose last
// label (after one trailing dot) is a number is an IPv4 address written in one to four parts, each
// decimal, octal (a leading 0) or hexadecimal (0x), the last part filling the bytes the others leave.
// isAddr is false for a name; err says why a host that ends in a number is no address.
func numericIPv4(host string) (addr netip.Addr, isAddr bool, err error) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if _, err := ipv4Number(last); err != nil && !isDigits(last) {
		return netip.Addr{}, false, nil
	}
	if len(parts) > 4 {
		return netip.Addr{}, false, fmt.Errorf("%d parts", len(parts))
	}
	var n [4]uint64
	for i, p := range parts {
		if n[i], err = ipv4Number(p); err != nil {
			return netip.Addr{}, false, err
		}
		if i < len(parts)-1 && n[i] > 255 {
			return netip.Addr{}, false, fmt.Errorf("the part %q is past 255", p)
		}
	}
	v := n[len(parts)-1]
	if v >= 1<<(8*(5-len(parts))) {
		return netip.Addr{}, false, fmt.Errorf("the last part %q is out of range", last)
	}
	for i := range len(parts) - 1 {
		v += n[i] << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// ipv4Number reads one part of a numeric IPv4 host: 0x… hexadecimal (0x alone is 0), 0… octal, else
// decimal.
func ipv4Number(s string) (uint64, error) {
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	case s == "":
		return 0, fmt.Errorf("an empty part")
	}
	// ParseUint would take an underscore; a part is digits only.
	for _, r := range strings.ToLower(s) {
		if d := strings.IndexRune("0123456789abcdef", r); d < 0 || d >= base {
			return 0, fmt.Errorf("%q is not a number in base %d", s, base)
		}
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return v, nil
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// dnsName says whether host (in ASCII) is a name DNS can hold: labels of letters, digits, hyphens and
// underscores, each 1 to 63 long and not starting or ending with a hyphen, 253 in all. A name that is
// not one has no answer of this machine's DNS to be judged by, and a proxy may read it as it likes.
func dnsName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > 253 {
		return false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// loopbackName says whether host is localhost or a name under it, which resolvers answer with a loopback
// address without asking DNS.
func loopbackName(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// canonicalURL puts u's host in its canonical form when it spells an IPv4 address (http://127.1/ becomes
// http://127.0.0.1/, as a browser writes it), so that the rules, the person's question and the proxy all
// see the address the URL leads to; it refuses a host no reader makes sense of.
func canonicalURL(u *url.URL) error {
	canon, a, err := canonicalHost(u.Hostname())
	if err != nil {
		return err
	}
	if a.Is4() {
		port := u.Port()
		u.Host = canon
		if port != "" {
			u.Host = net.JoinHostPort(canon, port)
		}
	}
	return nil
}
