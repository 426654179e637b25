package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
)

// edit_file replaces exact text. The whole edit is worked out in Access, before any decision, so the person
// approves the real diff and a call that cannot succeed is refused without asking anyone; Run works it out
// again from the file as it is then, and the hash check makes sure that is still the file the model read.
//
// Line endings: in a file that ends its lines with \r\n, the model's \n in old_string and new_string mean
// \r\n (models rarely send \r). A trailing newline the file had survives an edit whose replacement drops
// it, since a file losing its last newline is never what was meant.

type editFileParams struct {
	Path       string `json:"path" desc:"The file to edit, relative to the current directory or absolute."`
	OldString  string `json:"old_string" desc:"The exact text to replace, including whitespace and indentation, without the line-number prefix read_file shows. It must occur exactly once unless replace_all is set."`
	NewString  string `json:"new_string" desc:"The text to put in its place (must differ from old_string)."`
	ReplaceAll bool   `json:"replace_all,omitempty" desc:"Replace every occurrence of old_string instead of exactly one (default false)."`
}

const editFileDescription = `Edits a file by replacing exact text: old_string is replaced with new_string.

- The file must have been read with read_file in this session, and not changed since; otherwise read it again first.
- old_string must match the file exactly, character for character, including indentation; do not include the line-number prefix of read_file's output.
- old_string must be unique in the file: include enough surrounding lines to make it so, or set replace_all to replace every occurrence (for renaming, say).
- Line endings and the final newline of the file are kept.
- To create a new file or replace all of one, use write_file.`

// editPlan is an edit worked out without touching the file.
type editPlan struct {
	fp      filePath
	old     string // the file's content now
	result  string // its content after the edit
	edits   []udiff.Edit
	count   int
	mode    os.FileMode
	resHash [sha256.Size]byte
}

// diff is the change shown for approval, and compared again before the write (checkApproved).
func (e editPlan) diff() string { return unifiedDiff(e.fp.Shown, e.old, e.result, false, e.edits) }

func editFileTool() tools.Tool {
	return tools.New(tools.Spec[editFileParams]{
		Name:        "edit_file",
		Description: editFileDescription,
		Access: func(env *tools.Env, p *editFileParams) (tools.Access, error) {
			e, err := planEdit(env, p)
			if err != nil {
				return tools.Access{}, err
			}
			a := fileAccess(env, tools.AccessEdit, e.fp, "")
			a.Diff = e.diff()
			return a, nil
		},
		Run: runEditFile,
	})
}

func planEdit(env *tools.Env, p *editFileParams) (editPlan, error) {
	switch {
	case p.OldString == "":
		return editPlan{}, fmt.Errorf("old_string is empty; give the exact text to replace (to create a file, use write_file)")
	case p.OldString == p.NewString:
		return editPlan{}, fmt.Errorf("old_string and new_string are the same; there is nothing to change")
	}
	fp, err := resolveFile(env, p.Path)
	if err != nil {
		return editPlan{}, err
	}
	fi, err := statFile(fp)
	if err != nil {
		return editPlan{}, fmt.Errorf("%v; to create a file, use write_file", err)
	}
	if fi.Size() > writeMaxOld {
		return editPlan{}, fmt.Errorf("%s is %s; edit_file does not edit files this large", fp.Shown, tools.HumanBytes(fi.Size()))
	}
	data, err := safefile.ReadRegular(fp.Abs)
	if err != nil {
		return editPlan{}, fmt.Errorf("cannot read %s: %v", fp.Shown, unwrapPathError(err))
	}
	if isBinary(data) {
		return editPlan{}, fmt.Errorf("%s is %s, not text; edit_file only edits text files", fp.Shown, fileKind(data))
	}
	read, ok := env.RecallFile(fp.Abs)
	switch {
	case !ok:
		return editPlan{}, fmt.Errorf("%s has not been read in this conversation; read it with read_file first, then edit it", fp.Shown)
	case read != sha256.Sum256(data):
		return editPlan{}, fmt.Errorf("%s has changed on disk since you last read it (the user or a command changed it); read it again with read_file, then edit it", fp.Shown)
	}

	content := string(data)
	eol := "\n"
	if usesCRLF(content) {
		eol = "\r\n"
	}
	oldS, newS, count := matchEdit(content, p.OldString, p.NewString)
	switch {
	case count == 0:
		return editPlan{}, fmt.Errorf("old_string was not found in %s (0 matches); it must match the file exactly, including whitespace and indentation, without read_file's line numbers; read the file again if unsure", fp.Shown)
	case count > 1 && !p.ReplaceAll:
		return editPlan{}, fmt.Errorf("old_string occurs %d times in %s (%d matches), so it is not unique; include more surrounding lines to single out one, or set replace_all to replace all %d",
			count, fp.Shown, count, count)
	}
	var edits []udiff.Edit
	for from := 0; ; {
		i := strings.Index(content[from:], oldS)
		if i < 0 {
			break
		}
		start := from + i
		edits = append(edits, udiff.Edit{Start: start, End: start + len(oldS), New: newS})
		from = start + len(oldS)
	}
	result, err := udiff.Apply(content, edits)
	if err != nil {
		return editPlan{}, fmt.Errorf("applying the edit to %s: %v", fp.Shown, err)
	}
	if strings.HasSuffix(content, "\n") && result != "" && !strings.HasSuffix(result, "\n") {
		// Only an edit reaching the end of the file can drop its last newline.
		edits[len(edits)-1].New += eol
		result += eol
	}
	return editPlan{fp: fp, old: content, result: result, edits: edits, count: count, mode: fi.Mode().Perm(),
		resHash: sha256.Sum256([]byte(result))}, nil
}

