package main

import (
	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/phases"
)

// autoResolver names the agent "auto" stands for in each role, so the
// session records claude:claude-opus-4-6 rather than auto.
func autoResolver(opts registry.Options) phases.AgentResolver {
	return func(spec string, role phases.Role) (string, string) {
		if spec != "" && spec != "auto" {
			return spec, ""
		}
		if role == phases.RoleReview {
			return registry.AutoReview(opts)
		}
		return registry.Auto(opts)
	}
}
