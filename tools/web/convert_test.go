package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
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
