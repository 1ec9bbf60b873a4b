package plan_test

import (
	"fmt"

	"github.com/rgit-dev/rgit/phases/plan"
)

// The loop's cycle: parse the plan, ask what to do, record the outcome,
// add the subtopics research proposed, and write the plan back.
func Example() {
	src := []byte(`# Research Plan

## Metadata
- Topic: Why is the sky blue?
- Breadth: 2
- Depth: 1

## Topics

### **Rayleigh Scattering** (depth 0)
- Status: in-progress
- Description: Scattering by particles much smaller than the wavelength.
- Acceptance Criteria:
  - States the 1/λ⁴ law
`)
	p, err := plan.Parse("research_plan.md", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	step := plan.Next(p, nil)
	fmt.Println("research:", step.Topic.Name, "->", plan.Slug(step.Topic.Name))

	step.Topic.Status = plan.InReview
	added, dropped := p.AddSubtopics(step.Topic.Name, []plan.Proposal{
		{Name: "Why Not Violet", Description: "Solar spectrum and eye sensitivity."},
		{Name: "Sunsets"},
		{Name: "Ozone"},
	})
	fmt.Println("added:", len(added), "dropped:", dropped[0].Name, "-", dropped[0].Reason)
	fmt.Println("next:", plan.Next(p, nil).Kind == plan.StepReview)
	fmt.Print(plan.Tree(p))
	// Output:
	// research: Rayleigh Scattering -> rayleigh-scattering
	// added: 2 dropped: Ozone - "Rayleigh Scattering" already has Breadth 2 subtopics
	// next: true
	// [?] Rayleigh Scattering (In Review)
	//   [ ] Why Not Violet (Pending)
	//   [ ] Sunsets (Pending)
}

func ExampleParse_error() {
	_, err := plan.Parse("research_plan.md", []byte("## Metadata\n- Topic: t\n- Breadth: 1\n- Depth: 1\n\n### A (Depth: 0)\n- Status: Finished\n"))
	fmt.Println(err)
	// Output:
	// research_plan.md:7: unknown status "Finished" of topic "A"; use Pending, In Progress, In Review or Complete
}
