package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Server is a fake OpenAI-compatible server. Its methods are safe for concurrent use.
type Server struct {
	ts     *httptest.Server
	cancel context.CancelFunc

	mu       sync.Mutex
	queue    []*Response
	queued   int // responses ever queued
	fallback func(Request) *Response
	reqs     []Request
	changed  chan struct{} // closed and replaced whenever a request is recorded
	models   []string
	// rejectImages answers the requests that carry an image, when set (RejectImages).
	rejectImages *imageRejection
}

// New starts a Server on 127.0.0.1 with a random port. It panics if it cannot listen, like httptest.NewServer.
func New() *Server {
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	return s
}

// Listen starts a Server on addr ("host:port"; port 0 picks a free one).
func Listen(addr string) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server{changed: make(chan struct{}), models: []string{"fake-model"}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.listModels)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		msg := fmt.Sprintf("fakeapi: no route for %s %s (the base URL must end in /v1)", r.Method, r.URL.Path)
		HTTPError(http.StatusNotFound, msg).serve(w, r, false, "", "")
	})
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.ts = httptest.NewUnstartedServer(mux)
	s.ts.Listener.Close()
	s.ts.Listener = l
	// Every request's context ends when the server closes, so a stalled response never holds up Close.
	s.ts.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	s.ts.Start()
	return s, nil
}

// URL returns the base URL, ending in /v1, to give a client as its OpenAI base URL.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close stops the server, ending any response still being written.
func (s *Server) Close() {
	s.cancel()
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Reply queues responses; each chat request takes the next one in order.
func (s *Server) Reply(rs ...*Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, rs...)
	s.queued += len(rs)
}

// Fallback answers the requests that find the queue empty with fn's response. Without a fallback they get a
// 500 saying the script ran out. Rules mode is a fallback: s.Fallback(script.Respond).
func (s *Server) Fallback(fn func(Request) *Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = fn
}

// SetModels sets the ids GET /v1/models lists (default: "fake-model").
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// Pending returns how many queued responses no request has taken yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns the chat requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// WaitRequests waits until at least n chat requests have arrived and returns them all, or returns those that
// did arrive and an error once timeout has passed.
func (s *Server) WaitRequests(n int, timeout time.Duration) ([]Request, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, ch := len(s.reqs), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Requests(), nil
		}
		select {
		case <-ch:
		case <-deadline.C:
			reqs := s.Requests()
			return reqs, fmt.Errorf("fakeapi: waited %v for %d chat requests, got %d", timeout, n, len(reqs))
		}
	}
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids := append([]string(nil), s.models...)
	s.mu.Unlock()
	data := []any{}
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "created": created, "owned_by": "fakeapi"})
	}
	jsonBody(http.StatusOK, map[string]any{"object": "list", "data": data}).serve(w, r, false, "", "")
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client went away mid-body
	}
	req := Request{}
	if err := json.Unmarshal(raw, &req); err != nil {
		req = Request{DecodeErr: err}
	}
	req.Raw, req.Header, req.Path, req.Received = raw, r.Header.Clone(), r.URL.Path, time.Now()

	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	n := len(s.reqs)
	close(s.changed)
	s.changed = make(chan struct{})
	resp := s.imageRejection(req)
	if resp == nil && req.DecodeErr == nil && len(s.queue) > 0 {
		resp = s.queue[0]
		s.queue = s.queue[1:]
	}
	queued, fallback := s.queued, s.fallback
	s.mu.Unlock()

	switch {
	case req.DecodeErr != nil:
		resp = HTTPError(http.StatusBadRequest, "fakeapi: the request body is not a valid chat request: "+req.DecodeErr.Error())
	case resp == nil && fallback != nil:
		resp = fallback(req)
	}
	if resp == nil {
		resp = HTTPError(http.StatusInternalServerError, fmt.Sprintf(
			"fakeapi: script ran out: chat request #%d arrived but only %d responses were queued", n, queued))
	}
	model := req.Model
	if model == "" {
		model = "fake-model"
	}
	resp.serve(w, r, req.Stream, fmt.Sprintf("chatcmpl-fake-%d", n), model)
}
