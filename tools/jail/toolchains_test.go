package jail

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The toolchains' places are shown unsearched, but where a toolchain keeps configuration a person may
// have written a credential into (a node version's global npmrc, conda's .condarc, a Python version's
// pip.conf) is looked into, and what the catalogue names there is masked; the programs beside them are
// not. A directory with more versions than are looked through is hidden whole.
func TestScanMasksTheToolchainsConfiguration(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	for _, f := range []string{".nvm/versions/node/v20.11.0/etc/npmrc", ".nvm/versions/node/v20.11.0/bin/node",
		".nvm/versions/node/v18.19.0/lib/node_modules/npm/npmrc", "miniconda3/.condarc", "miniconda3/envs/ml/pip.conf",
		"miniconda3/bin/python", ".pyenv/versions/3.12.1/pip.conf", ".pyenv/versions/3.12.1/bin/python3",
		".volta/tools/image/node/20.0.0/etc/npmrc", "src/app/main.go"} {
		mkfile(t, filepath.Join(home, f))
	}
	mkfile(t, filepath.Join(ws, "README"))
	secret := func(p string) bool {
		switch filepath.Base(p) {
		case "npmrc", ".condarc", "pip.conf":
			return true
		}
		return false
	}
	getenv := func(string) string { return "" }
	m := scan(Config{Secret: secret, Workspace: ws, Homes: []string{home}, Places: Toolchains(home, getenv)})
	for _, f := range []string{".nvm/versions/node/v20.11.0/etc/npmrc", ".nvm/versions/node/v18.19.0/lib/node_modules/npm/npmrc",
		"miniconda3/.condarc", "miniconda3/envs/ml/pip.conf", ".pyenv/versions/3.12.1/pip.conf",
		".volta/tools/image/node/20.0.0/etc/npmrc"} {
		if !slices.Contains(m.Files, filepath.Join(home, f)) {
			t.Errorf("%s is not masked", f)
		}
	}
	for _, p := range append(m.Files, m.Dirs...) {
		if filepath.Base(p) == "node" || filepath.Base(p) == "python" || filepath.Base(p) == "python3" {
			t.Errorf("a toolchain's program is masked: %s", p)
		}
	}
	if !slices.Contains(m.Shown, filepath.Join(home, ".nvm")) || m.Incomplete != "" {
		t.Errorf("shown %v, incomplete %q", m.Shown, m.Incomplete)
	}

	versions := filepath.Join(home, ".nvm", "versions", "node")
	for i := range maxConfigEntries {
		if err := os.Mkdir(filepath.Join(versions, fmt.Sprintf("v0.0.%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m = scan(Config{Secret: secret, Workspace: ws, Homes: []string{home}, Places: Toolchains(home, getenv)})
	if !slices.Contains(m.Dirs, versions) || m.Incomplete != versions {
		t.Errorf("a directory of %d versions is not hidden whole: dirs %v, incomplete %q", maxConfigEntries+2, m.Dirs, m.Incomplete)
	}
}

// BenchmarkScanLooksIntoTheToolchains is what looking into the toolchains' configuration adds to a scan,
// which runs at the jail's start and after every command outside it: a home with five node versions
// (nvm), five Python versions (pyenv), a conda installation with twenty environments and thirty
// pre-commit hook repositories, and a workspace of 2,000 files. The sub-benchmark without the patterns
// is the scan as it was.
func BenchmarkScanLooksIntoTheToolchains(b *testing.B) {
	root, _ := filepath.EvalSymlinks(b.TempDir())
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	var files []string
	for i := range 5 {
		v := fmt.Sprintf(".nvm/versions/node/v20.%d.0/", i)
		files = append(files, v+"bin/node", v+"etc/npmrc", v+"lib/node_modules/npm/package.json", fmt.Sprintf(".pyenv/versions/3.1%d.0/bin/python", i))
	}
	for i := range 20 {
		files = append(files, fmt.Sprintf("miniconda3/envs/e%d/bin/python", i))
	}
	for i := range 30 {
		files = append(files, fmt.Sprintf(".cache/pre-commit/repo%d/py_env-python3/bin/python", i))
	}
	for i := range 2000 {
		files = append(files, fmt.Sprintf("../ws/src/d%d/f%d.go", i/50, i))
	}
	for _, f := range files {
		mkfile(b, filepath.Join(home, f))
	}
	secret := func(p string) bool {
		base := filepath.Base(p)
		return base == "npmrc" || base == ".condarc" || base == "pip.conf"
	}
	places := Toolchains(home, func(string) string { return "" })
	bare := slices.Clone(places)
	for i := range bare {
		bare[i].Configs = nil
	}
	b.Run("the patterns alone", func(b *testing.B) {
		var patterns []string
		for _, pl := range places {
			for _, c := range pl.Configs {
				patterns = append(patterns, filepath.Join(pl.Path, c))
			}
		}
		for range b.N {
			toolchainConfigs(patterns, nil)
		}
	})
	b.Run("the patterns alone, remembered", func(b *testing.B) {
		var patterns []string
		for _, pl := range places {
			for _, c := range pl.Configs {
				patterns = append(patterns, filepath.Join(pl.Path, c))
			}
		}
		ls := &listings{}
		for range b.N {
			toolchainConfigs(patterns, ls)
		}
	})
	for _, c := range []struct {
		name   string
		places []Place
	}{{"without patterns", bare}, {"with patterns", places}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := Config{Secret: secret, Workspace: ws, Homes: []string{home}, Places: c.places}
			for range b.N {
				scan(cfg)
			}
		})
	}
}
