package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// What a person reads when a settings file is wrong: the file, line and column, what was expected and what
// was found, named by the value's whole path.

func settingsError(path string, data []byte, dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// The offset counts the offending byte itself; point at it.
		off := max(syn.Offset-1, 0)
		line, col := position(data, off)
		return fmt.Errorf("%s:%d:%d: invalid JSON: %v%s", path, line, col, syn, syntaxHint(data, off, syn))
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		if typ.Field == "" {
			return fmt.Errorf("%s:%d:%d: settings must be a JSON object, not %s", path, line, col, jsonKind(typ.Value))
		}
		return fmt.Errorf("%s:%d:%d: %q must be %s, not %s", path, line, col, jsonPathAt(data, typ.Offset, typ.Field), goKind(typ.Type), jsonKind(typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: invalid JSON: unexpected end of file", path, line, col)
	}
	line, col := position(data, dec.InputOffset())
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("%s:%d:%d: unknown setting %s; see the README for the keys", path, line, col, field)
	}
	return fmt.Errorf("%s:%d:%d: %v", path, line, col, err)
}

// syntaxHint says what to do about the JSON mistakes people make most in settings files: the trailing
// comma and the comment that JavaScript and JSONC allow.
func syntaxHint(data []byte, off int64, syn *json.SyntaxError) string {
	if off >= int64(len(data)) {
		return ""
	}
	switch c := data[off]; {
	case c == '}' || c == ']':
		if prev := bytes.TrimRight(data[:off], " \t\r\n"); len(prev) > 0 && prev[len(prev)-1] == ',' {
			return "; remove the comma before it (JSON allows none after the last item)"
		}
	case c == '/' && off+1 < int64(len(data)) && (data[off+1] == '/' || data[off+1] == '*'):
		return "; JSON has no comments, remove it"
	case strings.Contains(syn.Error(), "exceeded max depth"):
		return "; settings nest a few levels deep at most"
	case c == '\'':
		return "; JSON strings take double quotes"
	}
	return ""
}

// goKind names what a settings field holds in JSON words, not Go's.
func goKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	}
	return t.String()
}

// jsonKind names a JSON value kind as encoding/json reports it ("array", "number -5.5").
func jsonKind(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "string", "bool":
		return "a " + v
	}
	if strings.HasPrefix(v, "number") {
		return "a " + v
	}
	return v
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonPathAt names the value of data that ends at offset by its keys and indexes (mcpServers.fs.env.KEY,
// allow[2]): a type error names only the struct fields it went through, which leaves out the map keys that
// tell one MCP server from another. fallback is returned when the walk does not land on the offset.
func jsonPathAt(data []byte, offset int64, fallback string) string {
	type level struct {
		key   string // the current key of an object
		index int    // the current index of an array; -1 in an object
		atKey bool   // an object expects a key next
	}
	var stack []level
	name := func() string {
		var b strings.Builder
		for _, l := range stack {
			switch {
			case l.index >= 0:
				fmt.Fprintf(&b, "[%d]", l.index)
			case b.Len() == 0:
				b.WriteString(l.key)
			default:
				b.WriteString("." + l.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// valueDone moves the enclosing level past a value that has just ended.
	valueDone := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].index >= 0 {
				stack[n-1].index++
			} else {
				stack[n-1].atKey = true
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return fallback
		}
		inKey := len(stack) > 0 && stack[len(stack)-1].index < 0 && stack[len(stack)-1].atKey
		switch t := tok.(type) {
		case json.Delim:
			if (t == '{' || t == '[') && dec.InputOffset() >= offset {
				return name() // the container itself is of the wrong kind
			}
			switch t {
			case '{':
				stack = append(stack, level{index: -1, atKey: true})
			case '[':
				stack = append(stack, level{index: 0})
			default:
				if dec.InputOffset() >= offset {
					stack = stack[:len(stack)-1]
					return name()
				}
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if inKey {
				top := &stack[len(stack)-1]
				top.key, top.atKey = t, false
				continue
			}
			if dec.InputOffset() >= offset {
				return name()
			}
			valueDone()
		default:
			if dec.InputOffset() >= offset {
				return name()
			}
			valueDone()
		}
	}
}
