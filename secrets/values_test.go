package secrets

import "testing"

// Credentials given without a URL's scheme (a proxy variable's user:password@host) and passwords given
// to programs as options that a variable carries to them (JVM system properties in *_OPTS, sshpass in
// GIT_SSH_COMMAND, --password=, mysql -p, curl -u) are secret values; the same shapes without a
// password are not.
func TestValueFindsPasswordsGivenAsOptionsAndBareProxyLogins(t *testing.T) {
	for _, v := range []string{
		"alice:hunter2pw@proxy:3128", "bob:PW1234@p:8080", "http_proxy=alice:pw@proxy.corp", `"carol:s3cret@10.0.0.1:3128"`,
		"-Xmx2g -Dhttp.proxyPassword=hunter2", "-Dorg.gradle.project.repoPassword=abc123 -Dfoo=bar",
		"-Djavax.net.ssl.keyStorePassword=changeit", "-Dapi.token='abcdef'",
		"sshpass -p hunter2 ssh -o StrictHostKeyChecking=no", "sshpass -phunter2 ssh", "sshpass -v -p 'pw' ssh",
		"deploy --password=hunter2", "tool --token abcdef0123", "mysql -uroot -phunter2 db", "curl -u admin:hunter2 https://x",
		"curl --user=me:pw https://x",
	} {
		if !Value(v) {
			t.Errorf("%q is not taken for a credential", v)
		}
	}
	for _, v := range []string{
		"git@github.com:o/r.git", "mailto:someone@example.com", "-Xmx2g -Dfile.encoding=UTF-8",
		"-Djavax.net.ssl.trustStorePassword=$TRUST_PW", "-Dcom.sun.management.jmxremote.password.file=/etc/jmx.pw",
		"sshpass -e ssh host", "sshpass -f /run/pw ssh -p 2222 host", "docker login --password-stdin", "tool --token $TOKEN",
		"mysql -u root -p db", "mysql -P3306 -h db", "docker run -u 1000:1000 img", "curl -u \"$U:$P\" https://x",
		`\u@\h:\w\$ `, "rs=0:di=01;34:ln=01;36", "https://proxy.corp:3128", "user@host:/srv/data",
	} {
		if Value(v) {
			t.Errorf("%q is taken for a credential", v)
		}
	}
}
