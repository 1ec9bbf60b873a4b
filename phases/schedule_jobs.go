package phases

import (
	"strings"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// jobs is how many agent calls may be in flight: --jobs as the session
// records it, else the smallest default of the backends its phases use
// (catalog.DefaultJobs); never more than one when a backend cannot run
// calls at once, or is not in the catalog and so never said it can. "auto"
// picks an installed CLI or HTTP agent: 4. The mock runs one at a time
// unless told: its sessions are the reproducible fixture whose commit
// order tests compare.
func (r *run) jobs() int {
	n := r.state.Jobs
	auto := n <= 0
	specs := append(r.state.chain(RoleResearch, r.state.Switches), r.state.chain(RoleReview, r.state.Switches)...)
	for _, spec := range specs {
		name, _, _ := strings.Cut(spec, ":")
		b, ok := catalog.Lookup(name)
		switch {
		case !ok && name == "auto":
			if auto && (n <= 0 || n > 4) {
				n = 4
			}
		case !ok || !b.Concurrent:
			return 1
		case auto && name == "mock":
			n = 1
		case auto && (n <= 0 || b.DefaultJobs() < n):
			n = b.DefaultJobs()
		}
	}
	return max(1, n)
}
