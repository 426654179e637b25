package web

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

func TestAPageWithoutAnArticleIsConvertedWholeAndStillWithoutScripts(t *testing.T) {
	u, _ := url.Parse("https://example.com/status")
	body := `<html><head><title> Build
	status </title><script>leak("head")</script></head><body>
<table><tr><th>job</th><th>state</th></tr><tr><td>lint</td><td>ok</td></tr></table>
<script>leak("body")</script><style>.x{}</style><form action="/go"><input value="typed"><button>Go</button></form>
<iframe src="https://ads.example"></iframe><svg><text>drawn</text></svg></body></html>`
	p, err := htmlPage(context.Background(), []byte(body), u)
	if err != nil {
		t.Fatal(err)
	}
	if p.title != "Build status" || !strings.Contains(p.text, "| lint | ok") {
		t.Errorf("title %q, text:\n%s", p.title, p.text)
	}
	for _, leak := range []string{"leak", ".x{}", "typed", "Go", "ads.example", "drawn"} {
		if strings.Contains(p.text, leak) {
			t.Errorf("%q is in the page:\n%s", leak, p.text)
		}
	}
}

func TestReadableKnowsWhichContentItReads(t *testing.T) {
	for mt, want := range map[string]string{
		"text/html": "Markdown", "application/xhtml+xml": "Markdown", "application/json": "JSON",
		"application/problem+json": "JSON", "text/plain": "text", "text/markdown": "text", "text/csv": "text",
		"application/xml": "text", "application/atom+xml": "text", "image/png": "", "application/pdf": "",
		"application/octet-stream": "", "application/zip": "", "video/mp4": "",
	} {
		if got := readable(mt); got != want {
			t.Errorf("readable(%q) = %q, want %q", mt, got, want)
		}
	}
}

func TestAnInterruptEndsTheReadingOfAPageReadabilityWouldSpendLongOn(t *testing.T) {
	u, _ := url.Parse("https://example.com/deep")
	body := deepArticles(500, 5_000)
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		p   page
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := htmlPage(ctx, body, u)
		done <- result{p, err}
	}()
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("the reading went on after the interrupt: err %v, %d bytes of text", r.err, len(r.p.text))
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the reading did not end after the interrupt")
	}
}

func TestAPageTooCostlyForReadabilityIsConvertedWhole(t *testing.T) {
	u, _ := url.Parse("https://example.com/deep")
	// A tenth of the page that took readability 43 seconds is still past the bound.
	page := deepArticles(500, 5_000)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if work, err := articleWork(context.Background(), doc); err != nil || work <= maxArticleWork {
		t.Fatalf("the nested page's work is %d (bound %d), %v", work, maxArticleWork, err)
	}
	doc, _ = html.Parse(strings.NewReader(article))
	if work, _ := articleWork(context.Background(), doc); work > maxArticleWork/100 {
		t.Errorf("an ordinary page costs %d, near the bound %d", work, maxArticleWork)
	}
	p, err := htmlPage(context.Background(), page, u)
	if err != nil || p.title != "deep" || strings.Count(p.text, "words.") != 5_000 {
		t.Errorf("title %q, %d blocks, %v", p.title, strings.Count(p.text, "words."), err)
	}
}
