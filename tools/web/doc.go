// Package web holds the web_fetch tool (DESIGN.md §4): it fetches one URL and gives the model the page's
// readable part as Markdown (go-readability finds the article, html-to-markdown writes it; scripts,
// styles, forms and frames never reach the model), text and JSON as they are, and refuses other content
// with a note saying what it was.
//
// Decisions worth knowing:
//   - Which hosts: the permission engine decides the call on the URL's host (rules WebFetch(domain:HOST);
//     without one the person is asked, and a headless run refuses). A redirect to the same host is
//     followed; one to another host only when the rules or the mode allow that host without asking
//     (Env.Hosts), since no one is asked in the middle of a call; otherwise the result gives the model
//     the new URL, and fetching it is a call of its own, decided like any other. At most 5 redirects.
//   - Which addresses: loopback, private, link-local, unspecified, shared, multicast and reserved
//     addresses, IPv4 or IPv6, in every form an IPv4 address takes inside an IPv6 one (mapped,
//     compatible, NAT64, 6to4), are reached only for a host an allow rule names exactly (Restricted,
//     permissions.Engine.NamesHost): `WebFetch(domain:localhost)` lets a fetch reach a server on this
//     machine, and a bare `WebFetch`, a wildcard, yolo mode or a one-time approval do not. It is checked
//     on the address the socket connects to (a net.Dialer Control function), after DNS answered and on
//     every connection a redirect makes, so a name that resolves to 127.0.0.1, or whose answer changes
//     between two lookups, gains nothing.
//   - A proxy: the environment's (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) is used as Go's net/http uses it,
//     never for localhost and loopback addresses. The connection then goes to the proxy, whose own
//     address is not judged (the person chose it, and a company's proxy usually sits at a private
//     address). The page's host is judged before the request goes to it: an address or the name
//     localhost as it is, another name by what this machine's DNS says of it; a name only the proxy can
//     resolve goes on, and where the proxy's answer leads is the proxy's to guard.
//   - Nothing of the person's is sent: no cookie jar, no user name or password from a URL (the model is
//     told they were dropped), no Authorization, Cookie or Referer on a redirect. The User-Agent names
//     Warden and its version.
//   - Bounds: 30 seconds for the whole fetch, 5 MB of body after decompression (Go's transport
//     decompresses gzip itself; the limit counts what comes out), 64 KB of headers; the result is
//     shortened like a command's output (bash.TextResult), the whole text kept in a file of the session.
//
// It imports the framework (tools) and the bash engine's TextResult, the one way results are shortened;
// it must never import permissions, agent, config or ui.
package web
