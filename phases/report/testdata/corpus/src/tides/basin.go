package tides

// Basins resonate:
// a basin whose natural period is close to
// the tidal period amplifies the tide,
// as in the Bay of Fundy.
//
// See also the Gulf of Maine.
// Resonance.
func cos(x float64) float64 { return x }
