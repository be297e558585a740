package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// protocolEvents are the event lines of PROTOCOL.md §3 ("at" is shown only
// on the first there; every event carries it).
var protocolEvents = []string{
	`{"seq": 1, "at": "2025-03-01T12:00:00Z", "type": "round", "round": 1, "opener": 0}`,
	`{"seq": 2, "type": "roll", "seat": 0, "dice": "43", "looked": true}`,
	`{"seq": 3, "type": "claim", "seat": 0, "value": "52"}`,
	`{"seq": 4, "type": "pass", "seat": 1, "value": "52"}`,
	`{"seq": 5, "type": "challenge", "seat": 2, "claimant": 1, "claim": "52", "dice": "43", "loser": 1, "lives_lost": 1}`,
	`{"seq": 6, "type": "give_up", "seat": 0, "lives_lost": 1}`,
	`{"seq": 7, "type": "timeout", "seat": 0, "lives_lost": 1}`,
	`{"seq": 8, "type": "leave", "seat": 1}`,
	`{"seq": 9, "type": "out", "seat": 1}`,
	`{"seq": 10, "type": "end", "winner": 0}`,
}

func keys(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestEventJSONFieldNames checks, for every event type, that the engine
// writes the field names of PROTOCOL.md §3 and reads §3's lines.
//
// One addition to §3's example: a leave event also carries "lives_lost",
// the lives the leaver had. The store tallies lives lost from it and
// Replay checks it, so it is written; readers that ignore unknown fields
// are unaffected.
func TestEventJSONFieldNames(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	want := map[EventType]Event{
		EvRound:     {Seq: 1, Type: EvRound, Round: 1, Opener: 0},
		EvRoll:      {Seq: 2, Type: EvRoll, Seat: 0, Dice: 43, Looked: true},
		EvClaim:     {Seq: 3, Type: EvClaim, Seat: 0, Value: 52},
		EvPass:      {Seq: 4, Type: EvPass, Seat: 1, Value: 52},
		EvChallenge: {Seq: 5, Type: EvChallenge, Seat: 2, Claimant: 1, Claim: 52, Dice: 43, Loser: 1, LivesLost: 1},
		EvGiveUp:    {Seq: 6, Type: EvGiveUp, Seat: 0, LivesLost: 1},
		EvTimeout:   {Seq: 7, Type: EvTimeout, Seat: 0, LivesLost: 1},
		EvLeave:     {Seq: 8, Type: EvLeave, Seat: 1},
		EvOut:       {Seq: 9, Type: EvOut, Seat: 1},
		EvEnd:       {Seq: 10, Type: EvEnd, Winner: 0},
	}
	for i, line := range protocolEvents {
		var e Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("§3 line %d: %v", i+1, err)
		}
		w := want[e.Type]
		if i == 0 {
			w.At = at
		}
		if !reflect.DeepEqual(e, w) {
			t.Errorf("§3 line %d reads as %+v, want %+v", i+1, e, w)
		}
		e.At = at
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		wantKeys := keys(t, []byte(line))
		if i > 0 {
			wantKeys = append(wantKeys, "at")
		}
		if e.Type == EvLeave {
			wantKeys = append(wantKeys, "lives_lost")
		}
		sort.Strings(wantKeys)
		if got := keys(t, b); !reflect.DeepEqual(got, wantKeys) {
			t.Errorf("%s writes keys %v, §3 has %v", e.Type, got, wantKeys)
		}
		// Same values as §3 (lives_lost of the leave aside).
		var got, ref map[string]any
		json.Unmarshal(b, &got)
		json.Unmarshal([]byte(line), &ref)
		for k, v := range ref {
			if k != "at" && !reflect.DeepEqual(got[k], v) {
				t.Errorf("%s: %q is %v, §3 has %v", e.Type, k, got[k], v)
			}
		}
	}
}

