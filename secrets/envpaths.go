package secrets

import (
	"path/filepath"
	"strings"
)

// envFiles are variables that name a credential file somewhere the catalogue cannot guess (sops's age
// keys, a service account's key, a kubeconfig list); envDirs name a directory of them.
var (
	envFiles = []string{"SOPS_AGE_KEY_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "AWS_SHARED_CREDENTIALS_FILE",
		"KUBECONFIG", "RCLONE_CONFIG", "TF_CLI_CONFIG_FILE", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig",
		"PIP_CONFIG_FILE", "NETRC", "VAULT_TOKEN_FILE"}
	envDirs = []string{"DOCKER_CONFIG", "GH_CONFIG_DIR", "CLOUDSDK_CONFIG", "PASSWORD_STORE_DIR", "GNUPGHOME",
		"AZURE_CONFIG_DIR"}
)

// EnvPaths returns the credential files and directories the environment names (getenv looks a variable
// up): SOPS_AGE_KEY_FILE's target, each file of KUBECONFIG, DOCKER_CONFIG's directory... Relative and
// empty values are left out, since no one place is meant.
func EnvPaths(getenv func(string) string) []string {
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	for _, v := range envFiles {
		for _, p := range strings.Split(getenv(v), string(filepath.ListSeparator)) {
			add(p)
		}
	}
	for _, v := range envDirs {
		add(getenv(v))
	}
	return out
}
