package mock

// The vocabularies the mock draws its text from. They read like real
// research notes so that people watching a mock session, and tests that
// parse its files, see realistic shapes.

// rootAspects name the depth-0 topics of a plan.
var rootAspects = []string{
	"Historical Background", "Core Concepts and Definitions", "Current State of Evidence",
	"Key Mechanisms", "Practical Applications", "Risks and Limitations",
	"Economic and Social Impact", "Measurement Methods", "Competing Approaches",
	"Regulation and Policy", "Open Questions", "Future Directions",
}

// subAspects name subtopics, appended to the parent's name.
var subAspects = []string{
	"Case Studies", "Quantitative Evidence", "Key Actors", "Methodological Critiques",
	"Recent Developments", "Comparative Analysis", "Underlying Assumptions",
	"Implementation Barriers", "Long-Term Trends", "Stakeholder Perspectives",
	"Edge Cases", "Costs and Resources",
}

// claims complete "Sources on <topic> ..." sentences; %d takes a number.
var claims = []string{
	"report that adoption grew by about %d%% between 2015 and 2024",
	"agree that outcomes depend strongly on local context, with effect sizes varying up to %d-fold",
	"place most published estimates within a band of %d percentage points",
	"show that early results were only partly replicated in %d later studies",
	"find that costs fell by roughly %d%% over the last decade",
	"describe expert opinion as divided, with %d%% of surveyed specialists favouring the dominant view",
	"draw their strongest evidence from longitudinal data covering %d years",
	"note that regulatory attention rose sharply after 2020, with %d new guidance documents",
	"identify %d recurring failure modes in documented deployments",
	"attribute most of the observed variation to %d measurable factors",
}

// publishers and titles make plausible citations on reserved example domains.
var publishers = []string{
	"Journal of Applied Research", "National Statistics Office", "Open Policy Institute",
	"Review of Empirical Studies", "Technical Report Series", "International Survey Consortium",
	"University Press", "Annual Review of Methods",
}

var titleForms = []string{
	"A systematic review of %s", "%s: evidence from a decade of practice", "Measuring %s",
	"Revisiting %s", "%s in comparative perspective", "An introduction to %s",
	"%s: a working paper", "Trends in %s",
}

var urlForms = []string{
	"https://journals.example.org/articles/%s-%d",
	"https://doi.example.org/10.5555/%d.%s",
	"https://stats.example.net/reports/%s/%d",
	"https://www.example.com/research/%s?id=%d",
}

// knowledgeGaps describe what the research could not settle; %s is the topic.
var knowledgeGaps = []string{
	"Few sources cover %s outside high-income countries",
	"No independent replication of the headline figures on %s was found",
	"Long-term effects of %s remain unmeasured",
	"Sources define %s differently, which limits direct comparison",
	"Most data on %s predate 2022 and may be out of date",
}

// reviewGaps are what the mock reviewer asks of a topic; %s is the topic.
var reviewGaps = []string{
	"Cite a primary source for the main quantitative finding on %s",
	"Explain how the sources' definitions of %s differ and why it matters",
	"Add evidence from at least one independent study of %s",
	"Quantify the uncertainty around the headline estimate for %s",
}

// reportGaps are what the mock final reviewer asks of a report; each has
// the revision that answers it in reportFixes.
var reportGaps = []string{
	"Executive Summary: state the overall confidence the evidence supports",
	"Methodology: explain how conflicting sources were weighed",
	"Findings: make the links between the depth-0 topics explicit",
}

var reportFixes = map[string]string{
	reportGaps[0]: "Taken together, the evidence supports these conclusions with moderate confidence: the main findings agree across independent sources, while the knowledge gaps listed under each topic remain open.",
	reportGaps[1]: "Where sources disagreed, findings backed by primary data and by more than one independent source were preferred, and the disagreement is reported rather than resolved.",
	reportGaps[2]: "The topics below are connected: the mechanisms described in one explain the outcomes and limits reported in the others, so they should be read together.",
}
