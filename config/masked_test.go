package config

import (
	"strings"
	"testing"
)

// What a server runs and where it connects is shown, its secret values are not: an environment value
// under a secret name or of a credential's form, an Authorization header's token, a URL's password and
// api_key parameter, an option's token. Names, references to variables and ordinary values stay.
func TestAServerIsShownWithoutItsSecretValues(t *testing.T) {
	const tok = "ghp_" + "0123456789abcdefghijklmnopqrstuvwxyz"
	entries := []MCPServerEntry{
		{Name: "gh", Project: true, MCPServer: MCPServer{Command: "npx", Args: []string{"-y", "@x/server", "--token", "s3cr3t-arg-value", "--api-key=s3cr3t-eq-value", "--dir", "/srv/data", "https://u:s3cr3t-url-pw@api.example/v1"},
			Env: map[string]string{"GITHUB_TOKEN": tok, "API_KEY": "s3cr3t-env-value", "FROM_VAR": "${GITHUB_TOKEN}", "LOG_LEVEL": "debug",
				"PROXY": "alice:s3cr3t-proxy-pw@proxy:3128", "JAVA_OPTS": "-Xmx1g -Dhttp.proxyPassword=s3cr3t-jvm-pw"}}},
		{Name: "api", Project: true, MCPServer: MCPServer{Type: "http", URL: "https://mcp.example/v1?api_key=s3cr3t-query-key&region=eu",
			Headers: map[string]string{"Authorization": "Bearer s3cr3t-header-token", "X-API-Key": "s3cr3t-xkey", "X-Trace": "on",
				"X-From-Var": "Bearer ${API_TOKEN}"}}},
		{Name: "ssh", MCPServer: MCPServer{Command: "sshpass", Args: []string{"-p", "s3cr3t-sshpass", "ssh", "host", "mcp"}}},
	}
	var shown strings.Builder
	for _, e := range entries {
		shown.WriteString(e.Describe() + "\n" + e.Target() + "\n")
	}
	got := shown.String()
	if strings.Contains(got, "s3cr3t") || strings.Contains(got, tok) {
		t.Errorf("a secret value is shown:\n%s", got)
	}
	for _, want := range []string{"npx -y @x/server --token *** '--api-key=***' --dir /srv/data 'https://u:***@api.example/v1'",
		"GITHUB_TOKEN=***", "API_KEY=***", "FROM_VAR=${GITHUB_TOKEN}", "LOG_LEVEL=debug", "JAVA_OPTS='-Xmx1g -Dhttp.proxyPassword=***'", "PROXY=***",
		"https://mcp.example/v1?api_key=***&region=eu", "Authorization='Bearer ***'", "X-API-Key=***", "X-Trace=on",
		"X-From-Var='Bearer ${API_TOKEN}'", "sshpass -p *** ssh host mcp"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q is not shown:\n%s", want, got)
		}
	}
}

// A hook's command and a base_url are shown with the secrets in them masked too.
func TestAHookAndABaseURLAreShownWithoutSecrets(t *testing.T) {
	hook := hookItem(Hook{Event: "PostToolUse", Matcher: "Bash", Command: "curl -H 'Authorization: Bearer s3cr3t-hook-token' https://hooks.slack.com/services/T0/B0/s3cr3tslack"}, ".warden/settings.json")
	base := "https://user:s3cr3t-base-pw@llm.example/v1"
	items := loosening(&Settings{BaseURL: &base}, &Config{}, ".warden/settings.json")
	got := hook.Text + "\n" + items[0].Text
	if strings.Contains(got, "s3cr3t") {
		t.Errorf("a secret is shown:\n%s", got)
	}
	if !strings.Contains(got, "curl -H") || !strings.Contains(got, "llm.example/v1") {
		t.Errorf("what runs or where it connects is not shown:\n%s", got)
	}
}
