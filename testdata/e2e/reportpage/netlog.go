package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// netLog is the part of Chromium's --log-net-log file read here.
type netLog struct {
	Constants struct {
		LogEventTypes map[string]int `json:"logEventTypes"`
	} `json:"constants"`
	Events []struct {
		Type   int            `json:"type"`
		Params map[string]any `json:"params"`
	} `json:"events"`
}

// pageRequests prints every network request a file:// page started and
// returns 1 if there was one, 2 if the log cannot be read. A request
// belongs to the page when its network isolation key is the file:// origin;
// the browser's own background requests (updates, sign-in) have none and
// are not the page's doing.
func pageRequests(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reportpage:", err)
		return 2
	}
	var nl netLog
	if err := json.Unmarshal(data, &nl); err != nil {
		fmt.Fprintf(os.Stderr, "reportpage: %s: %v\n", path, err)
		return 2
	}
	start, ok := nl.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		fmt.Fprintf(os.Stderr, "reportpage: %s: no URL_REQUEST_START_JOB event type\n", path)
		return 2
	}
	found := 0
	for _, e := range nl.Events {
		if e.Type != start {
			continue
		}
		url, _ := e.Params["url"].(string)
		key, _ := e.Params["network_isolation_key"].(string)
		if strings.HasPrefix(url, "file:") || !strings.HasPrefix(key, "file://") {
			continue
		}
		fmt.Println("page request:", url)
		found++
	}
	if found > 0 {
		return 1
	}
	return 0
}
