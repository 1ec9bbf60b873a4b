package openai

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"sync"
)

// maxSessions bounds the conversations an Agent keeps; the oldest is
// forgotten first. A forgotten or unknown id starts a fresh conversation.
const maxSessions = 32

// maxResumeBytes is the largest history a new prompt is added to, about
// 32k tokens: a longer one would overflow a small model's context on every
// retry, so the retry starts afresh instead.
const maxResumeBytes = 128 << 10

// sessions keeps conversations in memory so that a retry or a deeper pass
// on one topic (Task.SessionID) continues with what the model already read
// and fetched. Chat completions servers are stateless; the history is ours.
type sessions struct {
	mu    sync.Mutex
	byID  map[string][]message
	order []string // ids, oldest first
}

// get returns a copy of the conversation with id, or nil when it is
// unknown or too long to continue.
func (s *sessions) get(id string) []message {
	s.mu.Lock()
	defer s.mu.Unlock()
	size := 0
	for _, m := range s.byID[id] {
		size += len(m.Content)
		for _, c := range m.ToolCalls {
			size += len(c.Function.Arguments)
		}
	}
	if size > maxResumeBytes {
		return nil
	}
	return slices.Clone(s.byID[id])
}

// put stores msgs under id ("" makes a new id) and returns the id.
func (s *sessions) put(id string, msgs []message) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil {
		s.byID = map[string][]message{}
	}
	if id == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id = "oai-" + hex.EncodeToString(b[:])
	}
	if i := slices.Index(s.order, id); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	s.order = append(s.order, id)
	s.byID[id] = slices.Clone(msgs)
	for len(s.order) > maxSessions {
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	return id
}
