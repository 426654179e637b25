package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// A PreToolUse hook's allow counts for web_fetch as a rule allowing the host would: headless, the fetch
// runs. It names no host, though: an address on this machine stays out of reach.
func TestAHooksAllowLetsAFetchRunButReachesNoLoopbackAddress(t *testing.T) {
	r := newRun(t)
	script := hookScript(t, r, "allow-fetch.py", `#!/usr/bin/env python3
import json
import sys

data = json.load(sys.stdin)
print(json.dumps({
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "this hook trusts " + data["tool_input"]["url"],
    }
}))
`)
	userSettings(t, r, hooksJSON(t, "PreToolUse", "WebFetch", script, 0))
	// A public-looking name is served through a proxy on loopback (the person's, not judged).
	proxy := newSite(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "docs home, via "+r.Host) })
	r.env = append(r.env, "HTTP_PROXY="+proxy.URL)
	out, decision, reason, _ := fetchCall(t, r, "http://docs.example.test/")
	if decision != "allow" || !strings.Contains(reason, "PreToolUse hook") || !strings.Contains(out, "docs home, via docs.example.test") {
		t.Fatalf("decision %s (%s): %s", decision, reason, out)
	}
	local := releaseSite(t)
	out, decision, _, _ = fetchCall(t, r, local.URL+"/notes")
	if decision != "allow" || !strings.Contains(out, "127.0.0.1 is a loopback address") {
		t.Errorf("a loopback address under the hook's allow: decision %s, %s", decision, out)
	}
	if n := len(local.requests()); n != 0 {
		t.Errorf("%d requests reached the loopback site", n)
	}
}
