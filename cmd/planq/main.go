// Command planq gives AI coding agents a memory that lives in git.
package main

import (
	"os"

	"github.com/planq-dev/planq/cli"
)

func main() { os.Exit(cli.Main()) }
