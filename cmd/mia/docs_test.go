package main

import (
	"bufio"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The project's docs are Markdown pages beside the code, README.md the
// front door. These tests read every page of the tree.

const maxReadmeLines = 300

var (
	// mdLink is an inline link or image: [text](target) or ![alt](target).
	mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// commitRef is a short commit hash in backticks: history, which
	// belongs in git log.
	commitRef = regexp.MustCompile("`([0-9a-f]{7,12})`")
)

// repoRoot is the module's root, two folders up from cmd/mia.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// docPages lists every Markdown file of the tree, outside .git and
// testdata.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			pages = append(pages, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("found only %d pages under %s", len(pages), root)
	}
	return pages
}

// page is a Markdown file's links and the anchors of its headings, code
// blocks left out.
type page struct {
	links   []link
	anchors map[string]bool
	lines   int
	commits []link
}

type link struct {
	line   int
	target string
}

func readPage(t *testing.T, path string) page {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	inCode := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		p.lines++
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if strings.HasPrefix(text, "#") {
			title := strings.TrimSpace(strings.TrimLeft(text, "#"))
			slug := slugOf(title)
			if n := seen[slug]; n > 0 {
				p.anchors[slug+"-"+strconv.Itoa(n)] = true
			} else {
				p.anchors[slug] = true
			}
			seen[slug]++
		}
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			p.links = append(p.links, link{p.lines, m[1]})
		}
		for _, m := range commitRef.FindAllStringSubmatch(text, -1) {
			if strings.ContainsAny(m[1], "0123456789") && strings.ContainsAny(m[1], "abcdef") {
				p.commits = append(p.commits, link{p.lines, m[1]})
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return p
}

// slugOf is a heading's anchor as GitHub makes it: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func slugOf(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestReadmeIsAFrontDoor(t *testing.T) {
	root := repoRoot(t)
	p := readPage(t, filepath.Join(root, "README.md"))
	if p.lines > maxReadmeLines {
		t.Errorf("README.md has %d lines; at most %d: put the topic in the page beside its code", p.lines, maxReadmeLines)
	}
}

func TestDocLinksResolve(t *testing.T) {
	root := repoRoot(t)
	pages := map[string]page{}
	for _, path := range docPages(t, root) {
		pages[path] = readPage(t, path)
	}
	for path, p := range pages {
		rel, _ := filepath.Rel(root, path)
		for _, l := range p.links {
			u, err := url.Parse(l.target)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", rel, l.line, l.target, err)
				continue
			}
			if u.Scheme != "" {
				web := (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
				if !web && u.Scheme != "mailto" {
					t.Errorf("%s:%d: link %q is not a web address", rel, l.line, l.target)
				}
				continue // outside the tree: not fetched by a test
			}
			target := path
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(path), filepath.FromSlash(u.Path))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link %q: no such file", rel, l.line, l.target)
					continue
				}
			}
			if u.Fragment == "" {
				continue
			}
			tp, ok := pages[target]
			if !ok {
				t.Errorf("%s:%d: link %q: an anchor in a file that is not a page", rel, l.line, l.target)
				continue
			}
			if !tp.anchors[u.Fragment] {
				t.Errorf("%s:%d: link %q: no heading makes the anchor #%s", rel, l.line, l.target, u.Fragment)
			}
		}
	}
}

func TestDocsNameNoCommits(t *testing.T) {
	root := repoRoot(t)
	for _, path := range docPages(t, root) {
		rel, _ := filepath.Rel(root, path)
		for _, c := range readPage(t, path).commits {
			t.Errorf("%s:%d: `%s` looks like a commit: a doc says what is true now; history is git log's", rel, c.line, c.target)
		}
	}
}

func TestSlugOf(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Limits", "limits"},
		{"Behind a load balancer", "behind-a-load-balancer"},
		{"3. JSON of a finished game (`replay GAME --json`)", "3-json-of-a-finished-game-replay-game---json"},
		{"Browsers: what a web watcher costs", "browsers-what-a-web-watcher-costs"},
	} {
		if got := slugOf(tc.title); got != tc.want {
			t.Errorf("slugOf(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
