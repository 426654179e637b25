package files

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/images"
)

// read_file streams the file once: the lines asked for are numbered and kept, the rest is only counted,
// and everything passes through a hash so that edit_file can later tell whether the file changed. A file
// of any size costs one buffer of memory plus the lines shown.

type readFileParams struct {
	Path   string `json:"path" desc:"The file to read, relative to the current directory or absolute."`
	Offset int    `json:"offset,omitempty" desc:"The line number to start reading from (1-based). Give it, with limit, to page through files too long to read at once."`
	Limit  int    `json:"limit,omitempty" desc:"How many lines to read (default 2000)."`
}

const readFileDescription = `Reads a text file and returns its lines numbered like cat -n (line number, tab, text), or shows you a picture.

- Reads up to 2000 lines from the start by default; the last line of the output says how many lines the file has and which offset continues, so long files can be read in pages with offset and limit.
- Lines longer than 2000 bytes are cut, with a mark saying how much was left out.
- A picture (PNG, JPEG, GIF or WebP) is shown to you as an image, right after the results of the turn's calls; a large one is scaled down first.
- Other binary files (archives, executables, PDFs) and directories are refused; use glob to list a directory.
- Reading a file is required before editing it with edit_file.
- Prefer this over cat, head, tail or sed in bash. Several files can be read at once by calling it several times in one turn.`

const (
	readDefaultLimit = 2000
	// readBudget bounds the text one call returns, however many lines were asked for.
	readBudget = 128 << 10
)

func readFileTool() tools.Tool {
	return tools.New(tools.Spec[readFileParams]{
		Name:        "read_file",
		Description: readFileDescription,
		Access: func(env *tools.Env, p *readFileParams) (tools.Access, error) {
			if err := checkReadParams(p); err != nil {
				return tools.Access{}, err
			}
			fp, err := resolveFile(env, p.Path)
			if err != nil {
				return tools.Access{}, err
			}
			summary := fp.Shown
			if p.Offset > 1 || p.Limit > 0 {
				summary += fmt.Sprintf(" (lines %d-%d)", max(p.Offset, 1), max(p.Offset, 1)+readLimit(p)-1)
			}
			return fileAccess(env, tools.AccessRead, fp, summary), nil
		},
		Run: runReadFile,
	})
}

func checkReadParams(p *readFileParams) error {
	switch {
	case p.Offset < 0:
		return fmt.Errorf("offset %d is negative; lines are numbered from 1", p.Offset)
	case p.Limit < 0:
		return fmt.Errorf("limit %d is negative; leave it out to read up to %d lines", p.Limit, readDefaultLimit)
	}
	return nil
}

func readLimit(p *readFileParams) int {
	if p.Limit == 0 {
		return readDefaultLimit
	}
	return p.Limit
}

func runReadFile(ctx context.Context, env *tools.Env, call tools.Call, p *readFileParams) tools.Result {
	if err := checkReadParams(p); err != nil {
		return tools.Errorf("%v", err)
	}
	fp, err := resolveFile(env, p.Path)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	fi, err := statFile(fp)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	f, err := safefile.OpenRegular(fp.Abs, 0)
	if err != nil {
		return tools.Errorf("cannot read %s: %v", fp.Shown, unwrapPathError(err))
	}
	defer f.Close()
	if head := make([]byte, 12); images.Sniff(head[:readHead(f, head)]) != "" {
		return readPicture(f, fi.Size(), fp, p)
	}
	r, err := readNumbered(ctx, f, max(p.Offset, 1), readLimit(p))
	if err != nil {
		var bin binaryError
		if errors.As(err, &bin) {
			return tools.Errorf("%s is %s (%s), not text; read_file only reads text files", fp.Shown, bin.kind, tools.HumanBytes(fi.Size()))
		}
		return tools.Errorf("cannot read %s: %v", fp.Shown, unwrapPathError(err))
	}
	env.RememberFile(fp.Abs, r.sum)
	return tools.Result{Output: r.text + r.footer(max(p.Offset, 1)), Display: r.display(fp.Shown, max(p.Offset, 1))}
}

// numbered is the outcome of reading a window of a file.
type numbered struct {
	text  string // the numbered lines
	shown int    // how many lines text holds
	total int    // the lines in the file
	// budget is set when the output limit ended the window before the line limit did.
	budget bool
	sum    [sha256.Size]byte
}

type binaryError struct{ kind string }

func (e binaryError) Error() string { return e.kind }

