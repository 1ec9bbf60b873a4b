package tides

// Moon is the body whose pull raises the
// larger part of the tide.
//
// The pull falls off with the cube of the
// distance, so the near side and the far
// side of the Earth feel different forces.
//
// ...
// ...
// Height is the tide at time t.
func Height(t float64) float64 {
	return amplitude * cos(omega*t)
}

const amplitude = 1

var omega = 1.0
