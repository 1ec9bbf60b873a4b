package index

import (
	"math"
	"slices"
)

// BM25 parameters, the usual defaults.
const (
	k1 = 1.2
	b  = 0.75
)

func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Query is a weighted bag of terms. Weights let a caller stress some words
// (a review's gaps) over others.
type Query map[string]float64

// Add adds the terms of text with weight w, and the declaration terms of
// the identifiers it names (see DeclTerms).
func (q Query) Add(text string, w float64) Query {
	for _, t := range Terms(text) {
		q[t] += w
	}
	for _, t := range identTerms(text) {
		if q[t] < w {
			q[t] = w
		}
	}
	return q
}

// Search returns the k best passages for q by BM25, best first. filter, if
// not nil, limits the candidates.
func (ix *Index) Search(q Query, k int, filter func(doc int) bool) []Hit {
	n := len(ix.pFile)
	if n == 0 || k <= 0 {
		return nil
	}
	terms := make([]string, 0, len(q))
	for t := range q {
		terms = append(terms, t)
	}
	slices.Sort(terms) // a fixed summation order keeps scores bit-identical
	avg := float64(ix.totalLen) / float64(n)
	scores := make([]float64, n)
	var touched []int
	for _, t := range terms {
		i := ix.term(t)
		if i < 0 || q[t] == 0 {
			continue
		}
		w := q[t] * idf(n, int(ix.df[i]))
		ix.postings(i, func(doc int, tf uint32) {
			if scores[doc] == 0 {
				touched = append(touched, doc)
			}
			f := float64(tf)
			norm := k1 * (1 - b + b*float64(ix.pLen[doc])/avg)
			scores[doc] += w * f * (k1 + 1) / (f + norm)
		})
	}
	better := func(x, y Hit) bool {
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		return ix.less(x.Doc, y.Doc)
	}
	// top holds the k best so far, worst first: a small sorted window beats
	// sorting every candidate when k is a handful and candidates are many.
	top := make([]Hit, 0, k+1)
	cw := weights(q)
	for _, doc := range touched {
		if filter != nil && !filter(doc) {
			continue
		}
		h := Hit{Doc: doc, Score: scores[doc] * cw[ix.class[ix.pFile[doc]]]}
		if len(top) == k && !better(h, top[0]) {
			continue
		}
		pos, _ := slices.BinarySearchFunc(top, h, func(e, t Hit) int {
			if better(t, e) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, pos, h)
		if len(top) > k {
			top = top[1:]
		}
	}
	slices.Reverse(top)
	return top
}

// ScoreText is the BM25 score of a piece of text for q, as if it were a
// passage of the index: how well a quotation covers a criterion. extra are
// terms the text carries besides its words (its DeclTerms).
func (ix *Index) ScoreText(q Query, text string, extra ...string) float64 {
	n := len(ix.pFile)
	if n == 0 {
		return 0
	}
	tf := map[string]float64{}
	length := 0.0
	Tokens(text, nil, func(t []byte) {
		tf[string(t)]++
		length++
	})
	for _, t := range extra {
		tf[t]++
	}
	terms := make([]string, 0, len(q))
	for t := range q {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	avg := float64(ix.totalLen) / float64(n)
	score := 0.0
	for _, t := range terms {
		f := tf[t]
		if f == 0 {
			continue
		}
		norm := k1 * (1 - b + b*length/avg)
		score += q[t] * ix.IDF(t) * f * (k1 + 1) / (f + norm)
	}
	return score
}