func TestEventJSONExact(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 500, time.FixedZone("CET", 3600))
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Seq: 1, At: at, Type: EvRound, Round: 1, Opener: 0},
			`{"seq":1,"at":"2025-03-01T11:00:00.0000005Z","type":"round","round":1,"opener":0}`},
		{Event{Seq: 2, Type: EvRoll, Seat: 0, Dice: 21, Looked: false},
			`{"seq":2,"type":"roll","seat":0,"dice":"21","looked":false}`},
		{Event{Seq: 2, Type: EvRoll, Seat: 3, Dice: NoValue, Looked: true}, // redacted
			`{"seq":2,"type":"roll","seat":3,"looked":true}`},
		{Event{Seq: 3, Type: EvClaim, Seat: 0, Value: 64, Loser: 5, Winner: 7, Dice: 11}, // stray fields are not written
			`{"seq":3,"type":"claim","seat":0,"value":"64"}`},
		{Event{Seq: 4, Type: EvPass, Seat: 9, Value: Mia},
			`{"seq":4,"type":"pass","seat":9,"value":"21"}`},
		{Event{Seq: 5, Type: EvChallenge, Seat: 0, Claimant: 0, Claim: 66, Dice: 31, Loser: 0, LivesLost: 2},
			`{"seq":5,"type":"challenge","seat":0,"claimant":0,"claim":"66","dice":"31","loser":0,"lives_lost":2}`},
		{Event{Seq: 6, Type: EvGiveUp, Seat: 0, LivesLost: 1},
			`{"seq":6,"type":"give_up","seat":0,"lives_lost":1}`},
		{Event{Seq: 7, Type: EvTimeout, Seat: 0, LivesLost: 1},
			`{"seq":7,"type":"timeout","seat":0,"lives_lost":1}`},
		{Event{Seq: 8, Type: EvLeave, Seat: 0, LivesLost: 4},
			`{"seq":8,"type":"leave","seat":0,"lives_lost":4}`},
		{Event{Seq: 9, Type: EvOut, Seat: 0},
			`{"seq":9,"type":"out","seat":0}`},
		{Event{Seq: 10, Type: EvEnd, Winner: 0},
			`{"seq":10,"type":"end","winner":0}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.e)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.e.Type, b, tt.want)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !back.At.Equal(tt.e.At) {
			t.Errorf("%s: at %v, want %v", tt.e.Type, back.At, tt.e.At)
		}
		// Round trip: the fields of the type survive; the others are dropped.
		re, _ := json.Marshal(back)
		if string(re) != tt.want {
			t.Errorf("%s: second round %s", tt.e.Type, re)
		}
	}
}

// TestEventJSONRoundTrip sends every event of random games through JSON.
func TestEventJSONRoundTrip(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	for i := range 200 {
		r := newPCG(uint64(i) + 77)
		o := randomOptions(r)
		g, evs, _ := New(o, 2+r.Intn(MaxSeats-1), r)
		for !g.Over() {
			e, err := g.Apply(randomAction(r, g, 5))
			if err == nil {
				evs = append(evs, e...)
			}
		}
		for j := range evs {
			evs[j].At = at.Add(time.Duration(j) * time.Second)
		}
		b, err := json.Marshal(evs)
		if err != nil {
			t.Fatal(err)
		}
		var back []Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, evs) {
			for j := range evs {
				if !reflect.DeepEqual(back[j], evs[j]) {
					t.Fatalf("game %d event %d: %+v came back as %+v", i, j, evs[j], back[j])
				}
			}
		}
	}
}

func TestEventJSONErrors(t *testing.T) {
	if _, err := json.Marshal(Event{Type: "dance"}); !errors.Is(err, ErrBadEvent) {
		t.Errorf("marshal of an unknown type: %v", err)
	}
	if _, err := json.Marshal(Event{Type: EvClaim, Value: 70}); !errors.Is(err, ErrBadValue) {
		t.Errorf("marshal of a bad value: %v", err)
	}
	for _, in := range []string{
		`{"seq":1,"type":"dance"}`,
		`{"seq":1}`,
	} {
		var e Event
		if err := json.Unmarshal([]byte(in), &e); !errors.Is(err, ErrBadEvent) {
			t.Errorf("Unmarshal(%s) = %v, want ErrBadEvent", in, err)
		}
	}
	for _, in := range []string{
		`{"seq":2,"type":"roll","seat":0,"dice":"70","looked":true}`,
		`{"seq":3,"type":"claim","seat":0,"value":"x"}`,
		`{"seq":5,"type":"challenge","seat":0,"claim":"07"}`,
	} {
		var e Event
		if err := json.Unmarshal([]byte(in), &e); !errors.Is(err, ErrBadValue) {
			t.Errorf("Unmarshal(%s) = %v, want ErrBadValue", in, err)
		}
	}
	for _, in := range []string{`[]`, `{"seq":"1","type":"round"}`, `{`, `{"seq":1,"type":"round","at":"yesterday"}`} {
		var e Event
		if err := json.Unmarshal([]byte(in), &e); err == nil {
			t.Errorf("Unmarshal(%s) accepted", in)
		}
	}
	// Unmarshal replaces the whole event.
	e := Event{Seq: 9, Type: EvChallenge, Loser: 3, Dice: 55}
	if err := json.Unmarshal([]byte(`{"seq":1,"type":"out","seat":2}`), &e); err != nil || !reflect.DeepEqual(e, Event{Seq: 1, Type: EvOut, Seat: 2}) {
		t.Errorf("Unmarshal over an event: %+v, %v", e, err)
	}
}

// TestEventJSONOptionEvents reads and writes the event lines PROTOCOL.md §3
// gives for the options (seq added): the same keys and values both ways.
func TestEventJSONOptionEvents(t *testing.T) {
	tests := []struct {
		line string
		want Event
	}{
		{`{"seq": 4, "type": "reveal", "seat": 2, "claim": "21", "dice": "21", "losses": [{"seat": 0, "lives_lost": 1}, {"seat": 1, "lives_lost": 1}]}`,
			Event{Seq: 4, Type: EvReveal, Seat: 2, Claim: Mia, Dice: Mia, Losses: []Loss{{0, 1}, {1, 1}}}},
		{`{"seq": 4, "type": "reveal", "seat": 2, "claim": "21", "dice": "54", "losses": [{"seat": 2, "lives_lost": 1}]}`,
			Event{Seq: 4, Type: EvReveal, Seat: 2, Claim: Mia, Dice: 54, Losses: []Loss{{2, 1}}}},
		{`{"seq": 6, "type": "low_claim", "seat": 1, "value": "43", "claim": "54", "loser": 1, "lives_lost": 1}`,
			Event{Seq: 6, Type: EvLowClaim, Seat: 1, Value: 43, Claim: 54, Loser: 1, LivesLost: 1}},
		{`{"seq": 7, "type": "mia_back", "seat": 0, "losses": [{"seat": 1, "lives_lost": 1}, {"seat": 2, "lives_lost": 1}]}`,
			Event{Seq: 7, Type: EvMiaBack, Seat: 0, Losses: []Loss{{1, 1}, {2, 1}}}},
		{`{"seq": 2, "type": "challenge", "seat": 1, "claimant": null, "claim": null, "dice": null, "loser": 1, "lives_lost": 1}`,
			Event{Seq: 2, Type: EvChallenge, Seat: 1, Claimant: -1, Loser: 1, LivesLost: 1}},
	}
	for _, tt := range tests {
		var e Event
		if err := json.Unmarshal([]byte(tt.line), &e); err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if !reflect.DeepEqual(e, tt.want) {
			t.Errorf("%s reads as %+v, want %+v", tt.line, e, tt.want)
		}
		b, err := json.Marshal(tt.want)
		if err != nil {
			t.Fatal(err)
		}
		var got, ref map[string]any
		json.Unmarshal(b, &got)
		json.Unmarshal([]byte(tt.line), &ref)
		if !reflect.DeepEqual(got, ref) {
			t.Errorf("%s written as %s", tt.line, b)
		}
	}
	// A loss list is written even when empty, so that readers find it.
	b, _ := json.Marshal(Event{Seq: 1, Type: EvMiaBack, Seat: 3})
	if string(b) != `{"seq":1,"type":"mia_back","seat":3,"losses":[]}` {
		t.Errorf("empty losses: %s", b)
	}
	// A challenge with a claimant writes it, seat 0 included.
	b, _ = json.Marshal(Event{Seq: 1, Type: EvChallenge, Seat: 1, Claimant: 0, Claim: 52, Dice: 43, Loser: 0, LivesLost: 1})
	if !strings.Contains(string(b), `"claimant":0,"claim":"52"`) {
		t.Errorf("challenge: %s", b)
	}
	b, _ = json.Marshal(Event{Seq: 1, At: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Type: EvChallenge, Seat: 1, Claimant: -1, Loser: 1, LivesLost: 1})
	if string(b) != `{"seq":1,"at":"2025-01-01T00:00:00Z","type":"challenge","seat":1,"claimant":null,"claim":null,"dice":null,"loser":1,"lives_lost":1}` {
		t.Errorf("challenge of nothing: %s", b)
	}
}
