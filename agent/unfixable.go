package agent

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// unfixable recognises a failure to reach the server that trying again cannot fix: a base URL that is not
// one (no scheme), a host name that does not resolve, a certificate that is not trusted. It says what to
// do, or returns "" for failures worth another try (a refused connection: the server may be starting).
func unfixable(err error) string {
	msg := err.Error()
	var dns *net.DNSError
	var uerr *url.Error
	switch {
	case strings.Contains(msg, "unsupported protocol scheme"), strings.Contains(msg, "missing protocol scheme"),
		strings.Contains(msg, "first path segment in URL cannot contain colon"):
		return "the base URL has no scheme: add http:// or https:// to it (for example http://localhost:11434/v1)"
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Sprintf("the server's host name %q does not resolve; check --base-url or OPENAI_BASE_URL", dns.Name)
	case strings.Contains(msg, "x509:"), strings.Contains(msg, "tls: "):
		return fmt.Sprintf("the server's TLS certificate is not accepted (%v); check --base-url, or the certificate", rootCause(err))
	case errors.As(err, &uerr) && strings.Contains(uerr.Err.Error(), "invalid"):
		return fmt.Sprintf("the base URL is not valid (%v); check --base-url or OPENAI_BASE_URL", uerr.Err)
	}
	return ""
}
