package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/bash"
)

// result turns a server's answer into the model's result: text as it is, images and audio noted (and kept
// in a file), resources with their text or a note, structured content as JSON when nothing else says it. The
// whole is bounded like command output, the full text spilled to a file when it is long.
func (t *Tool) result(env *tools.Env, callID string, res *sdk.CallToolResult) tools.Result {
	var b strings.Builder
	for i, c := range res.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		switch c := c.(type) {
		case *sdk.TextContent:
			b.WriteString(c.Text)
		case *sdk.ImageContent:
			b.WriteString(t.saved(env, callID, i, "image", c.MIMEType, c.Data))
		case *sdk.AudioContent:
			b.WriteString(t.saved(env, callID, i, "audio", c.MIMEType, c.Data))
		case *sdk.ResourceLink:
			fmt.Fprintf(&b, "[resource link: %s", c.URI)
			if c.Name != "" {
				fmt.Fprintf(&b, " (%s)", c.Name)
			}
			if c.Description != "" {
				fmt.Fprintf(&b, ": %s", c.Description)
			}
			b.WriteString("]")
		case *sdk.EmbeddedResource:
			r := c.Resource
			if r == nil {
				b.WriteString("[empty resource]")
				break
			}
			fmt.Fprintf(&b, "[resource %s", r.URI)
			if r.MIMEType != "" {
				fmt.Fprintf(&b, " (%s)", r.MIMEType)
			}
			switch {
			case r.Text != "":
				b.WriteString("]\n" + r.Text)
			case len(r.Blob) > 0:
				b.WriteString("] " + t.saved(env, callID, i, "resource", r.MIMEType, r.Blob))
			default:
				b.WriteString("]")
			}
		default:
			raw, _ := json.Marshal(c)
			fmt.Fprintf(&b, "[content of another kind: %s]", raw)
		}
	}
	if res.StructuredContent != nil && len(res.Content) == 0 {
		raw, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err == nil {
			b.Write(raw)
		}
	}
	text := b.String()
	if strings.TrimSpace(text) == "" {
		text = "(no output)"
	}
	out := bash.TextResult(env, fmt.Sprintf("mcp-%s-%s", t.Server(), safeFile(t.remote)), text)
	if res.IsError {
		out.IsError = true
		out.Output = "The tool reported an error:\n" + out.Output
	}
	return out
}

// saved keeps binary content in the session's directory and describes it for the model.
func (t *Tool) saved(env *tools.Env, callID string, i int, kind, mime string, data []byte) string {
	note := fmt.Sprintf("[%s, %s, %s", kind, orUnknown(mime), tools.HumanBytes(int64(len(data))))
	if env.SessionDir == "" || len(data) == 0 {
		return note + "]"
	}
	dir := filepath.Join(env.SessionDir, "mcp")
	path := filepath.Join(dir, fmt.Sprintf("%s-%d%s", safeFile(callID), i, extension(mime)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return note + "]"
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return note + "]"
	}
	return note + ", saved to " + path + "]"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func extension(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	}
	return ".bin"
}

// safeFile makes a name safe to use in a file name.
func safeFile(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		s = "call"
	}
	return s
}
