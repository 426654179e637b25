package agent

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestDiscoverPicksTheFirstServerThatAnswersInOrder(t *testing.T) {
	first, second := fakeapi.New(), fakeapi.New()
	defer first.Close()
	defer second.Close()
	port := func(s *fakeapi.Server) int {
		_, p, _ := net.SplitHostPort(s.URL()[len("http://") : len(s.URL())-len("/v1")])
		n, _ := strconv.Atoi(p)
		return n
	}
	servers := []LocalServer{{"nothing", freePort(t)}, {"second", port(second)}, {"first", port(first)}}
	got := Discover(context.Background(), "127.0.0.1", servers)
	if got != second.URL() {
		t.Errorf("Discover = %q, want %q (the earlier one in the list)", got, second.URL())
	}
	if got := Discover(context.Background(), "127.0.0.1", servers[:1]); got != "" {
		t.Errorf("Discover with nothing listening = %q", got)
	}
}

// The models come in the server's order, which puts first the model it means as its default.
func TestListModelsKeepsTheServersOrder(t *testing.T) {
	s := fakeapi.New()
	defer s.Close()
	s.SetModels("zeta", "alpha")
	got, err := ListModels(context.Background(), s.URL(), "")
	if err != nil || len(got) != 2 || got[0] != "zeta" || got[1] != "alpha" {
		t.Fatalf("ListModels = %v, %v", got, err)
	}
}

func TestChatModelsSkipsModelsThatCannotChat(t *testing.T) {
	ids := []string{"dall-e-3", "gpt-4o", "gpt-image-1", "nomic-embed-text", "omni-moderation-latest", "qwen2.5-coder:14b",
		"text-embedding-3-small", "tts-1", "whisper-1", "gpt-4o-mini-transcribe", "bge-reranker-v2", "llama3.1:8b"}
	got := strings.Join(ChatModels(ids), " ")
	if got != "gpt-4o qwen2.5-coder:14b llama3.1:8b" {
		t.Errorf("ChatModels = %s", got)
	}
}