// readNumbered reads lines start.. start+limit-1 of r numbered like cat -n, and counts and hashes all of r.
func readNumbered(ctx context.Context, r io.Reader, start, limit int) (numbered, error) {
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, h), 64<<10)
	head, err := br.Peek(sniffSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return numbered{}, err
	}
	if isBinary(head) {
		return numbered{}, binaryError{kind: fileKind(head)}
	}
	var out strings.Builder
	var res numbered
	line := 0 // lines taken from br so far
	for !(line+1 >= start && (res.shown >= limit || res.budget)) {
		if err := ctx.Err(); err != nil {
			return numbered{}, err
		}
		keep := line+1 >= start
		text, more, nl, err := readLine(br, keep)
		if err != nil {
			return numbered{}, err
		}
		if len(text) == 0 && more == 0 && !nl {
			return res.done(line, out.String(), h), nil
		}
		line++
		if keep {
			s := fmt.Sprintf("%6d\t%s\n", line, cutLine(bytes.TrimSuffix(text, []byte{'\r'}), readLineMax, more))
			if out.Len()+len(s) > readBudget && res.shown > 0 {
				res.budget = true
			} else {
				out.WriteString(s)
				res.shown++
			}
		}
		if !nl {
			return res.done(line, out.String(), h), nil
		}
	}
	// Past the window only newlines are counted, a buffer at a time.
	buf := make([]byte, 64<<10)
	last := byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return numbered{}, err
		}
		n, err := br.Read(buf)
		if n > 0 {
			line += bytes.Count(buf[:n], []byte{'\n'})
			last = buf[n-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return numbered{}, err
		}
	}
	if last != '\n' {
		line++
	}
	return res.done(line, out.String(), h), nil
}

// done completes a read that has consumed all of its input.
func (r numbered) done(total int, text string, h hash.Hash) numbered {
	r.total, r.text = total, text
	copy(r.sum[:], h.Sum(nil))
	return r
}

// readLine reads one line of br. When keep is set it returns the line's first bytes (up to a little more
// than readLineMax) and how many more it had; otherwise only its end is found. nl says the line ended with
// a newline (which is not returned); a line that is empty with nl false means the end of the input.
func readLine(br *bufio.Reader, keep bool) (line []byte, more int64, nl bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			chunk, nl = chunk[:len(chunk)-1], true
		}
		if keep {
			room := max(readLineMax+utf8Room-len(line), 0)
			take := min(room, len(chunk))
			line = append(line, chunk[:take]...)
			more += int64(len(chunk) - take)
		} else if len(chunk) > 0 {
			more += int64(len(chunk))
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return line, more, false, nil
		case err != nil:
			return nil, 0, false, err
		}
		return line, more, nl, nil
	}
}

// utf8Room lets a kept line run a few bytes past the cut, so that cutLine can end it on a rune boundary
// and a line of exactly readLineMax bytes is not marked as cut.
const utf8Room = 4

// footer tells the model where it is in the file and how to go on.
func (r numbered) footer(start int) string {
	switch {
	case r.total == 0:
		return "(the file is empty)"
	case r.shown == 0:
		return fmt.Sprintf("(offset %s is past the end of the file, which has %s)", tools.Commas(int64(start)), tools.Plural(int64(r.total), "line", "lines"))
	}
	end := start + r.shown - 1
	if start == 1 && end == r.total {
		return fmt.Sprintf("(the whole file: %s)", tools.Plural(int64(r.total), "line", "lines"))
	}
	s := fmt.Sprintf("(lines %s-%s of %s", tools.Commas(int64(start)), tools.Commas(int64(end)), tools.Commas(int64(r.total)))
	if r.budget {
		s += fmt.Sprintf("; output limit of %s reached", tools.HumanBytes(readBudget))
	}
	if end < r.total {
		s += fmt.Sprintf("; continue with offset=%d", end+1)
	}
	return s + ")"
}

// display is the panel's one line about the read.
func (r numbered) display(shown string, start int) string {
	switch {
	case r.total == 0:
		return fmt.Sprintf("%s is empty", shown)
	case r.shown == 0:
		return fmt.Sprintf("%s: offset %d is past the end (%s)", shown, start, tools.Plural(int64(r.total), "line", "lines"))
	case start == 1 && r.shown == r.total:
		return fmt.Sprintf("Read %s (%s)", shown, tools.Plural(int64(r.total), "line", "lines"))
	}
	return fmt.Sprintf("Read lines %s-%s of %s from %s", tools.Commas(int64(start)), tools.Commas(int64(start+r.shown-1)),
		tools.Commas(int64(r.total)), shown)
}
