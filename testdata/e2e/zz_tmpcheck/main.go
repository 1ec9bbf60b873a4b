package main

import (
	"fmt"

	"github.com/rgit-dev/rgit/agents/modelserver"
	"github.com/rgit-dev/rgit/prompts"
)

func main() {
	ws := "/r/.research/sky"
	outs := map[string]string{
		"initial_plan.md": ws + "/research_plan.md",
		"research.md":     ws + "/progress/rayleigh-scattering.md",
		"review.md":       ws + "/review.json",
		"synthesize.md":   "/r/reports/sky/report.md",
		"final_review.md": ws + "/final_review.json",
		"revise.md":       "/r/reports/sky/report.md",
	}
	for _, name := range []string{"initial_plan.md", "research.md", "review.md", "synthesize.md", "final_review.md", "revise.md"} {
		vars := map[string]string{
			"original_topic": "Why is the sky blue?", "session_name": "sky", "breadth": "1", "depth": "1",
			"workspace": ws, "plan_file": ws + "/research_plan.md", "topic": "Rayleigh scattering",
			"topic_slug": "rayleigh-scattering", "topic_depth": "0", "topic_description": "How light scatters.",
			"acceptance_criteria": "- Explains the wavelength dependence", "output_file": outs[name],
			"subtopic_limit": "1", "progress_files": "- Rayleigh scattering: " + ws + "/progress/rayleigh-scattering.md",
			"report_file": "/r/reports/sky/report.md", "timeout": "180",
		}
		p, err := prompts.Default().Render(name, vars)
		if err != nil {
			fmt.Println(name, err)
			continue
		}
		j := modelserver.Recognise(p)
		fmt.Printf("%-16s want %-45s got phase=%-13s out=%s topic=%q\n", name, outs[name], j.Phase, j.Output, j.Topic)
	}
}
