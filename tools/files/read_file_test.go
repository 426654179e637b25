package files

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestReadFileNumbersLinesAndReportsTheTotal(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("a.txt", "one\ntwo\n\tthree\n")
	got := h.ok("read_file", map[string]any{"path": "a.txt"})
	want := "     1\tone\n     2\ttwo\n     3\t\tthree\n(the whole file: 3 lines)"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestReadFilePagesWithOffsetAndLimit(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	h.write("a.txt", strings.TrimSuffix(b.String(), "\n")) // no final newline: still 50 lines
	got := h.ok("read_file", map[string]any{"path": "a.txt", "offset": 10, "limit": 3})
	want := "    10\tline 10\n    11\tline 11\n    12\tline 12\n(lines 10-12 of 50; continue with offset=13)"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	got = h.ok("read_file", map[string]any{"path": "a.txt", "offset": 49})
	mustContain(t, got, "    50\tline 50\n(lines 49-50 of 50)")
	got = h.ok("read_file", map[string]any{"path": "a.txt", "offset": 51})
	mustContain(t, got, "offset 51 is past the end of the file, which has 50 lines")
	h.fails("read_file", map[string]any{"path": "a.txt", "offset": -1})
}

func TestReadFileDefaultLimitAndOutputBudget(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("many.txt", strings.Repeat("x\n", 2500))
	got := h.ok("read_file", map[string]any{"path": "many.txt"})
	mustContain(t, got, "  2000\tx\n(lines 1-2,000 of 2,500; continue with offset=2001)")
	if strings.Contains(got, "  2001\t") {
		t.Error("read more than the default 2000 lines")
	}

	h.write("wide.txt", strings.Repeat(strings.Repeat("y", 1000)+"\n", 500))
	got = h.ok("read_file", map[string]any{"path": "wide.txt"})
	if len(got) > readBudget+200 {
		t.Errorf("output is %d bytes, over the %d budget", len(got), readBudget)
	}
	mustContain(t, got, "of 500; output limit of", "continue with offset=")
}

func TestReadFileCutsLongLines(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("long.txt", "short\n"+strings.Repeat("é", 3000)+"\nend\n")
	got := h.ok("read_file", map[string]any{"path": "long.txt"})
	mustContain(t, got, "     1\tshort\n", " … [line cut: 4,000 more bytes]\n     3\tend\n", "(the whole file: 3 lines)")
	exact := strings.Repeat("z", readLineMax)
	h.write("exact.txt", exact+"\n")
	if got := h.ok("read_file", map[string]any{"path": "exact.txt"}); strings.Contains(got, "line cut") {
		t.Errorf("a line of exactly %d bytes was marked as cut", readLineMax)
	}
}

func TestReadFileStripsCRAndShowsEmptyFiles(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("crlf.txt", "a\r\nb\r\n")
	if got := h.ok("read_file", map[string]any{"path": "crlf.txt"}); got != "     1\ta\n     2\tb\n(the whole file: 2 lines)" {
		t.Errorf("got %q", got)
	}
	h.write("empty.txt", "")
	if got := h.ok("read_file", map[string]any{"path": "empty.txt"}); got != "(the file is empty)" {
		t.Errorf("got %q", got)
	}
}

func TestReadFileRefusesBinaryFiles(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("doc.pdf", "%PDF-1.7\n"+strings.Repeat("\x00\x01", 100))
	got := h.fails("read_file", map[string]any{"path": "doc.pdf"})
	mustContain(t, got, "doc.pdf is a PDF document", "not text")
	h.write("blob.bin", "text at first"+strings.Repeat("\x00", 10))
	mustContain(t, h.fails("read_file", map[string]any{"path": "blob.bin"}), "blob.bin is a binary file")
}

func TestReadFileRefusesDirectoriesAndMissingFiles(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("src/a.go", "package a\n")
	mustContain(t, h.fails("read_file", map[string]any{"path": "src"}), "src is a directory", "glob")
	mustContain(t, h.fails("read_file", map[string]any{"path": "nope.txt"}), "nope.txt does not exist")
	mustContain(t, h.fails("read_file", map[string]any{"path": "/dev/null"}), "not a regular file")
}

// TestReadFileStreamsLargeFiles reads 10 lines of a 50 MB file and checks that the read allocated far less
// than the file: the rest is counted and hashed a buffer at a time.
func TestReadFileStreamsLargeFiles(t *testing.T) { // not parallel: it measures the whole process's heap
	h := newFileHarness(t)
	p := h.path("big.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := strings.Repeat("0123456789", 9) + "abcdefghi\n" // 100 bytes
	const lines = 500_000                                   // 50 MB
	for range lines {
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := h.ok("read_file", map[string]any{"path": "big.log", "limit": 10})
	runtime.ReadMemStats(&after)

	mustContain(t, got, "    10\t"+strings.TrimSuffix(line, "\n")+"\n(lines 1-10 of 500,000; continue with offset=11)")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("reading 10 lines of a 50 MB file allocated %d bytes", alloc)
	}
	// The whole file was hashed, so it can be edited without another read.
	if _, err := h.access("edit_file", map[string]any{"path": "big.log", "old_string": "x", "new_string": "y"}); err == nil ||
		!strings.Contains(err.Error(), "(0 matches)") {
		t.Errorf("edit after a partial read of the big file: %v", err)
	}
}

func TestReadFileHonoursCancellation(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := readNumbered(ctx, strings.NewReader("a\nb\n"), 1, 10)
	if err == nil {
		t.Error("a cancelled read succeeded")
	}
}
