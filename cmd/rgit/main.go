// Command rgit runs deep research as a git-native loop.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	os.Exit(rgitMain())
}

// rgitMain is main without os.Exit: the stop signals cancel the run's
// context, and the exit status is returned.
func rgitMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return run(ctx, os.Args, newIO(os.Stdin, os.Stdout, os.Stderr))
}
