package app

import (
	"encoding/json"
	"fmt"
	"io"
)

// writeJSONLines prints one JSON object per line, with shell text such as `>` and `&` left as it is.
func writeJSONLines[T any](w io.Writer, items []T) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return fmt.Errorf("writing the result: %w", err)
		}
	}
	return nil
}
