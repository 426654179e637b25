package tools

import "encoding/base64"

// Image is a picture a call shows the model beside its text (read_file of a PNG): the agent sends it as
// an image part of the conversation, since a tool's own message can carry only text on most servers.
type Image struct {
	// MIME is the picture's media type: image/png, image/jpeg, image/gif or image/webp.
	MIME string
	// Data is the encoded picture, within the bounds of the tool that made it (package images).
	Data []byte
	// Name says which picture it is, for the model and the person ("shot.png").
	Name string
}

// DataURL is the picture as a data: URL, the form an image part carries it in.
func (i Image) DataURL() string {
	return "data:" + i.MIME + ";base64," + base64.StdEncoding.EncodeToString(i.Data)
}
