// Command rgit runs deep research as a git-native loop.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, newIO(os.Stdin, os.Stdout, os.Stderr))
	stop()
	os.Exit(code)
}
