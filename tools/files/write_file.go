package files

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

// write_file creates a file or replaces one whole. Access reads the current content to show the person a
// diff before anything is written; Run writes through the resolved path, so the file written is the file
// the permission engine decided about. A file that ends its lines with \r\n keeps doing so when the
// model sends \n.

type writeFileParams struct {
	Path    string `json:"path" desc:"The file to write, relative to the current directory or absolute. Missing parent directories are created."`
	Content string `json:"content" desc:"The complete new content of the file."`
}

const writeFileDescription = `Writes a file: creates it (and its parent directories) or replaces its whole content.

- To change part of an existing file, use edit_file instead: it is shorter and safer.
- The user sees a diff against the old content before the write happens.
- Files that use CRLF line endings keep them.
- Do not create documentation or example files unless asked.`

// writeMaxOld bounds the existing file write_file reads for the diff and line-ending check.
const writeMaxOld = 64 << 20

// writePlan is a write worked out without touching the file.
type writePlan struct {
	fp      filePath
	exists  bool
	old     string
	content string
	mode    fs.FileMode
}

// diff is the change shown for approval, and compared again before the write (checkApproved).
func (w writePlan) diff() string { return unifiedDiff(w.fp.Shown, w.old, w.content, !w.exists, nil) }

func writeFileTool() tools.Tool {
	return tools.New(tools.Spec[writeFileParams]{
		Name:        "write_file",
		Description: writeFileDescription,
		Access: func(env *tools.Env, p *writeFileParams) (tools.Access, error) {
			w, err := planWrite(env, p)
			if err != nil {
				return tools.Access{}, err
			}
			a := fileAccess(env, tools.AccessWrite, w.fp, "")
			a.Diff = w.diff()
			return a, nil
		},
		Run: runWriteFile,
	})
}

func planWrite(env *tools.Env, p *writeFileParams) (writePlan, error) {
	fp, err := resolveFile(env, p.Path)
	if err != nil {
		return writePlan{}, err
	}
	w := writePlan{fp: fp, content: p.Content, mode: 0o644}
	fi, err := os.Stat(fp.Abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return w, nil
	case err != nil:
		return writePlan{}, fmt.Errorf("cannot write %s: %v", fp.Shown, unwrapPathError(err))
	case fi.IsDir():
		return writePlan{}, fmt.Errorf("%s is a directory; give the path of a file", fp.Shown)
	case !fi.Mode().IsRegular():
		return writePlan{}, fmt.Errorf("%s is not a regular file (%s); write_file only writes regular files", fp.Shown, fi.Mode().Type())
	case fi.Size() > writeMaxOld:
		return writePlan{}, fmt.Errorf("%s is %s; write_file does not replace files this large", fp.Shown, tools.HumanBytes(fi.Size()))
	}
	old, err := safefile.ReadRegular(fp.Abs)
	if err != nil {
		return writePlan{}, fmt.Errorf("cannot read %s: %v", fp.Shown, unwrapPathError(err))
	}
	w.exists, w.old, w.mode = true, string(old), fi.Mode().Perm()
	if usesCRLF(w.old) && !usesCRLF(w.content) {
		w.content = toCRLF(w.content)
	}
	return w, nil
}

func runWriteFile(ctx context.Context, env *tools.Env, call tools.Call, p *writeFileParams) tools.Result {
	w, err := planWrite(env, p)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	diff := w.diff()
	if err := checkApproved(call, w.fp, diff); err != nil {
		return tools.Errorf("%v", err)
	}
	if w.exists && w.old == w.content {
		env.RememberFile(w.fp.Abs, sha256.Sum256([]byte(w.content)))
		return tools.Result{Output: fmt.Sprintf("%s already has this content; nothing changed.", w.fp.Shown)}
	}
	if err := os.MkdirAll(filepath.Dir(w.fp.Abs), 0o755); err != nil {
		return tools.Errorf("cannot create the directory of %s: %v", w.fp.Shown, unwrapPathError(err))
	}
	// Writing in place keeps the file's mode, owner and hard links, which a rename over it would not.
	if err := writeResolved(w.fp.Abs, []byte(w.content), w.mode); err != nil {
		return tools.Errorf("cannot write %s: %v", w.fp.Shown, unwrapPathError(err))
	}
	env.RememberFile(w.fp.Abs, sha256.Sum256([]byte(w.content)))
	if !w.exists && env.Secret != nil && env.Secret(w.fp.Abs) && env.SecretWritten != nil {
		env.SecretWritten() // a new secret file, which the read-only jail does not mask yet
	}
	n := tools.Plural(int64(lineCount(w.content)), "line", "lines")
	out := ""
	if w.exists {
		out = fmt.Sprintf("Wrote %s (%s, was %s).", w.fp.Shown, n, tools.Commas(int64(lineCount(w.old))))
	} else {
		out = fmt.Sprintf("Created %s (%s).", w.fp.Shown, n)
	}
	return tools.Result{Output: out, Display: out + "\n" + diff}
}
