package phases

import "slices"

// pinModel records what an agent spec without a model ran as (claude ->
// claude:claude-opus-4-6) in the session's settings themselves, so
// state.json's model and review_model name the agent that ran, as every
// Rgit-Model trailer, rgit log and the methodology do. From then on the
// session asks for that model by name, so a resume, here or in another
// clone, runs the same model rather than whatever the CLI defaults to
// that day; a resume naming an agent still replaces it (resumeSettings).
//
// The spec is renamed everywhere the session keys on it (the fallback
// chain, its switches and timeout counts), so the chain stays the same
// chain under the new name.
func (s *State) pinModel(spec, full string) {
	if full == "" || full == spec {
		return
	}
	rename := func(v *string) {
		if *v == spec {
			*v = full
		}
	}
	rename(&s.Model)
	rename(&s.ReviewModel)
	var fb []string
	for _, f := range s.Fallback {
		rename(&f)
		if !slices.Contains(fb, f) {
			fb = append(fb, f)
		}
	}
	if s.Fallback != nil {
		s.Fallback = fb
	}
	for i := range s.Switches {
		rename(&s.Switches[i].From)
		rename(&s.Switches[i].To)
	}
	if n, ok := s.Timeouts[spec]; ok {
		delete(s.Timeouts, spec)
		s.Timeouts[full] += n
	}
}