// matchEdit finds which form of old and new to use in content and how often old occurs: as given, or with
// line endings converted to the file's when the model sent the other kind.
func matchEdit(content, oldS, newS string) (string, string, int) {
	var forms [][2]string
	if usesCRLF(content) {
		forms = append(forms, [2]string{toCRLF(oldS), toCRLF(newS)})
	} else if strings.Contains(oldS, "\r\n") {
		forms = append(forms, [2]string{strings.ReplaceAll(oldS, "\r\n", "\n"), strings.ReplaceAll(newS, "\r\n", "\n")})
	}
	forms = append(forms, [2]string{oldS, newS})
	for _, f := range forms {
		if n := strings.Count(content, f[0]); n > 0 {
			return f[0], f[1], n
		}
	}
	return oldS, newS, 0
}

func runEditFile(ctx context.Context, env *tools.Env, call tools.Call, p *editFileParams) tools.Result {
	e, err := planEdit(env, p)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	diff := e.diff()
	if err := checkApproved(call, e.fp, diff); err != nil {
		return tools.Errorf("%v", err)
	}
	if err := writeResolved(e.fp.Abs, []byte(e.result), e.mode); err != nil {
		return tools.Errorf("cannot write %s: %v", e.fp.Shown, unwrapPathError(err))
	}
	env.RememberFile(e.fp.Abs, e.resHash)
	what := "1 occurrence"
	if e.count > 1 {
		what = fmt.Sprintf("%d occurrences", e.count)
	}
	out := fmt.Sprintf("Edited %s: replaced %s.", e.fp.Shown, what)
	return tools.Result{
		Output:  out + "\n" + editSnippet(e),
		Display: out + "\n" + diff,
	}
}

// snippetContext is how many unchanged lines the model sees around its first change.
const (
	snippetContext  = 3
	snippetMaxLines = 40
)

// editSnippet shows the model the lines around its first change as they now are, numbered as read_file
// numbers them, so it can check the result without reading the file again.
func editSnippet(e editPlan) string {
	first := e.edits[0]
	startLine := strings.Count(e.result[:first.Start], "\n") + 1
	endLine := startLine + strings.Count(strings.TrimSuffix(first.New, "\n"), "\n")
	lines := strings.SplitAfter(e.result, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	from := max(startLine-snippetContext, 1)
	to := min(endLine+snippetContext, len(lines), from+snippetMaxLines-1)
	if from > to {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Lines %d-%d now read:\n", from, to)
	for n := from; n <= to; n++ {
		text := strings.TrimSuffix(strings.TrimSuffix(lines[n-1], "\n"), "\r")
		fmt.Fprintf(&b, "%6d\t%s\n", n, cutLine([]byte(text), readLineMax, 0))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
