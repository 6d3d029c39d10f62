package main

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// modelPagesMapped starts bin with args, a command that waits on stdin,
// and counts the pages of the embedded model (the file at model, found in
// the binary by its first bytes) that the process has mapped once it
// waits: the model is read on first use, so a command that does not
// search should map none but the few at its edges.
func modelPagesMapped(dir, bin, model string, args ...string) (mapped, pages int, err error) {
	data, err := os.ReadFile(model)
	if err != nil {
		return 0, 0, err
	}
	if len(data) < 4096 {
		return 0, 0, fmt.Errorf("%s holds no model", model)
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		return 0, 0, err
	}
	off := bytes.Index(exe, data[:4096])
	if off < 0 {
		return 0, 0, errors.New("the model is not in the binary")
	}
	f, err := elf.Open(bin)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var addr uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && uint64(off) >= p.Off && uint64(off) < p.Off+p.Filesz {
			addr = p.Vaddr + uint64(off) - p.Off
		}
	}
	if addr == 0 {
		return 0, 0, errors.New("the model is in no loaded segment")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	// Waiting on stdin: asleep in a read, after start-up.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
		if err != nil {
			return 0, 0, fmt.Errorf("%s %s exited before waiting on stdin", bin, strings.Join(args, " "))
		}
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" S")) {
			time.Sleep(200 * time.Millisecond) // every thread settled
			break
		}
		if time.Now().After(deadline) {
			return 0, 0, errors.New("the command never waited on stdin")
		}
	}
	pm, err := os.Open(fmt.Sprintf("/proc/%d/pagemap", cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	defer pm.Close()
	first, last := addr/4096, (addr+uint64(len(data))-1)/4096
	entries := make([]byte, 8*(last-first+1))
	if _, err := pm.ReadAt(entries, int64(first*8)); err != nil {
		return 0, 0, err
	}
	for i := 0; i < len(entries); i += 8 {
		if binary.LittleEndian.Uint64(entries[i:])&(1<<63) != 0 { // present
			mapped++
		}
	}
	return mapped, int(last - first + 1), nil
}
