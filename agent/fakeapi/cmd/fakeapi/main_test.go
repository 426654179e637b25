package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineWriter hands the first line written to it over a channel.
type lineWriter struct {
	buf   strings.Builder
	once  sync.Once
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if first, _, ok := strings.Cut(w.buf.String(), "\n"); ok {
		w.once.Do(func() { w.lines <- first })
	}
	return len(p), nil
}

func TestPrintsBaseURLAndServesTheScript(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out := &lineWriter{lines: make(chan string, 1)}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-script", "../../testdata/demo.json"}, out, io.Discard)
	}()

	var base string
	select {
	case base = <-out.lines:
	case err := <-done:
		t.Fatalf("run ended early: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("no base URL printed")
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Errorf("first line = %q", base)
	}
	body := `{"model":"fake-model","messages":[{"role":"user","content":"list files"}]}`
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
		}
	}
	json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	if len(c.Choices) != 1 || len(c.Choices[0].Message.ToolCalls) != 1 || c.Choices[0].Message.ToolCalls[0].Function.Arguments != `{"command":"ls -la"}` {
		t.Errorf("list prompt answered %+v", c)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not stop when its context ended")
	}
}

func TestBadCommandLinesAndScriptsFail(t *testing.T) {
	for _, args := range [][]string{
		{"-bogus"},
		{"extra"},
		{"-script", "missing.json"},
		{"-script", "../../fakeapi_test.go"},
		{"-addr", "not-an-address"},
	} {
		if err := run(t.Context(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// -requests writes every chat request's body, one a line, for scripts that drive a client.
func TestRequestsAreWrittenToAFile(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &lineWriter{lines: make(chan string, 1)}
	log := t.TempDir() + "/requests.jsonl"
	go run(ctx, []string{"-addr", "127.0.0.1:0", "-script", "../../testdata/demo.json", "-requests", log}, out, io.Discard)
	var base string
	select {
	case base = <-out.lines:
	case <-time.After(5 * time.Second):
		t.Fatal("no base URL printed")
	}
	body := `{"model":"fake-model","messages":[{"role":"user","content":"the expanded\ncommand"}]}`
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(log)
		if strings.Contains(string(data), `the expanded\ncommand`) && strings.Count(string(data), "\n") == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the request was not written: %q", data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
