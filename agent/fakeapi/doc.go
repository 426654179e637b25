// Package fakeapi is an in-process fake of an OpenAI-compatible chat completions server, for Warden's tests
// and demos. It owns nothing but the wire: it speaks POST /v1/chat/completions (an SSE stream when the request
// says "stream": true, one JSON completion otherwise) and GET /v1/models, and it can reproduce every provider
// quirk DESIGN.md §9 lists. It imports only the standard library and must never import Warden's packages,
// so that the agent is tested against the wire and not against itself.
//
// # Scripting from Go
//
// Each chat request takes the next queued Response; when the queue is empty the fallback answers (rules mode),
// and without one the server answers 500 "fakeapi: script ran out", so a test fails loudly instead of hanging.
//
//	s := fakeapi.New()
//	defer s.Close()
//	s.Reply(
//		fakeapi.ToolCall("call_1", "bash", `{"command":"ls"}`).Chunk(3),
//		fakeapi.Text("Two files.").Usage(120, 4),
//	)
//	// point the client at s.URL(), run it, then:
//	reqs, err := s.WaitRequests(2, 5*time.Second)
//
// Every request is recorded, decoded and raw (Requests, WaitRequests), its image parts included
// (Message.Images, Request.Images; Image.Decode reads a data: URL). RejectImages makes the server answer
// every request that carries an image with an error, as a server whose model takes no pictures does.
// Responses never outlive the request: every delay and stall ends when the client cancels or the server
// closes.
//
// # JSON scripts
//
// The fakeapi command (cmd/fakeapi) and Script.Install take a script like this:
//
//	{
//	  "models":   ["fake-model"],      // ids listed by GET /v1/models (default ["fake-model"])
//	  "chunk":    4,                   // default runes per delta for every reply (0: whole)
//	  "delay_ms": 20,                  // default pause between chunks for every reply
//	  "reject_images": "...",          // answer every request with an image part 400 with this message
//	  "turns": [ REPLY, ... ],         // answer the first requests, one each, in order
//	  "rules": [                       // then answer by matching the last user message
//	    {"match": "list",              // substring, case-insensitive; or ["touch", "create"]; absent: any
//	     "steps": [ REPLY, ... ]}      // steps[k] answers the k-th request after that user message
//	  ]
//	}
//
// (Comments are for this page only; the file is plain JSON and unknown fields are errors.) Rules are tried in
// order and the first match wins, so a catch-all rule without "match" goes last. Past a rule's last step the
// reply quotes the last tool result. In a reply's text, "{{result}}" becomes the last tool result of the
// conversation, shortened to 8 lines of 100 characters, and "{{prompt}}" the last user message.
//
// A REPLY is an object with any of these fields:
//
//	"text": "...", "reasoning": "...", "reasoning_field": "reasoning"
//	"tool_calls": [{"id": "call_1", "name": "bash", "arguments": {"command": "ls"}}]
//	        id optional (generated); arguments an object, or a string sent verbatim, or absent
//	"finish_reason": "stop"           override the default ("tool_calls" when there are calls, else "stop")
//	"usage": {"prompt_tokens": 10, "completion_tokens": 5}   adds a usage-only chunk with "choices": []
//	"chunk": 3, "delay_ms": 30        runes per delta (negative: whole) and pause between chunks
//	"stall_ms": 500                   pause before the response starts
//	"keep_alive": 20, "keep_alive_ms": 100   comment lines before the first chunk, one per interval
//	"cut_after": 2                    drop the connection after that many data chunks
//	"error": "overloaded"             without status: an error object inside the 200 stream
//	"status": 429, "error": "...", "headers": {"Retry-After": "1"}   an HTTP error with an OpenAI-style body
//	"raw": ["line", ...]              the body written literally, line by line (status defaults to 200)
package fakeapi
