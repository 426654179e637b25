package agent

import "errors"

// modelSetter is a Streamer whose model can change between requests (*Provider is one).
type modelSetter interface{ SetModel(model string) }

// ErrFixedModel is returned by SetModel when the agent's Streamer cannot change its model.
var ErrFixedModel = errors.New("this agent's model cannot be changed")

// SetModel makes the next requests use model, for this agent and the sub-agents it starts (they share
// its provider), and records the change so that a resumed session goes on with it. Call it between
// requests, not while Run works.
func (a *Agent) SetModel(model string) error {
	ms, ok := a.opts.Provider.(modelSetter)
	if !ok {
		return ErrFixedModel
	}
	a.running.Lock()
	defer a.running.Unlock()
	ms.SetModel(model)
	a.opts.Store.Append(Record{Type: RecModel, Model: model}, true)
	return nil
}

// Model is the model the next request uses.
func (a *Agent) Model() string { return a.opts.Provider.Model() }
