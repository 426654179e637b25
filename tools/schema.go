package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// schemaOf builds the JSON schema of a parameters struct. Fields are named by their json tag, documented by
// their desc tag, and required unless the json tag says omitempty. Only the shapes tool parameters need are
// supported; anything else is a programming error and panics at start-up, never at call time.
func schemaOf(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			s := schemaOf(f.Type)
			if d := f.Tag.Get("desc"); d != "" {
				s["description"] = d
			}
			if e := f.Tag.Get("enum"); e != "" {
				s["enum"] = strings.Split(e, ",")
			}
			props[name] = s
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
		return map[string]any{"type": "object", "properties": props, "required": required,
			"additionalProperties": false}
	}
	panic(fmt.Sprintf("tools: no schema for %s", t))
}

// requiredFields lists the json names of the fields a parameters struct requires.
func requiredFields(t reflect.Type) []string {
	s := schemaOf(t)
	req, _ := s["required"].([]string)
	return req
}

// decodeParams decodes a tool's JSON arguments into p, naming what is wrong in words the model can act on.
// Servers differ: empty arguments mean "no arguments", and unknown fields are ignored rather than refused.
func decodeParams(input json.RawMessage, p any) error {
	raw := strings.TrimSpace(string(input))
	if raw == "" || raw == "null" {
		raw = "{}"
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &fields); err != nil {
		return fmt.Errorf("arguments are not a JSON object (%v); send the arguments as a JSON object matching the schema", err)
	}
	for _, name := range requiredFields(reflect.TypeOf(p)) {
		if v, ok := fields[name]; !ok || string(v) == "null" {
			return fmt.Errorf("missing required argument %q", name)
		}
	}
	if err := json.Unmarshal([]byte(raw), p); err != nil {
		var te *json.UnmarshalTypeError
		if ok := asTypeError(err, &te); ok {
			return fmt.Errorf("argument %q must be of type %s, not %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("arguments do not match the schema: %v", err)
	}
	return nil
}

func asTypeError(err error, target **json.UnmarshalTypeError) bool {
	te, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = te
	}
	return ok
}
