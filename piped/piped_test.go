package piped

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestASmallInputIsSentWholeAfterThePrompt(t *testing.T) {
	in, err := Read(strings.NewReader("diff --git a/x b/x\n+hello\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "review this\n\n<stdin lines=\"2\" bytes=\"26\">\ndiff --git a/x b/x\n+hello\n</stdin>"
	if got := in.Message("review this"); got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
	if in.Cut() || in.Summary() != "stdin attached: 2 lines (26 bytes)" {
		t.Errorf("cut %v, summary %q", in.Cut(), in.Summary())
	}
}

func TestAnInputWithoutAFinalLineBreakIsClosedOnALineOfItsOwn(t *testing.T) {
	in, err := Read(strings.NewReader("one\ntwo"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := in.Block(); got != "<stdin lines=\"2\" bytes=\"7\">\none\ntwo\n</stdin>" {
		t.Errorf("block %q", got)
	}
}

func TestALongInputIsCutAtALineEndAndTheModelIsToldHowMuchIsMissing(t *testing.T) {
	var src strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&src, "line %05d\n", i) // 11 bytes a line
	}
	in, err := Read(strings.NewReader(src.String()), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Cut() || len(in.Text) > MaxBytes || !strings.HasSuffix(in.Text, "\n") || !strings.HasPrefix(src.String(), in.Text) {
		t.Fatalf("kept %d bytes, cut %v, ends %q", len(in.Text), in.Cut(), in.Text[len(in.Text)-5:])
	}
	sent := len(in.Text) / 11
	block := in.Block()
	head := fmt.Sprintf("<stdin lines=\"%d of 30000\" bytes=\"%d of 330000\" cut=\"true\">\n", sent, len(in.Text))
	tail := fmt.Sprintf("</stdin>\nThe input piped to Warden was cut: above are its first %d lines (%.1f KB) of 30000 lines (330.0 KB); the rest was not sent.",
		sent, float64(len(in.Text))/1000)
	if !strings.HasPrefix(block, head) || !strings.HasSuffix(block, tail) {
		t.Errorf("block starts %q\nends %q", block[:80], block[len(block)-200:])
	}
	if want := fmt.Sprintf("stdin attached: the first %d lines (%.1f KB) of 30000 lines (330.0 KB); the rest was not sent", sent, float64(len(in.Text))/1000); in.Summary() != want {
		t.Errorf("summary %q, want %q", in.Summary(), want)
	}
}

func TestALineLongerThanTheBoundIsCutBetweenCharacters(t *testing.T) {
	in, err := Read(strings.NewReader(strings.Repeat("é", MaxBytes)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(in.Text) || strings.ContainsRune(in.Text, utf8.RuneError) || len(in.Text) != MaxBytes {
		t.Errorf("kept %d bytes, valid %v", len(in.Text), utf8.ValidString(in.Text))
	}
	if !strings.HasSuffix(in.Block(), "The last line above is cut short.") {
		t.Errorf("the block does not say its last line is cut: %q", in.Block()[len(in.Block())-100:])
	}
}

func TestBinaryInputIsRefused(t *testing.T) {
	for name, src := range map[string]string{
		"a PNG image":          "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
		"a NUL after 50 KB":    strings.Repeat("text\n", 10000) + "\x00rest",
		"a NUL in a 2nd chunk": strings.Repeat("a", 40<<10) + "\x00",
	} {
		if _, err := Read(strings.NewReader(src), 0); !errors.Is(err, ErrBinary) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTextInAnotherEncodingIsSentWithItsBrokenBytesReplaced(t *testing.T) {
	in, err := Read(strings.NewReader("caf\xe9 cr\xe8me\n"), 0) // Latin-1
	if err != nil {
		t.Fatal(err)
	}
	if in.Text != "caf\uFFFD cr\uFFFDme\n" {
		t.Errorf("text %q", in.Text)
	}
}

func TestAnEmptyPipeSendsThePromptAlone(t *testing.T) {
	for _, src := range []string{"", "\n  \n"} {
		in, err := Read(strings.NewReader(src), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !in.Empty() || in.Message("hi") != "hi" {
			t.Errorf("%q: empty %v, message %q", src, in.Empty(), in.Message("hi"))
		}
	}
}

func TestAPipeNobodyWritesToIsLeftAfterTheWait(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	if _, err := Read(r, 20*time.Millisecond); !errors.Is(err, ErrSilent) {
		t.Errorf("err = %v", err)
	}
}

// slowReader gives its first line at once, then the rest only when let go.
type slowReader struct {
	first bool
	rest  *strings.Reader
	go_   <-chan struct{}
}

func (s *slowReader) Read(p []byte) (int, error) {
	if !s.first {
		s.first = true
		return copy(p, "first\n"), nil
	}
	<-s.go_
	return s.rest.Read(p)
}

func TestOnceTheFirstByteCameTheInputIsReadToItsEndHoweverSlow(t *testing.T) {
	const wait = 20 * time.Millisecond
	release := make(chan struct{})
	time.AfterFunc(10*wait, func() { close(release) })
	in, err := Read(&slowReader{rest: strings.NewReader("second\n"), go_: release}, wait)
	if err != nil {
		t.Fatal(err)
	}
	if in.Text != "first\nsecond\n" {
		t.Errorf("text %q", in.Text)
	}
}

// endless is an input that never ends (yes | warden -p ...).
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}

func TestAnEndlessInputIsReadOnlySoFar(t *testing.T) {
	in, err := Read(endless{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Unread || !in.Cut() || in.Bytes < countLimit || len(in.Text) > MaxBytes {
		t.Fatalf("unread %v, read %d, kept %d", in.Unread, in.Bytes, len(in.Text))
	}
	if b := in.Block(); !strings.Contains(b, `bytes="102400 of more than `) || !strings.Contains(b, "it was not read to its end") {
		t.Errorf("block ends %q", b[len(b)-200:])
	}
}

// A resumed session shows the prompt and the block's summary, not the block: Split reads back what
// Message wrote.
func TestSplitReadsBackWhatMessageWrote(t *testing.T) {
	var long strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&long, "line %05d\n", i)
	}
	for name, src := range map[string]io.Reader{
		"small":            strings.NewReader(aDiffForTest),
		"no final newline": strings.NewReader("one\ntwo"),
		"cut":              strings.NewReader(long.String()),
		"cut mid-line":     strings.NewReader(strings.Repeat("é", MaxBytes)),
		"endless":          endless{},
		"latin-1":          strings.NewReader("caf\xe9\xff\xfe\n"),
	} {
		in, err := Read(src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, prompt := range []string{"review this", "", "quote <stdin lines=\"1\" bytes=\"2\">\nx\n</stdin>\n\nand this"} {
			got, back := Split(in.Message(prompt))
			if got != prompt || back == nil || back.Text != in.Text || back.Summary() != in.Summary() || back.Cut() != in.Cut() {
				t.Errorf("%s, %q: prompt %q, input %+v", name, prompt, got, back)
			}
		}
	}
	for _, msg := range []string{"just words", "<stdin lines=\"x\">", "a\n\n<stdin lines=\"1\" bytes=\"2\">\nx\n"} {
		if got, in := Split(msg); got != msg || in != nil {
			t.Errorf("%q: %q %+v", msg, got, in)
		}
	}
}

const aDiffForTest = "diff --git a/x b/x\n+hello\n"
