package agent

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// LocalServer is an OpenAI-compatible server commonly run on the person's machine.
type LocalServer struct {
	Name string
	Port int
}

// LocalServers are probed, in this order, when neither an API key nor a base URL is set.
var LocalServers = []LocalServer{{"Ollama", 11434}, {"LM Studio", 1234}, {"llama.cpp", 8080}, {"vLLM", 8000}}

// Discover probes the local servers at once and returns the base URL of the first one, in LocalServers
// order, that answers /v1/models. It returns "" when none does.
func Discover(ctx context.Context, host string, servers []LocalServer) string {
	ctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
	defer cancel()
	ok := make([]bool, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			base := fmt.Sprintf("http://%s:%d/v1", host, s.Port)
			_, err := ListModels(ctx, base, "")
			ok[i] = err == nil
		})
	}
	wg.Wait()
	for i, s := range servers {
		if ok[i] {
			return fmt.Sprintf("http://%s:%d/v1", host, s.Port)
		}
	}
	return ""
}

// ListModels returns the model ids the server offers, in the server's order: the first chat model it
// lists is the one used when none is named.
func ListModels(ctx context.Context, baseURL, apiKey string) ([]string, error) {
	cfg := openai.DefaultConfig(apiKey)
	cfg.BaseURL = baseURL
	cfg.HTTPClient = &sseDoer{client: &http.Client{Timeout: 10 * time.Second}}
	info := &responseInfo{}
	list, err := openai.NewClientWithConfig(cfg).ListModels(context.WithValue(ctx, responseInfoKey{}, info))
	if err != nil {
		return nil, classify(ctx, err, info)
	}
	ids := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// NoServerHelp is what Warden says when it has no server to talk to.
func NoServerHelp() string {
	var ports []string
	for _, s := range LocalServers {
		ports = append(ports, fmt.Sprintf("%s on %d", s.Name, s.Port))
	}
	return "No model server configured and none found on this machine (looked for " + strings.Join(ports, ", ") + ").\n" +
		"Set OPENAI_API_KEY to use OpenAI, or OPENAI_BASE_URL (or --base-url) to point at any OpenAI-compatible server, " +
		"e.g. OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama; choose the model with WARDEN_MODEL or --model."
}

// notChat are the marks of models that servers list beside chat models but that answer no chat request:
// embeddings, speech, images, moderation, rerankers and the old completion-only models.
var notChat = []string{"embed", "whisper", "tts", "dall-e", "image", "moderation", "rerank", "transcribe", "sora",
	"bge-", "minilm", "davinci-002", "babbage-002"}

// CanChat reports whether a model id looks like a model that can chat.
func CanChat(id string) bool {
	l := strings.ToLower(id)
	for _, s := range notChat {
		if strings.Contains(l, s) {
			return false
		}
	}
	return true
}

// ChatModels keeps the ids that can chat, in order.
func ChatModels(ids []string) []string {
	var out []string
	for _, id := range ids {
		if CanChat(id) {
			out = append(out, id)
		}
	}
	return out
}
