package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// measuredFlag makes the bench a small process that runs one command and
// reports that command's wall time and peak RSS. The kernel counts, in a
// child's peak RSS, the peak of the process that started it (the child
// is started sharing its parent's memory, and its peak is taken when it
// execs): a command the bench starts after seeding 50,000 records would
// report the bench's own 90 MiB. A fresh, small bench process in between
// leaves only its own few MiB under the command's.
const measuredFlag = "-measured-child"

// measuredChild runs args with this process's streams and writes
// "<wall ns> <peak KiB>" on file descriptor 3; it exits as the command did.
func measuredChild(args []string) int {
	report := os.NewFile(3, "report")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Fprintf(report, "%d %d\n", d.Nanoseconds(), exitedPeakKiB(cmd.ProcessState))
	return cmd.ProcessState.ExitCode()
}

// runMeasured runs cmd (its Dir, Env and streams set, not started) through
// a measured child, and returns the command's wall time and peak RSS in KiB.
func runMeasured(cmd *exec.Cmd) (time.Duration, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	helper := exec.Command(self, append([]string{measuredFlag, cmd.Path}, cmd.Args[1:]...)...)
	helper.Dir, helper.Env = cmd.Dir, cmd.Env
	helper.Stdin, helper.Stdout, helper.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
	helper.ExtraFiles = []*os.File{w}
	if err := helper.Start(); err != nil {
		w.Close()
		return 0, 0, err
	}
	w.Close()
	report, readErr := io.ReadAll(r)
	if err := helper.Wait(); err != nil {
		return 0, 0, err
	}
	if readErr != nil {
		return 0, 0, readErr
	}
	var ns, kib int64
	if _, err := fmt.Sscanf(string(report), "%d %d", &ns, &kib); err != nil {
		return 0, 0, fmt.Errorf("measured child reported %q: %w", report, err)
	}
	return time.Duration(ns), kib, nil
}
