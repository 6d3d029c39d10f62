package agent

// flushUses moves the uses noted since the last commit into the files the
// next commit carries (placeholder): it returns their paths, and the
// function to call once that commit landed.
func (a *Agent) flushUses() (paths []string, committed func()) { return nil, func() {} }
