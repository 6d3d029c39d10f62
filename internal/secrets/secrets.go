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

// rule is one issuer's credential shape. Its keywords are literals every
// match holds (lower case for a rule that ignores case): text that holds
// none is not matched against the pattern, which is compiled on first use.
// Most records hold none, so most writes compile and run no pattern.
type rule struct {
	name       string
	keywords   []string
	ignoreCase bool
	re         func() *regexp.Regexp
}

func newRule(name, pattern string, keywords ...string) rule {
	return rule{name: name, keywords: keywords, ignoreCase: strings.HasPrefix(pattern, "(?i)"),
		re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// The shapes are the documented formats of each issuer; each is long and
// specific enough that ordinary prose does not match. Made on first use:
// most commands never scan.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		newRule("private key block", `-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----`, "PRIVATE KEY"),
		newRule("AWS access key id", `\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`, "AKIA", "ASIA", "ABIA", "ACCA"),
		newRule("AWS secret access key", `(?i)aws_?secret_?access_?key["'\s:=]+[A-Za-z0-9/+]{40}\b`, "aws"),
		newRule("GitHub token", `\bgh[pousr]_[A-Za-z0-9]{36,}\b`, "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
		newRule("GitHub fine-grained token", `\bgithub_pat_[A-Za-z0-9_]{60,}\b`, "github_pat_"),
		newRule("GitLab token", `\bglpat-[A-Za-z0-9_\-]{20,}\b`, "glpat-"),
		newRule("Slack token", `\bxox[abposr]-[A-Za-z0-9-]{10,}\b`, "xox"),
		newRule("Google API key", `\bAIza[0-9A-Za-z_\-]{35}\b`, "AIza"),
		newRule("Stripe secret key", `\b[sr]k_live_[0-9A-Za-z]{20,}\b`, "k_live_"),
		newRule("Anthropic API key", `\bsk-ant-[A-Za-z0-9_\-]{20,}\b`, "sk-ant-"),
		newRule("OpenAI API key", `\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}T3BlbkFJ[A-Za-z0-9_\-]{20,}\b`, "T3BlbkFJ"),
		newRule("npm token", `\bnpm_[A-Za-z0-9]{36}\b`, "npm_"),
		newRule("JSON web token", `\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b`, "eyJ"),
	}
})

// mayMatch reports whether text holds one of r's keywords (lower is text
// in lower case, made once per scan when a rule needs it).
func (r rule) mayMatch(text string, lower func() string) bool {
	if r.ignoreCase {
		text = lower()
	}
	for _, k := range r.keywords {
		if strings.Contains(text, k) {
			return true
		}
	}
	return false
}

// Scan returns the credentials found in text, in order of appearance.
func Scan(text string) []Finding {
	var found []Finding
	lower := sync.OnceValue(func() string { return strings.ToLower(text) })
	for _, r := range rules() {
		if !r.mayMatch(text, lower) {
			continue
		}
		for _, loc := range r.re().FindAllStringIndex(text, -1) {
			found = append(found, Finding{Rule: r.name, Line: 1 + strings.Count(text[:loc[0]], "\n"), Text: text[loc[0]:loc[1]]})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Line < found[j].Line })
	return found
}
