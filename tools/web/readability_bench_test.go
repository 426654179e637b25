package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
)

// deepArticles is a page of blocks that each look like an article, nested depth deep, blocks of them.
// At 49,000 blocks (just under readability's own bound on elements) 500 deep, 5 MB, it once kept
// readability busy for 43 seconds.
func deepArticles(depth, blocks int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>deep</title></head><body>")
	for range blocks / depth {
		for range depth {
			b.WriteString("<div class='article'><p>word, word, word, word, word, word, word, word, word, word, word, words.</p>")
		}
		for range depth {
			b.WriteString("</div>")
		}
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

// BenchmarkReadAPageOfDeeplyNestedArticles measures the page that readability once spent 43 seconds on;
// the fetch's whole limit is 30.
func BenchmarkReadAPageOfDeeplyNestedArticles(b *testing.B) {
	body := deepArticles(500, 49_000)
	u, _ := url.Parse("https://example.com/deep")
	b.SetBytes(int64(len(body)))
	start := time.Now()
	for b.Loop() {
		if _, err := htmlPage(context.Background(), body, u); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "read-s")
}
