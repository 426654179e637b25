package mdrender

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const sample = "# Title\n\nPara with `code`, **bold**, *em*, ~~gone~~ and a [link](https://example.com/a).\n" +
	"A second line of the same paragraph, long enough to wrap around the edge of a narrow terminal.\n\n" +
	"## Sub\n\n> quoted\n> still quoted\n\n1. one\n2. two\n   - nested a\n   - nested b\n\n- [x] done\n- [ ] todo\n\n" +
	"| Name | Size | Notes |\n|------|-----:|-------|\n| main.go | 2048 | the entry |\n| README.md | 512 | docs |\n\n" +
	"```go\nfunc main() {\n    fmt.Println(\"hi\") // greet\n}\n```\n\n---\n\n![alt text](img.png)\n\n    indented code\n"

// shown is what the lines show: no styles, no hyperlinks, no trailing blanks.
func shown(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(out, "\n")
}

func TestEveryKindOfBlockIsDrawnAsGlamourDrewIt(t *testing.T) {
	got := shown(Render(sample, 80, Dark))
	for _, want := range []string{
		"  \u00a0Title\u00a0",
		"  Para with \u00a0code\u00a0, bold, em, gone and a link https://example.com/a. A second\n",
		"  ## Sub",
		"  │ quoted still quoted",
		"  1. one\n  2. two\n     • nested a\n     • nested b",
		"  [✓] done\n  [ ] todo",
		"   Name      │ Size │ Notes\n  ───────────┼──────┼───────────\n   main.go   │ 2048 │ the entry\n   README.md │  512 │ docs",
		"    func main() {\n        fmt.Println(\"hi\") // greet\n    }",
		"  --------",
		"  Image: alt text → img.png",
		"    indented code",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the render lacks\n%s\nit is:\n%s", want, got)
		}
	}
	if strings.HasPrefix(got, "\n") || strings.HasSuffix(got, "\n") {
		t.Errorf("the render starts or ends with a blank line:\n%q", got)
	}
}

func TestWithoutColourEmphasisShowsItsMarks(t *testing.T) {
	lines := Render(sample, 80, Plain)
	got := shown(lines)
	for _, want := range []string{"  # Title", "`code`, **bold**, *em*, ~~gone~~", "  | quoted", "  [x] done", " Name      | Size | Notes"} {
		if !strings.Contains(got, want) {
			t.Errorf("the render lacks %q:\n%s", want, got)
		}
	}
	for _, l := range lines {
		if strings.Contains(ansi.Strip(l), "\x1b") || strings.Contains(l, "\x1b[") {
			t.Fatalf("a line without colour holds a style: %q", l)
		}
	}
}

func TestNoLineIsWiderThanTheWidthAndNoStyleOutlivesItsLine(t *testing.T) {
	doc := sample + "\nA_word_far_too_long_for_any_line_of_a_narrow_terminal_window_at_all_goes_on_and_on.\n\n" +
		"```\n" + strings.Repeat("x", 150) + "\n```\n\n| a | b |\n|---|---|\n| " + strings.Repeat("long cell text ", 12) + " | short |\n"
	for width := 10; width <= 120; width += 7 {
		for _, th := range []*Theme{Dark, Light, Plain} {
			for _, l := range Render(doc, width, th) {
				if w := ansi.StringWidth(l); w > width {
					t.Fatalf("%s at %d: a line is %d wide: %q", th.Name(), width, w, ansi.Strip(l))
				}
				if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, reset) && !strings.HasSuffix(l, ansi.ResetHyperlink()) {
					t.Fatalf("%s at %d: a line leaves a style open: %q", th.Name(), width, l)
				}
			}
		}
	}
}

func TestCodeIsColouredBySyntax(t *testing.T) {
	lines := Render("```go\nfunc main() { return \"s\" }\n```\n", 60, Dark)
	keyword := style{fg: hex("#00AAFF")}.sgr()
	str := style{fg: hex("#C69669")}.sgr()
	if !strings.Contains(lines[0], keyword+"func") || !strings.Contains(lines[0], str+"\"s\"") {
		t.Fatalf("a Go block is not coloured as Go: %q", lines[0])
	}
	for _, lang := range []string{"python", "py", "sh", "bash", "js", "typescript", "rust", "json", "yaml", "diff", "Dockerfile"} {
		if lexerFor(lang) == nil {
			t.Errorf("no lexer for %q", lang)
		}
	}
	plain := Render("```nosuchlanguage\nfunc x\n```\n", 60, Dark)
	if got := shown(plain); got != "    func x" {
		t.Fatalf("a block of an unknown language shows %q", got)
	}
}

func TestSpacesInTextKeepTheirColumns(t *testing.T) {
	got := shown(Render("col1    col2    col3\n", 60, Dark))
	if got != "  col1    col2    col3" {
		t.Fatalf("got %q", got)
	}
}

func TestALinkIsAHyperlinkFollowedByItsAddress(t *testing.T) {
	line := Render("see [the docs](https://example.com/d) now\n", 80, Dark)[0]
	if !strings.Contains(line, ansi.SetHyperlink("https://example.com/d")) {
		t.Fatalf("no hyperlink: %q", line)
	}
	if got := shown([]string{line}); got != "  see the docs https://example.com/d now" {
		t.Fatalf("got %q", got)
	}
	evil := Render("[x](https://e.com/\x1b]2;pwned\x07)\n", 80, Dark)[0]
	if strings.Contains(evil, "\x1b]2;") {
		t.Fatalf("a control character in an address reached the terminal: %q", evil)
	}
}

func BenchmarkRenderBlock(b *testing.B) {
	para := "The function `f3` reads the **input**, checks it and writes the result; it is called from the handler once per request, so it must not block on the network or the disk.\n"
	code := "```go\nfunc f3(ctx context.Context) error {\n\treturn ctx.Err()\n}\n```\n"
	b.Run("paragraph", func(b *testing.B) {
		for b.Loop() {
			Render(para, 120, Dark)
		}
	})
	b.Run("code", func(b *testing.B) {
		for b.Loop() {
			Render(code, 120, Dark)
		}
	})
}

func TestTheModelsControlCharactersShowInsteadOfActing(t *testing.T) {
	src := "Title \x1b]2;PWNED\x07 and \x1b]52;c;aGk=\x07 `code\x1b[2J` \u202eevil\n\n```sh\necho \x1b[31mred\n```\n"
	lines := Render(src, 80, Dark)
	for _, l := range lines {
		for _, bad := range []string{"\x1b]2;", "\x1b]52;", "\x1b[2J", "\x1b[31m", "\x07", "\u202e"} {
			if strings.Contains(l, bad) {
				t.Fatalf("%q reached the terminal: %q", bad, l)
			}
		}
	}
	got := shown(lines)
	for _, want := range []string{"^[]2;PWNED^G", "^[]52;c;aGk=^G", "code^[[2J", "<U+202E>evil", "echo ^[[31mred"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q is not shown:\n%s", want, got)
		}
	}
}
