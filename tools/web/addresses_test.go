package web

import (
	"net/netip"
	"strings"
	"testing"
)

func TestRestrictedKnowsEveryFormOfAnAddressThatIsNotPublic(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":              "a loopback address",
		"127.8.9.10":             "a loopback address",
		"::1":                    "a loopback address",
		"0.0.0.0":                "an unspecified address",
		"0.1.2.3":                "an unspecified address",
		"::":                     "an unspecified address",
		"10.1.2.3":               "a private address",
		"172.16.0.1":             "a private address",
		"172.31.255.255":         "a private address",
		"192.168.1.1":            "a private address",
		"fc00::1":                "a private address",
		"fd12:3456::1":           "a private address",
		"169.254.169.254":        "a link-local address",
		"fe80::1":                "a link-local address",
		"fe80::1%eth0":           "a link-local address",
		"100.64.0.1":             "a shared (carrier-grade NAT) address",
		"224.0.0.1":              "a multicast address",
		"ff02::1":                "a multicast address",
		"fec0::1":                "a site-local address",
		"240.0.0.1":              "a reserved address",
		"255.255.255.255":        "a reserved address",
		"198.18.0.1":             "a reserved address",
		"192.0.0.8":              "a reserved address",
		"192.0.2.1":              "a reserved address",
		"2001:db8::1":            "a reserved address",
		"::ffff:127.0.0.1":       "a loopback address (IPv4-mapped)",
		"::ffff:169.254.169.254": "a link-local address (IPv4-mapped)",
		"::ffff:10.0.0.1":        "a private address (IPv4-mapped)",
		"64:ff9b::7f00:1":        "a loopback address (NAT64)",
		"64:ff9b::a9fe:a9fe":     "a link-local address (NAT64)",
		"64:ff9b:1::1":           "a local NAT64 address",
		"2002:7f00:1::1":         "a loopback address (6to4)",
		"2002:c0a8:101::":        "a private address (6to4)",
		"::127.0.0.1":            "a loopback address (IPv4-compatible)",
		"::10.0.0.1":             "a private address (IPv4-compatible)",
		"::ffff:0.0.0.0":         "an unspecified address, which reaches this machine (IPv4-mapped)",
		// Public addresses, in the same forms.
		"8.8.8.8":            "",
		"1.1.1.1":            "",
		"172.32.0.1":         "",
		"100.128.0.1":        "",
		"2606:4700::1111":    "",
		"::ffff:8.8.8.8":     "",
		"64:ff9b::808:808":   "",
		"2002:808:808::1":    "",
		"2001:4860:4860::88": "",
	} {
		got := Restricted(netip.MustParseAddr(addr))
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("Restricted(%s) = %q, want %q", addr, got, want)
		}
	}
}

func TestRestrictedHostJudgesAddressesAndLocalhostByTheirSpelling(t *testing.T) {
	for host, restricted := range map[string]bool{
		"127.0.0.1": true, "::1": true, "localhost": true, "LocalHost.": true, "app.localhost": true,
		"10.0.0.1": true, "example.com": false, "localhost.example.com": false, "8.8.8.8": false,
	} {
		if got := RestrictedHost(host) != ""; got != restricted {
			t.Errorf("RestrictedHost(%q) = %q", host, RestrictedHost(host))
		}
	}
}

func TestHostsAreKeptInTheFormTheyAreDialledBy(t *testing.T) {
	for host, want := range map[string]string{"Docs.Example.COM.": "docs.example.com", "bücher.example": "xn--bcher-kva.example", "::1": "::1"} {
		if got := hostKey(host); got != want {
			t.Errorf("hostKey(%q) = %q, want %q", host, got, want)
		}
	}
}
