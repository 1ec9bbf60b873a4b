package phases

import (
	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// jobs is how many agent calls may be in flight: --jobs as the session
// records it, else the smallest default of the backends its phases use
// (catalog.DefaultJobs); never more than one when a backend cannot run
// calls at once; by default one for a backend not in the catalog, which
// never said it can. "auto"
// picks an installed CLI or HTTP agent: 4. The mock runs one at a time
// unless told: its sessions are the reproducible fixture whose commit
// order tests compare.
func (r *run) jobs() int {
	n := r.state.Jobs
	auto := n <= 0
	specs := append(r.state.chain(RoleResearch, r.state.Switches), r.state.chain(RoleReview, r.state.Switches)...)
	for _, spec := range specs {
		name := backendOf(spec)
		b, ok := catalog.Lookup(name)
		switch {
		case ok && !b.Concurrent:
			return 1
		case !auto:
		case name == "auto":
			n = min(positive(n), 4)
		case !ok || name == "mock":
			n = 1
		default:
			n = min(positive(n), b.DefaultJobs())
		}
	}
	return max(1, n)
}

// positive is n, or a number larger than any default when n is unset.
func positive(n int) int {
	if n <= 0 {
		return 1 << 20
	}
	return n
}
