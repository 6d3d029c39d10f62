package secrets

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Finding is one suspected credential.
type Finding struct {
	// Rule names the kind of credential.
	Rule string
	// Line is the 1-based line it was found on.
	Line int
	// Text is what matched: the credential itself, never to be shown.
	Text string
}

type rule struct {
	name string
	re   *regexp.Regexp
}

// The shapes are the documented formats of each issuer; each is long and
// specific enough that ordinary prose does not match. They are compiled on
// first use: most commands never scan.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{"private key block", regexp.MustCompile(`-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----`)},
		{"AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
		{"AWS secret access key", regexp.MustCompile(`(?i)aws_?secret_?access_?key["'\s:=]+[A-Za-z0-9/+]{40}\b`)},
		{"GitHub token", regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,}\b`)},
		{"GitHub fine-grained token", regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{60,}\b`)},
		{"GitLab token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}\b`)},
		{"Slack token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`)},
		{"Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
		{"Stripe secret key", regexp.MustCompile(`\b[sr]k_live_[0-9A-Za-z]{20,}\b`)},
		{"Anthropic API key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{20,}\b`)},
		{"OpenAI API key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}\b`)},
		{"npm token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)},
		{"JSON web token", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b`)},
	}
})

// Scan returns the credentials found in text, in order of appearance.
func Scan(text string) []Finding {
	var found []Finding
	for _, r := range rules() {
		for _, loc := range r.re.FindAllStringIndex(text, -1) {
			found = append(found, Finding{Rule: r.name, Line: 1 + strings.Count(text[:loc[0]], "\n"), Text: text[loc[0]:loc[1]]})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Line < found[j].Line })
	return found
}
