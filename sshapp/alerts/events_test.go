package alerts

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/store/lobbystore"
)

func (gameLinks) Event(name string, a lobby.Access) string {
	if !(lobby.Viewer{}).Sees(a) {
		return ""
	}
	return "https://mia.example.org/events/" + name
}

// TestEventNews: an event's news reaches the server's hooks in every
// format, signed: event.opened with the line to play, event.started, and
// event.ended with its champion and points once its standings are final;
// a private event's never does.
func TestEventNews(t *testing.T) {
	rj, rs, rn := newReceiver(t, nil), newReceiver(t, nil), newReceiver(t, nil)
	const secret = "It's a Secret to Everybody"
	e := newEnv(t, Config{Secret: secret, Hooks: []ServerHook{{rj.URL, JSON}, {rs.URL, Slack}, {rn.URL, Ntfy}},
		Links: gameLinks{}})
	reg, err := events.Open(ctxT(t), events.Config{Lobby: e.lob, Store: lobbystore.NewEvents(e.st)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	alice := e.person("alice")
	rules := engine.DefaultOptions()
	rules.Lives = 1
	run := func(name string, private bool) events.Info {
		t.Helper()
		ev, err := reg.Create(ctxT(t), alice, events.Settings{Name: name, Format: events.Knockout, Seats: 2, Rules: rules, Bots: 2, Private: private})
		if err != nil {
			t.Fatal(err)
		}
		if err := ev.Start(ctxT(t), alice); err != nil {
			t.Fatal(err)
		}
		var info events.Info
		eventually(t, func() bool { info = ev.Info(); return info.Final })
		return info
	}
	run("den", true) // first: a hook hears its news in order, so the den's would come before the cup's
	cup := run("cup", false)
	if cup.Champion == nil {
		t.Fatal("the cup has no champion")
	}
	for _, k := range []string{"event.opened", "event.started", "event.ended"} {
		for _, rc := range []*receiver{rj, rs, rn} {
			got := rc.wait(t, k)
			if !verify(secret, got) || !uuidRe.MatchString(got.header.Get(HeaderDelivery)) {
				t.Errorf("%s to %s: signature %q, delivery id %q", k, rc.URL, got.header.Get(HeaderSignature), got.header.Get(HeaderDelivery))
			}
		}
	}
	for _, rc := range []*receiver{rj, rs, rn} {
		rc.mu.Lock()
		for _, g := range rc.got {
			if strings.Contains(string(g.body), "den") || strings.Contains(g.header.Get("Title"), "den") {
				t.Errorf("a server hook heard of the private event: %s %s", g.header.Get(HeaderEvent), g.body)
			}
		}
		rc.mu.Unlock()
	}
	doc := func(kind string) Doc {
		t.Helper()
		var d Doc
		if err := json.Unmarshal(rj.wait(t, kind).body, &d); err != nil || d.Event == nil {
			t.Fatalf("%s: %+v %v", kind, d, err)
		}
		return d
	}
	opened := doc("event.opened")
	if ev := opened.Event; ev.Name != "cup" || ev.Host != "alice" || ev.Format != "knockout" || ev.Seats != 2 || ev.Private ||
		ev.Entrants != 2 || !ev.StartsAt.IsZero() || ev.Champion != nil || opened.Table != nil ||
		opened.Play != "ssh -t -p 23234 mia.example.org play --event cup" || opened.URL != "https://mia.example.org/events/cup" ||
		opened.Text != "alice made the event cup, a knockout at tables of 2; "+ev.Rules+". It starts when its host starts it." {
		t.Errorf("event.opened %+v %+v", opened, opened.Event)
	}
	if started := doc("event.started"); started.Text != "The event cup began, a knockout, with 2 entrants." {
		t.Errorf("event.started %q", started.Text)
	}
	ended := doc("event.ended")
	champion := e.lob.Name(cup.Champion.ID)
	if c := ended.Event.Champion; c == nil || c.Name != champion || !c.Bot || c.Points == nil || *c.Points != cup.Champion.Points ||
		ended.Play != "" || ended.URL != "https://mia.example.org/events/cup" ||
		!strings.HasPrefix(ended.Text, "The event cup is over: "+champion+" [bot] is its champion, with ") {
		t.Errorf("event.ended %+v %+v", ended, ended.Event.Champion)
	}
	var msg struct{ Text string }
	if err := json.Unmarshal(rs.wait(t, "event.opened").body, &msg); err != nil ||
		!strings.Contains(msg.Text, "Play: `ssh -t -p 23234 mia.example.org play --event cup`") ||
		!strings.Contains(msg.Text, "<https://mia.example.org/events/cup|the event cup on the web>") {
		t.Errorf("slack event.opened %q %v", msg.Text, err)
	}
	n := rn.wait(t, "event.ended")
	if title := n.header.Get("Title"); !strings.Contains(title, "is its champion") || n.header.Get("Click") != "https://mia.example.org/events/cup" {
		t.Errorf("ntfy event.ended: title %q click %q body %q", title, n.header.Get("Click"), n.body)
	}
}
