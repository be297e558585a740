package alerts

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mia-game/mia/lobby"
)

// readmeBlock is the first fenced block of lang in the README that reads
// the secret (MIA_SECRET).
func readmeBlock(t *testing.T, lang string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rest := string(b)
	for {
		_, after, ok := strings.Cut(rest, "```"+lang+"\n")
		block, next, closed := strings.Cut(after, "```\n")
		switch {
		case !ok || !closed:
			t.Fatalf("README.md has no %s block that checks a signature", lang)
		case strings.Contains(block, "MIA_SECRET"):
			return block
		}
		rest = next
	}
}

// TestReadmeChecksSignatures runs the README's examples of a receiver's
// check, in Python and in a shell, on a real delivery: each says ok, and
// refuses the same delivery with its body changed.
func TestReadmeChecksSignatures(t *testing.T) {
	rc := newReceiver(t, nil)
	const secret = "a secret of the team's"
	e := newEnv(t, Config{Secret: secret, Hooks: []ServerHook{{rc.URL, JSON}}})
	e.lob.Publish(lobby.News{Kind: lobby.NewsTableOpened, Table: "den", Seats: 4, Host: "p:0"})
	got := rc.wait(t, "table.opened")
	dir := t.TempDir()
	for _, ex := range []struct {
		lang, file, run string
	}{
		{"python", "verify.py", "python3"},
		{"sh", "verify.sh", "sh"},
	} {
		t.Run(ex.lang, func(t *testing.T) {
			path := filepath.Join(dir, ex.file)
			if err := os.WriteFile(path, []byte(readmeBlock(t, ex.lang)), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				body []byte
				ok   bool
			}{
				{"as delivered", got.body, true},
				{"its body changed", bytes.Replace(got.body, []byte(`"den"`), []byte(`"Den"`), 1), false},
			} {
				cmd := exec.Command(ex.run, path, got.header.Get(HeaderSignature))
				cmd.Env = append(os.Environ(), "MIA_SECRET="+secret)
				cmd.Stdin = bytes.NewReader(tc.body)
				out, err := cmd.Output()
				var ee *exec.ExitError
				switch {
				case errors.Is(err, exec.ErrNotFound):
					t.Fatalf("the README's %s example needs %s, which this machine lacks: %v", ex.lang, ex.run, err)
				case tc.ok && (err != nil || strings.TrimSpace(string(out)) != "ok"):
					t.Fatalf("%s: %q %v", tc.name, out, err)
				case !tc.ok && (!errors.As(err, &ee) || ee.ExitCode() != 1):
					t.Fatalf("%s: accepted (%q %v)", tc.name, out, err)
				}
			}
		})
	}
}
