package tools

import (
	"context"
	"encoding/json"
	"reflect"
)

// Spec describes a tool whose parameters decode into the struct P. The schema comes from P's fields.
type Spec[P any] struct {
	Name        string
	Description string
	// Access reports what the call touches. It is called before any permission decision.
	Access func(env *Env, p *P) (Access, error)
	// Run performs the call with decoded parameters.
	Run func(ctx context.Context, env *Env, call Call, p *P) Result
}

// New builds a Tool from a Spec. The schema is computed once, here.
func New[P any](spec Spec[P]) Tool {
	schema, err := json.Marshal(schemaOf(reflect.TypeFor[P]()))
	if err != nil {
		panic(err)
	}
	return &typedTool[P]{spec: spec, schema: schema}
}

type typedTool[P any] struct {
	spec   Spec[P]
	schema json.RawMessage
}

func (t *typedTool[P]) Name() string            { return t.spec.Name }
func (t *typedTool[P]) Description() string     { return t.spec.Description }
func (t *typedTool[P]) Schema() json.RawMessage { return t.schema }

func (t *typedTool[P]) Access(env *Env, input json.RawMessage) (Access, error) {
	p := new(P)
	if err := decodeParams(input, p); err != nil {
		return Access{}, err
	}
	return t.spec.Access(env, p)
}

func (t *typedTool[P]) Run(ctx context.Context, env *Env, call Call) Result {
	p := new(P)
	if err := decodeParams(call.Input, p); err != nil {
		return Errorf("invalid arguments for %s: %v", t.spec.Name, err)
	}
	return t.spec.Run(ctx, env, call, p)
}
