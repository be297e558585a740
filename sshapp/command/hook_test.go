package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/alerts"
)

// withAlerts is a harness whose commands have the alerts, table hooks
// allowed to allow.
func withAlerts(t *testing.T, allow string) (*harness, *alerts.Alerts) {
	t.Helper()
	var a *alerts.Alerts
	h := newHarness(t, func(c *Config) {
		al, err := alerts.ParseAllow(allow)
		if err != nil {
			t.Fatal(err)
		}
		a, err = alerts.New(context.Background(), alerts.Config{Lobby: c.Lobby, Storage: c.Records.(alerts.Storage), Allow: al,
			Play: "ssh -t -p 23234 mia.test play"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.Close)
		c.Alerts = a
	})
	return h, a
}

func hookReceiver(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "thanks")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTableHook(t *testing.T) {
	rc := hookReceiver(t)
	h, _ := withAlerts(t, "127.0.0.1")
	alice, bob, eve := h.person("alice"), h.person("bob"), h.person("eve")
	h.run(alice, "table", "create", "den", "--private").expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "create", "pub").expect(t, ExitOK, nil, nil)
	for _, tc := range []struct {
		name   string
		who    who
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"none yet", alice, []string{"den"}, ExitOK, []string{"den has no hook. Set one:", "table hook den URL"}, nil},
		{"set", alice, []string{"den", rc.URL + "/a", "--format", "slack"}, ExitOK,
			[]string{"den tells " + rc.URL + "/a (slack) what happens at it", "X-Mia-Signature-256", "table hook den --test"}, nil},
		{"shown", alice, []string{"den"}, ExitOK, []string{"Hooks of den (1 of 3):", rc.URL + "/a (slack)", "secret ", "active",
			"0 delivered, 0 failed, 0 waiting, 0 dropped"}, nil},
		{"tested", alice, []string{"den", "--test"}, ExitOK, []string{rc.URL + "/a", "answered 200 in ", "body: thanks"}, nil},
		{"after the test", alice, []string{"den"}, ExitOK, []string{"(ping): answered 200", "1 delivered"}, nil},
		{"not the host", bob, []string{"pub", rc.URL}, ExitRefused, nil, []string{"mia: only the table's host may do that"}},
		{"a private table, to a stranger", eve, []string{"den"}, ExitRefused, nil, []string{"mia: no such table: den"}},
		{"a host not allowed", alice, []string{"pub", "https://hooks.example.org/x"}, ExitRefused, nil,
			[]string{"does not send hooks to that host"}},
		{"no URL", alice, []string{"pub", "hooks.example.org"}, ExitRefused, nil, []string{"http:// or https:// URL"}},
		{"a format of none", alice, []string{"pub", rc.URL, "--format", "xml"}, ExitUsage, nil, []string{"--format xml: a hook's format is json, slack or ntfy"}},
		{"remove and test at once", alice, []string{"den", "--remove", "--test"}, ExitUsage, nil, []string{"usage:"}},
		{"removed", alice, []string{"den", "--remove"}, ExitOK, []string{"Took 1 hook off den."}, nil},
		{"nothing to test", alice, []string{"den", "--test"}, ExitRefused, nil, []string{"mia: the table has no such hook"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.run(tc.who, append([]string{"table", "hook"}, tc.args...)...).expect(t, tc.code, tc.stdout, tc.stderr)
		})
	}
	for i := range alerts.MaxHooksPerTable {
		h.run(alice, "table", "hook", "pub", fmt.Sprintf("%s/%d", rc.URL, i)).expect(t, ExitOK, nil, nil)
	}
	h.run(alice, "table", "hook", "pub", rc.URL+"/3").expect(t, ExitRefused, nil, []string{"a table has at most 3 hooks"})
	var doc HookDoc
	r := h.run(alice, "table", "hook", "pub", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Hooks) != 3 || doc.Hooks[0].Secret == "" ||
		doc.Hooks[0].State != "active" || doc.Hooks[0].Format != "json" || doc.Table.Name != "pub" {
		t.Fatalf("--json: %s %v", r.stdout, err)
	}
	r = h.run(alice, "table", "hook", "pub", rc.URL+"/0", "--test", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != ExitOK || len(doc.Tests) != 1 || doc.Tests[0].Status != 200 {
		t.Fatalf("--test --json: %d %s %v", r.code, r.stdout, err)
	}
}

func TestTableHookFailingTest(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for the night", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	h, _ := withAlerts(t, "127.0.0.1")
	alice := h.person("alice")
	h.run(alice, "table", "create", "den").expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "hook", "den", down.URL).expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "hook", "den", "--test").expect(t, ExitRefused, []string{"answered 503", "body: down for the night"},
		[]string{"mia: 1 test delivery of 1 failed"})
	// A name it may name, at an address it may not reach.
	h, _ = withAlerts(t, "localhost")
	alice = h.person("alice")
	h.run(alice, "table", "create", "den").expect(t, ExitOK, nil, nil)
	port := down.URL[strings.LastIndex(down.URL, ":"):]
	h.run(alice, "table", "hook", "den", "http://localhost"+port).expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "hook", "den", "--test").expect(t, ExitRefused, []string{"the address 127.0.0.1 is loopback: a table's hook does not"}, nil)
}

