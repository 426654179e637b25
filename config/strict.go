package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// encoding/json forgives two mistakes that cost people their settings without a word: a key given twice in
// one object keeps only the last value (a second "deny" list silently replaces the first), and keys match
// fields whatever their case ("Deny" fills deny). checkKeysForeign walks the document against the Go type
// it will be decoded into and refuses both before the decoder runs.

// bom is the UTF-8 byte-order mark some editors on Windows put at the start of a file.
var bom = []byte("\xEF\xBB\xBF")

// stripBOM drops a leading byte-order mark, which is not part of the JSON.
func stripBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, bom)
}

// checkKeysForeign reports the first duplicate or unknown key of the JSON document data, which must be
// valid JSON, against type t. Objects decoded into maps may have any keys but still none twice. It records
// where each key is, so that a value found wrong after decoding is reported where it was written. For a
// file other tools write too, foreign (nil for none) accepts places where an unknown key that is no near
// miss of a known one (a typo, a key in the wrong case) is another tool's setting: it is skipped rather
// than refused, and named, with where it is, in ignored.
func checkKeysForeign(path string, data []byte, t reflect.Type, foreign func(keys []string) bool) (*positions, []string, error) {
	w := &keyWalker{path: path, data: data, dec: json.NewDecoder(bytes.NewReader(data)),
		at: &positions{path: path, data: data, keys: map[string]int64{}}, foreign: foreign}
	w.dec.UseNumber()
	if tok, err := w.dec.Token(); err == nil && tok == nil {
		// null decodes into nothing at all: a file that holds only it sets nothing, silently.
		return nil, nil, fmt.Errorf("%s:1:1: settings must be a JSON object, not null; write {} for none", path)
	}
	w.dec = json.NewDecoder(bytes.NewReader(data))
	w.dec.UseNumber()
	err := w.value(t, nil)
	return w.at, w.ignored, err
}

type keyWalker struct {
	path string
	data []byte
	dec  *json.Decoder
	at   *positions
	// foreign and ignored: checkKeysForeign.
	foreign func(keys []string) bool
	ignored []string
}

// positions says where each key of a settings file is, by its path of keys.
type positions struct {
	path string
	data []byte
	keys map[string]int64
}

// of names the file, line and column of the key at the end of keys, or of the nearest enclosing one
// recorded, for an error about that setting.
func (p *positions) of(keys ...string) string {
	if p == nil {
		return ""
	}
	for n := len(keys); n > 0; n-- {
		if off, ok := p.keys[strings.Join(keys[:n], "\x00")]; ok {
			line, col := position(p.data, off)
			return fmt.Sprintf("%s:%d:%d", p.path, line, col)
		}
	}
	return p.path
}

// value consumes one JSON value that is to be decoded into t (nil: anything, only duplicates are checked);
// keys are the keys of the enclosing objects ("permissions", or "mcpServers" and "db").
func (w *keyWalker) value(t reflect.Type, keys []string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return fmt.Errorf("%s: reading settings: %w", w.path, err)
	}
	switch tok {
	case json.Delim('{'):
		return w.object(t, keys)
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			start := w.dec.InputOffset()
			for start < int64(len(w.data)) && strings.IndexByte(" \t\r\n,", w.data[start]) >= 0 {
				start++
			}
			w.at.keys[strings.Join(append(slices.Clip(keys), fmt.Sprintf("[%d]", i)), "\x00")] = start
			if err := w.value(elem, keys); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	return nil
}

func (w *keyWalker) object(t reflect.Type, keys []string) error {
	where := strings.Join(keys, ".")
	var fields map[string]reflect.Type
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = jsonFields(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	default:
		// A type mismatch (an object where a list is wanted): the decoder reports it with its position.
		t = nil
	}
	seen := map[string]int64{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return fmt.Errorf("%s: reading settings: %w", w.path, err)
		}
		key := tok.(string)
		start := keyStart(w.data, w.dec.InputOffset())
		line, col := position(w.data, start)
		if first, dup := seen[key]; dup {
			fl, fc := position(w.data, first)
			both := fmt.Sprintf("lines %d and %d", fl, line)
			if fl == line {
				both = fmt.Sprintf("line %d, columns %d and %d", line, fc, col)
			}
			return fmt.Errorf("%s:%d:%d: %s is given twice%s, on %s; only one can count, so merge them into one",
				w.path, line, col, quoteKey(key), in(where), both)
		}
		seen[key] = start
		path := append(slices.Clip(keys), key)
		w.at.keys[strings.Join(path, "\x00")] = start
		next := elem
		if fields != nil {
			ft, ok := fields[key]
			if hint := suggestKey(key, fields); !ok && w.foreign != nil && w.foreign(path) && !strings.HasPrefix(hint, "did you mean") {
				w.ignored = append(w.ignored, fmt.Sprintf("%s (%d:%d)", strings.Join(path, "."), line, col))
				if err := w.value(nil, path); err != nil {
					return err
				}
				continue
			}
			if !ok {
				return fmt.Errorf("%s:%d:%d: unknown setting %q%s; %s",
					w.path, line, col, key, in(where), suggestKey(key, fields))
			}
			next = ft
		}
		if err := w.value(next, path); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// keyStart finds the opening quote of the key string that ends just before end.
func keyStart(data []byte, end int64) int64 {
	for i := end - 2; i >= 0; i-- {
		if data[i] != '"' {
			continue
		}
		backslashes := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return i
		}
	}
	return 0
}

// jsonFields maps each JSON key of struct type t to its field's type, as encoding/json names them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// suggestKey names the known key nearest to key, or lists them all when none is near.
func suggestKey(key string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	slices.Sort(names)
	best, bestDist := "", -1
	for _, n := range names {
		d := editDistance(strings.ToLower(key), strings.ToLower(n))
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	if best != "" && bestDist <= max(2, len(best)/3) {
		hint := fmt.Sprintf("did you mean `%s`?", best)
		if strings.EqualFold(best, key) {
			hint += " (keys are case-sensitive)"
		}
		return hint
	}
	return "the keys here are " + strings.Join(names, ", ")
}

// editDistance is the optimal-string-alignment distance: insertions, deletions, substitutions and
// transpositions of neighbours ("modle" is one step from "model") each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func quoteKey(key string) string { return fmt.Sprintf("%q", key) }

func in(where string) string {
	if where == "" {
		return ""
	}
	return " in " + where
}
