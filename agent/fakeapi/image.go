package fakeapi

import (
	"encoding/base64"
	"errors"
	"strings"
)

// Image is one image part of a message as the client sent it: {"type": "image_url", "image_url": {"url":
// ..., "detail": ...}}. A test reads what the model would have seen with Decode.
type Image struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// Decode returns the media type and bytes of an image sent as a data: URL (data:image/png;base64,...).
func (i Image) Decode() (mime string, data []byte, err error) {
	rest, ok := strings.CutPrefix(i.URL, "data:")
	if !ok {
		return "", nil, errors.New("fakeapi: the image is not a data: URL")
	}
	head, payload, ok := strings.Cut(rest, ",")
	mime, isBase64 := strings.CutSuffix(head, ";base64")
	if !ok || !isBase64 {
		return "", nil, errors.New("fakeapi: the data: URL is not base64")
	}
	data, err = base64.StdEncoding.DecodeString(payload)
	return mime, data, err
}

// Images returns every image part of the request's messages, in order.
func (r Request) Images() []Image {
	var out []Image
	for _, m := range r.Messages {
		out = append(out, m.Images...)
	}
	return out
}

// RejectImages makes the server answer a request that carries an image with an HTTP error, as a server
// whose model does not take pictures does; status 0 stops it. The request is still recorded, and takes no
// queued response.
func (s *Server) RejectImages(status int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejectImages = nil
	if status != 0 {
		s.rejectImages = &imageRejection{status, message}
	}
}

// imageRejection is the error a server that takes no pictures answers with.
type imageRejection struct {
	status  int
	message string
}

// imageRejection is the answer to req when images are rejected and it carries one, or nil.
func (s *Server) imageRejection(req Request) *Response {
	if s.rejectImages == nil || len(req.Images()) == 0 {
		return nil
	}
	return HTTPError(s.rejectImages.status, s.rejectImages.message)
}
