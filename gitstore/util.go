package gitstore

import "sort"

// sortedKeys returns a map's keys in byte order, which puts every directory
// before the paths inside it.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
