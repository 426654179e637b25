package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/warden-cli/warden/tools"
)

// What a page becomes for the model: HTML its readable part in Markdown, text and JSON as they are, and
// anything else a refusal that names what it is.

// maxElements bounds the elements readability looks through; past it the whole page is converted as it
// is, which costs one pass.
const maxElements = 100_000

// page is what a fetched body became.
type page struct {
	// kind says how it was read: "Markdown", "text" or "JSON".
	kind  string
	title string
	text  string
}

// mediaType is the response's media type, lower case, from its header or, without one, its first bytes.
func mediaType(h http.Header, body []byte) (mt, full string) {
	full = h.Get("Content-Type")
	if full == "" {
		full = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(full)
	if err != nil {
		mt, _, _ = strings.Cut(strings.ToLower(full), ";")
		mt = strings.TrimSpace(mt)
	}
	return mt, full
}

// readable tells the kind of page mt is, or "" for content web_fetch does not read.
func readable(mt string) string {
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "Markdown"
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return "JSON"
	case strings.HasPrefix(mt, "text/"), mt == "application/xml", strings.HasSuffix(mt, "+xml"),
		mt == "application/javascript", mt == "application/x-ndjson", mt == "application/yaml":
		return "text"
	}
	return ""
}

// convert turns a body of media type full (the header's whole value, for its charset) into what the
// model reads.
func convert(ctx context.Context, body []byte, full string, kind string, pageURL *url.URL) (page, error) {
	r, err := charset.NewReader(bytes.NewReader(body), full)
	if err != nil {
		r = bytes.NewReader(body) // an unknown charset: read it as UTF-8
	}
	utf, err := io.ReadAll(r)
	if err != nil {
		return page{}, fmt.Errorf("decoding its text: %w", err)
	}
	if kind != "Markdown" {
		if tools.LooksBinary(utf, 0) {
			return page{}, fmt.Errorf("it says it is %s but holds binary data", full)
		}
		return page{kind: kind, text: strings.ToValidUTF8(string(utf), "\uFFFD")}, nil
	}
	return htmlPage(ctx, utf, pageURL)
}

// htmlPage is the readable part of an HTML page in Markdown: what readability finds the article to be,
// or the whole page when it finds none. Scripts, styles, forms and frames are dropped either way.
func htmlPage(ctx context.Context, body []byte, pageURL *url.URL) (page, error) {
	p := page{kind: "Markdown"}
	parser := readability.NewParser()
	parser.MaxElemsToParse = maxElements
	node := (*html.Node)(nil)
	if article, err := parser.Parse(bytes.NewReader(body), pageURL); err == nil && article.Node != nil {
		var text strings.Builder
		if article.RenderText(&text) == nil && strings.TrimSpace(text.String()) != "" {
			node, p.title = article.Node, article.Title()
		}
	}
	if node == nil {
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			return page{}, fmt.Errorf("parsing its HTML: %w", err)
		}
		node, p.title = doc, titleOf(doc)
	}
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
	for _, tag := range []string{"form", "button", "select", "svg", "canvas", "template", "object", "embed"} {
		conv.Register.TagType(tag, converter.TagTypeRemove, converter.PriorityStandard)
	}
	md, err := conv.ConvertNode(node, converter.WithContext(ctx), converter.WithDomain(pageURL.String()))
	if err != nil {
		return page{}, fmt.Errorf("converting it to Markdown: %w", err)
	}
	p.text = strings.TrimSpace(string(md))
	p.title = strings.Join(strings.Fields(p.title), " ")
	return p, nil
}

// titleOf is the text of a document's first <title>.
func titleOf(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return b.String()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := titleOf(c); t != "" {
			return t
		}
	}
	return ""
}
