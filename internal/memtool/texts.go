package memtool

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// The protocol's answers. Where the memory tool's documentation gives a
// text, it is that text, prefix ("Error: ") and all; where it gives none,
// the text is the one Anthropic's SDKs answer (their local-filesystem
// memory tools), or, for view_range, the text editor tool's, whose error
// handling the documentation says the memory tool shares; the few cases
// neither covers (a hidden name, binary text, a missing parameter) answer
// in the same voice. testdata/protocol.txt holds each as a fixture.

// Refusal is a command the protocol refuses: Text is the answer the model
// is shown, Kind what kind of refusal it is (for an exit code).
type Refusal struct {
	Kind planqerr.Kind
	Text string
}

func (r *Refusal) Error() string { return r.Text }

func refusef(kind planqerr.Kind, format string, args ...any) error {
	return &Refusal{Kind: kind, Text: fmt.Sprintf(format, args...)}
}

// AsRefusal returns the refusal err is, if it is one.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// Success texts.
func listingHeader(path string) string {
	return "Here're the files and directories up to 2 levels deep in " + path + ", excluding hidden items and node_modules:"
}

func fileHeader(path string) string { return "Here's the content of " + path + " with line numbers:" }

func created(path string) string { return "File created successfully at: " + path }

const edited = "The memory file has been edited. Here is the snippet showing the change (with line numbers):"

func inserted(path string) string { return "The file " + path + " has been edited." }

func deleted(path string) string { return "Successfully deleted " + path }

func renamed(from, to string) string { return "Successfully renamed " + from + " to " + to }

// Error texts.

// notFoundView answers view of a path that is not there; str_replace
// answers it with the prefix (as the documentation has it), also for a
// directory, which holds no text to replace.
func notFoundView(path string) error {
	return refusef(planqerr.NotFound, "The path %s does not exist. Please provide a valid path.", path)
}

func notFoundReplace(path string) error {
	return refusef(planqerr.NotFound, "Error: The path %s does not exist. Please provide a valid path.", path)
}

// notFound answers insert, delete and rename of a path that is not there.
func notFound(path string) error {
	return refusef(planqerr.NotFound, "Error: The path %s does not exist", path)
}

func exists(path string) error {
	return refusef(planqerr.Exists, "Error: File %s already exists", path)
}

func destinationExists(path string) error {
	return refusef(planqerr.Exists, "Error: The destination %s already exists", path)
}

// unchanged answers a str_replace whose new_str is its old_str: the
// protocol's "No replacement was performed" says what did not happen, and
// a refusal keeps a model that meant a change from taking it as made.
func unchanged(path string) error {
	return refusef(planqerr.Invalid, "No replacement was performed: old_str and new_str are the same, so %s is unchanged.", path)
}

func notVerbatim(oldStr, path string) error {
	return refusef(planqerr.NotFound, "No replacement was performed, old_str `%s` did not appear verbatim in %s.", oldStr, path)
}

func multiple(oldStr string, lines []int) error {
	nums := make([]string, len(lines))
	for i, n := range lines {
		nums[i] = strconv.Itoa(n)
	}
	return refusef(planqerr.Invalid, "No replacement was performed. Multiple occurrences of old_str `%s` in lines: %s. Please ensure it is unique", oldStr, strings.Join(nums, ", "))
}

func insertLineRange(line, n int) error {
	return refusef(planqerr.Invalid, "Error: Invalid `insert_line` parameter: %d. It should be within the range of lines of the file: [0, %d]", line, n)
}

func tooManyLines(path string) error {
	return refusef(planqerr.Invalid, "File %s exceeds maximum line limit of 999,999 lines.", path)
}

func viewRangeShape() error {
	return refusef(planqerr.Invalid, "Error: Invalid `view_range`. It should be a list of two integers.")
}

func viewRangeFirst(r []int, n int) error {
	return refusef(planqerr.Invalid, "Error: Invalid `view_range`: %s. Its first element `%d` should be within the range of lines of the file: [1, %d]", showRange(r), r[0], n)
}

func viewRangeBeyond(r []int, n int) error {
	return refusef(planqerr.Invalid, "Error: Invalid `view_range`: %s. Its second element `%d` should be smaller than the number of lines in the file: `%d`", showRange(r), r[1], n)
}

func viewRangeBackwards(r []int) error {
	return refusef(planqerr.Invalid, "Error: Invalid `view_range`: %s. Its second element `%d` should be larger or equal than its first `%d`", showRange(r), r[1], r[0])
}

func viewRangeOnDirectory() error {
	return refusef(planqerr.Invalid, "Error: The `view_range` parameter is not allowed when `path` points to a directory.")
}

func showRange(r []int) string { return fmt.Sprintf("[%d, %d]", r[0], r[1]) }

func deleteRoot() error {
	return refusef(planqerr.Invalid, "Error: Cannot delete the %s directory itself", Root)
}

func renameRoot() error {
	return refusef(planqerr.Invalid, "Error: Cannot rename the %s directory itself", Root)
}

func symlink(path string) error {
	return refusef(planqerr.Refused, "Error: Path %s would escape %s directory via symlink", path, Root)
}

func notDirectory(path, parent string) error {
	return refusef(planqerr.Invalid, "Error: Cannot create %s: %s is a file, not a directory", path, parent)
}

// createDirectory answers a create whose path ends in '/'; renameFileToDirectory
// a rename of a file to such a path. Either would make a file of a name
// the model wrote as a directory's.
func createDirectory(path string) error {
	return refusef(planqerr.Invalid, "Error: Cannot create %s: the path ends with '/', so it names a directory, and create makes a file", path)
}

func renameFileToDirectory(from, to string) error {
	return refusef(planqerr.Invalid, "Error: Cannot rename %s to %s: the path ends with '/', so it names a directory, and %s is a file", from, to, from)
}

// pathTooLong answers a path the file system refused as too long (each
// name fits, see MaxName; the whole does not).
func pathTooLong(path string) error {
	return refusef(planqerr.Invalid, "Error: The path %s is too long for the file system", path)
}

func intoItself(from, to string) error {
	return refusef(planqerr.Invalid, "Error: Cannot move %s into itself (%s)", from, to)
}

func notText(path string) error {
	return refusef(planqerr.Invalid, "Error: The file %s is not UTF-8 text; the memory tool reads and writes text only", path)
}

func missing(param, command string) error {
	return refusef(planqerr.Invalid, "Error: Parameter `%s` is required for command: %s", param, command)
}

func unknownCommand(command string) error {
	return refusef(planqerr.Invalid, "Error: Unrecognized command %s. The allowed commands for the memory tool are: view, create, str_replace, insert, delete, rename", command)
}

func nullParam(param, want string) error {
	return refusef(planqerr.Invalid, "Error: Parameter `%s` must be %s, not null", param, want)
}

func emptyOldStr() error {
	return refusef(planqerr.Invalid, "Error: Parameter `old_str` is empty; give the text to replace, as it appears in the file")
}

// checkFailed answers a write the record checks refused (too large,
// binary, a credential): the check's own words, with its hint.
func checkFailed(err error) error {
	kind := planqerr.KindOf(err)
	text := "Error: " + err.Error()
	var pe *planqerr.Error
	if errors.As(err, &pe) && pe.Hint != "" {
		text += "\nhint: " + pe.Hint
	}
	return &Refusal{Kind: kind, Text: text}
}
