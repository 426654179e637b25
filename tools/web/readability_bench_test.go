package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
)

// deepArticles is the page that once kept readability busy for 40 seconds: blocks that each look like an
// article, nested depth deep, 49,000 of them (just under readability's own bound on elements), 5 MB.
func deepArticles(depth int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>deep</title></head><body>")
	for range 49_000 / depth {
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
	body := deepArticles(500)
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
