package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The toolchains' places the jail shows hold configuration a person may have written a credential into:
// nvm's node version's global npmrc, conda's .condarc, a pyenv version's pip.conf. A program that reads
// them without naming them (here a fake `wc` first on PATH; npm, conda and pip do so to run) gets none of
// them in the jail, while the programs beside them stay; with the jail off all three reach the model,
// which shows the test would see them. Naming one asks, which headless refuses.
func TestTheToolchainsConfigurationIsMaskedInTheJail(t *testing.T) {
	outside, bin := jailFixture(t, "warden-toolchains-")
	home := filepath.Join(outside, "home")
	ws := filepath.Join(home, "src", "app")
	planted := []string{"PLANTED-NPMRC-TOKEN-4f1", "PLANTED-CONDA-PW-5a2", "PLANTED-PIP-PW-6b3"}
	npmrc := filepath.Join(home, ".nvm", "versions", "node", "v20.11.0", "etc", "npmrc")
	condarc := filepath.Join(home, "miniconda3", ".condarc")
	pipconf := filepath.Join(home, ".pyenv", "versions", "3.12.1", "pip.conf")
	node := filepath.Join(home, ".nvm", "versions", "node", "v20.11.0", "bin", "node")
	files := map[string]string{
		npmrc:                       "//registry.npmjs.org/:_authToken=" + planted[0] + "\n",
		condarc:                     "channels:\n  - https://me:" + planted[1] + "@conda.example/channel\n",
		pipconf:                     "[global]\nindex-url = https://me:" + planted[2] + "@pypi.example/simple\n",
		node:                        "#!/bin/sh\necho toolchain-program-readable\n",
		filepath.Join(ws, "README"): "workspace-readme-line\n",
		filepath.Join(bin, "wc"):    fmt.Sprintf("#!/usr/bin/env bash\necho fake-wc-ran\ncat %s %s %s %s\n", npmrc, condarc, pipconf, node),
	}
	for p, content := range files {
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o755))
	}
	for _, jail := range []bool{true, false} {
		t.Run(fmt.Sprintf("jail=%v", jail), func(t *testing.T) {
			r := newRun(t)
			r.workspace = ws
			for i, kv := range r.env {
				if strings.HasPrefix(kv, "PATH=") {
					r.env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
				}
				if strings.HasPrefix(kv, "HOME=") {
					r.env[i] = "HOME=" + home
				}
			}
			if !jail {
				cfg := filepath.Join(strings.TrimPrefix(r.env[2], "XDG_CONFIG_HOME="), "warden")
				must(t, os.MkdirAll(cfg, 0o755))
				must(t, os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"sandbox":{"jail":false}}`), 0o644))
			}
			decisions, outputs, reqs := headlessCalls(t, r, [][2]string{{"bash", `{"command":"wc -l README"}`},
				{"bash", fmt.Sprintf(`{"command":"cat %s"}`, npmrc)}})
			if decisions[0] != "allow" || !strings.Contains(outputs[0], "fake-wc-ran") || !strings.Contains(outputs[0], "toolchain-program-readable") {
				t.Fatalf("the fake wc did not run unasked, or could not read the toolchain's program (%s): %s", decisions[0], outputs[0])
			}
			if decisions[1] != "deny" {
				t.Errorf("cat of nvm's npmrc: %s, want it asked (refused headless): %s", decisions[1], outputs[1])
			}
			if jail {
				noneReached(t, reqs, planted...)
				return
			}
			for _, p := range planted {
				if !strings.Contains(outputs[0], p) {
					t.Errorf("outside the jail %s did not reach the model either; the check proves nothing", p)
				}
			}
		})
	}
}
