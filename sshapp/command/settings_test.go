package command

import (
	"context"
	"encoding/json"
	"testing"
)

// TestSettingsCommand: each setting of the table is listed, as it is at
// first;
// on and off are stored with the person (every key of theirs reads them)
// and the session's person follows; a wrong name or value, or a key that
// is nobody's yet, changes nothing.
func TestSettingsCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann, nameless := h.person("ann"), h.key("nameless")
	// fresh is ann as a new session of hers reads her.
	fresh := func() who {
		p, err := h.st.Person(context.Background(), ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		return who{Key: ann.Key, Person: p}
	}
	h.run(ann, "settings").expect(t, ExitOK, []string{"plain off", "screen readers", "settings NAME on|off"}, nil)
	r := h.run(ann, "settings", "plain", "on")
	r.expect(t, ExitOK, []string{"plain is on now."}, nil)
	if !r.session.player.Settings.Plain {
		t.Errorf("the session's person after settings plain on: %+v", r.session.player.Settings)
	}
	h.run(fresh(), "settings").expect(t, ExitOK, []string{"plain on"}, nil)
	for _, bad := range [][]string{{"plain"}, {"plain", "maybe"}, {"sound", "on"}, {"plain", "on", "now"}} {
		h.run(fresh(), append([]string{"settings"}, bad...)...).expect(t, ExitUsage, nil, []string{"usage"})
	}
	h.run(nameless, "settings", "plain", "on").expect(t, ExitRefused, nil, []string{"choose a name first"})
	if !fresh().Settings.Plain {
		t.Fatal("a refused change changed the setting")
	}
	h.run(fresh(), "settings", "PLAIN", "Off").expect(t, ExitOK, []string{"plain is off now."}, nil)
	var doc map[string]bool
	r = h.run(fresh(), "settings", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc) != len(settingsTable) || doc["plain"] {
		t.Fatalf("settings --json: %v, %s", err, r.stdout)
	}
	h.run(ann, "help", "settings").expect(t, ExitOK, []string{"usage:", "settings [NAME on|off]", "plain", "screen readers"}, nil)
}

// TestBellSetting: the bell is on at first; settings bell off keeps it off
// for every key of the person's (store.Settings.BellOff), on again after.
func TestBellSetting(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ann := h.person("ann")
	h.run(ann, "settings").expect(t, ExitOK, []string{"bell on", "a bell (BEL) with each notice"}, nil)
	h.run(ann, "settings", "bell", "off").expect(t, ExitOK, []string{"bell is off now."}, nil)
	p, err := h.st.Person(context.Background(), ann.ID)
	if err != nil || !p.Settings.BellOff || p.Settings.Plain {
		t.Fatalf("stored %+v %v", p.Settings, err)
	}
	var doc map[string]bool
	r := h.run(who{Key: ann.Key, Person: p}, "settings", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc["bell"] || doc["plain"] {
		t.Fatalf("settings --json: %v, %s", err, r.stdout)
	}
	h.run(ann, "settings", "bell", "on").expect(t, ExitOK, []string{"bell is on now."}, nil)
	if p, _ := h.st.Person(context.Background(), ann.ID); p.Settings.BellOff {
		t.Fatal("bell on left it off")
	}
}