func TestTableHookWithoutAlerts(t *testing.T) {
	h := newHarness(t)
	alice := h.person("alice")
	h.run(alice, "table", "create", "den").expect(t, ExitOK, nil, nil)
	for _, args := range [][]string{{"hook", "den"}, {"watch", "den"}, {"invite", "den", "alice"}} {
		h.run(alice, append([]string{"table"}, args...)...).expect(t, ExitRefused, nil, []string{"mia: this server sends no alerts"})
	}
}

func TestTableWatch(t *testing.T) {
	h, _ := withAlerts(t, "")
	alice, bob := h.person("alice"), h.person("bob")
	h.run(alice, "table", "create", "den").expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "create", "hideout", "--private").expect(t, ExitOK, nil, nil)
	h.run(bob, "table", "watch").expect(t, ExitOK, []string{"You watch no table."}, nil)
	h.run(bob, "table", "watch", "DEN").expect(t, ExitOK, []string{"You will be told when a seat is free at den",
		"table watch den --off", "You watch 1 of at most 20: den."}, nil)
	h.run(bob, "table", "watch", "hideout").expect(t, ExitRefused, nil, []string{"mia: no such table: hideout"})
	r := h.run(bob, "table", "watch", "--json")
	if strings.TrimSpace(r.stdout) != "{\n  \"watching\": [\n    \"den\"\n  ]\n}" {
		t.Fatalf("--json %q", r.stdout)
	}
	h.run(bob, "table", "watch", "den", "--off").expect(t, ExitOK, []string{"You no longer watch den."}, nil)
	h.run(bob, "table", "watch", "den", "--off").expect(t, ExitRefused, nil, []string{"mia: you do not watch that table"})
	h.run(bob, "table", "watch", "--off").expect(t, ExitUsage, nil, []string{"table watch takes one table NAME"})
	for i := range alerts.MaxWatches {
		name := fmt.Sprintf("t%d", i)
		host := h.person(fmt.Sprintf("host%d", i)) // a host hosts 10 tables at most
		h.run(host, "table", "create", name).expect(t, ExitOK, nil, nil)
		h.run(bob, "table", "watch", name).expect(t, ExitOK, nil, nil)
	}
	h.run(bob, "table", "watch", "den").expect(t, ExitRefused, nil, []string{"mia: you watch 20 tables already"})
}

func TestTableInvitePerson(t *testing.T) {
	h, a := withAlerts(t, "")
	alice, bob, carol := h.person("alice"), h.person("bob"), h.person("carol")
	h.run(alice, "table", "create", "den", "--private").expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "create", "pub").expect(t, ExitOK, nil, nil)
	bobs, carols := h.lobby.Notices(bob.ID), h.lobby.Notices(carol.ID)
	defer h.lobby.Unfollow(carols)
	defer h.lobby.Unfollow(bobs)
	h.run(alice, "table", "invite", "den", "bob").expect(t, ExitOK, []string{"Invite code for den: ", "join den ",
		"bob was told, on any screen of theirs"}, nil)
	got := hearNotice(t, bobs)
	if got.Kind != lobby.NewsInvited || got.Table != "den" || got.By != alice.ID || len(got.Code) != InviteCodeLen {
		t.Fatalf("bob heard %+v", got)
	}
	invs, err := a.Invitations(context.Background(), bob.ID)
	if err != nil || len(invs) != 1 || invs[0].Code != got.Code {
		t.Fatalf("bob's invitations %+v %v", invs, err)
	}
	// The code works: bob joins with it.
	h.run(bob, "join", "den", got.Code).expect(t, ExitOK, nil, nil)
	h.run(alice, "table", "invite", "den", "bob").expect(t, ExitRefused, nil, []string{"mia: they are the table's host or a member already"})
	// A public table: told, no code.
	r := h.run(alice, "table", "invite", "pub", "carol", "--json")
	var doc TableDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Invited != "carol" || doc.Code != "" {
		t.Fatalf("invite to a public table: %s %v", r.stdout, err)
	}
	if got := hearNotice(t, carols); got.Kind != lobby.NewsInvited || got.Table != "pub" || got.Code != "" {
		t.Fatalf("carol heard %+v", got)
	}
	h.run(bob, "table", "invite", "pub", "carol").expect(t, ExitRefused, nil, []string{"mia: only the table's host may do that"})
	h.run(alice, "table", "invite", "pub").expect(t, ExitRefused, nil, []string{"the table is public"})
	h.run(alice, "table", "invite", "den", "nobody").expect(t, ExitRefused, nil, []string{"no player is called nobody"})
}

// hearNotice waits for the next notice in q.
func hearNotice(t *testing.T, q *lobby.Queue[lobby.News]) lobby.News {
	t.Helper()
	select {
	case <-q.Ready():
		if n, ok := q.Next(); ok {
			return n
		}
	case <-time.After(5 * time.Second):
	}
	t.Fatal("no notice")
	return lobby.News{}
}

func TestTableInviteABot(t *testing.T) {
	h, _ := withAlerts(t, "")
	alice := h.person("alice")
	h.run(alice, "table", "create", "den", "--bots", "1").expect(t, ExitOK, nil, nil)
	info := h.lobby.Tables(lobby.Viewer{ID: alice.ID})[0]
	h.run(alice, "table", "invite", "den", info.Players[0].ID).expect(t, ExitRefused, nil,
		[]string{"is a bot: only a person with keys is told of an invitation"})
}
