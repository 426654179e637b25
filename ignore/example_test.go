package ignore_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/ignore"
)

// Listing the files git would show in a directory, for example to complete a path the person types.
func ExampleForDir() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n*.log\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "node_modules", "left-pad"), 0o755)
	os.WriteFile(filepath.Join(dir, "main.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "debug.log"), nil, 0o644)

	m, err := ignore.ForDir(dir)
	if err != nil {
		panic(err)
	}
	m.Walk("", func(rel string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fmt.Println(rel)
		}
		return nil
	})
	// Output:
	// .gitignore
	// main.go
}

// Other tools' rules are built from the same parts: ripgrep reads .rgignore and .ignore before git's
// files, each deciding wherever it has a match.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.gen.go\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".ignore"), []byte("!api.gen.go\n"), 0o644)

	sources := []ignore.Source{{Name: ".rgignore"}, {Name: ".ignore"}}
	top := dir
	repos := gitrepo.NewReader() // reads the repository once for both calls
	if repo, ok := ignore.FindRepo(dir, nil, repos); ok {
		git, _ := ignore.GitSources(repo, nil, repos)
		sources, top = append(sources, git...), repo.Top
	} else {
		sources = append(sources, ignore.Source{Name: ".gitignore"})
	}
	m, _ := ignore.New(dir, ignore.Options{Top: top, Sources: sources})
	fmt.Println(m.Match("api.gen.go", false), m.Match("db.gen.go", false))
	// Output: false true
}

// The files a search of a directory considers: outside a repository every file; in a work tree the ones
// git lists, read without running git, never through a link.
func ExampleList() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), nil, 0o644)
	os.Symlink("/etc", filepath.Join(dir, "etc"))

	l, err := ignore.List(context.Background(), dir, ignore.ListOptions{Max: 1000})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Files, l.Git)
	// Output: [src/main.go] false
}
