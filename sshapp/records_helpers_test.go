package sshapp

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/store"
	"github.com/mia-game/mia/store/lobbystore"

	"github.com/mia-game/mia/sshapp/command"
)

// recEnv is a real server with a real lobby on a real store, and keys by
// name.
type recEnv struct {
	*testServer
	st     *store.Store
	lobby  *lobby.Lobby
	events *events.Registry
	keys   map[string]gossh.Signer
	fps    map[string]string
	ids    map[string]string // name -> person id
	// scripted: the dice are a test's script, so games carry no proof.
	scripted bool

	// What restart needs: the store's file, the configs, and the stop of
	// the lobby and the store (once).
	path   string
	lcfg   lobby.Config
	tweak  func(*Config)
	admins KeySet
	stop   func()
}

// startRecServer starts it; admins are the names of admin keys (made
// here, named but not yet otherwise used).
func startRecServer(t *testing.T, botDelay time.Duration, admins ...string) *recEnv {
	t.Helper()
	return startRecServerDice(t, botDelay, nil, admins...)
}

// startRecServerDice is startRecServer with the lobby's dice drawn from
// dice (nil: crypto/rand).
func startRecServerDice(t *testing.T, botDelay time.Duration, dice engine.Source, admins ...string) *recEnv {
	t.Helper()
	return startRecServerWith(t, lobby.Config{BotDelay: botDelay, Dice: dice}, nil, admins...)
}

// startRecServerWith starts it with a lobby of lcfg (its Store filled in)
// and the server's config adjusted by tweak (nil: none).
func startRecServerWith(t *testing.T, lcfg lobby.Config, tweak func(*Config), admins ...string) *recEnv {
	t.Helper()
	e := &recEnv{keys: map[string]gossh.Signer{}, fps: map[string]string{}, ids: map[string]string{}, scripted: lcfg.Dice != nil,
		path: filepath.Join(t.TempDir(), "mia.db"), lcfg: lcfg, tweak: tweak, admins: KeySet{}}
	e.open(t)
	for _, a := range admins {
		e.key(t, a)
		e.admins[e.fps[a]] = struct{}{}
	}
	e.serve(t)
	return e
}

// open opens the store and the lobby on it.
func (e *recEnv) open(t *testing.T) {
	t.Helper()
	st, err := store.Open(e.path)
	if err != nil {
		t.Fatal(err)
	}
	lcfg := e.lcfg
	lcfg.Store = lobbystore.New(st)
	lob, err := lobby.New(context.Background(), lcfg)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	evs, err := events.Open(context.Background(), events.Config{Lobby: lob, Store: lobbystore.NewEvents(st), Linger: 100 * time.Millisecond})
	if err != nil {
		lob.Close()
		st.Close()
		t.Fatal(err)
	}
	e.st, e.lobby, e.events = st, lob, evs
	var once sync.Once
	e.stop = func() { once.Do(func() { evs.Close(); lob.Close(); st.Close() }) }
	t.Cleanup(e.stop) // after the server's shutdown
}

// serve starts a server on the store and the lobby.
func (e *recEnv) serve(t *testing.T) {
	t.Helper()
	e.testServer = startServer(t, func(c *Config) {
		c.Storage, c.Lobby, c.Events, c.Admins = storageOf(e.st), e.lobby, e.events, e.admins
		if e.tweak != nil {
			e.tweak(c)
		}
	})
}

// restart stops the server, the lobby and the store, as a clean stop
// does, and starts them again on the same file (at a new address); the
// keys stay.
func (e *recEnv) restart(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	e.stop()
	e.open(t)
	e.serve(t)
}

// key is the key of a named player, made (and named) on first use.
func (e *recEnv) key(t *testing.T, name string) gossh.Signer {
	t.Helper()
	if k, ok := e.keys[name]; ok {
		return k
	}
	k := newKey(t)
	fp := Fingerprint(k.PublicKey())
	p, err := e.st.SetName(context.Background(), fp, name)
	if err != nil {
		t.Fatal(err)
	}
	e.keys[name], e.fps[name], e.ids[name] = k, fp, p.ID
	testNames.Store(fp, name)
	return k
}

func (e *recEnv) player(t *testing.T, name string) lobby.Player {
	e.key(t, name)
	return lobby.Player{ID: e.ids[name], Key: e.fps[name]}
}

// as runs a command as a named player.
func (e *recEnv) as(t *testing.T, name, cmd string) result {
	t.Helper()
	return e.run(t, e.key(t, name), cmd)
}

// step is one command of a scripted session and what it must print.
type step struct {
	name   string
	who    string
	cmd    string
	code   int
	stdout []string // substrings
	stderr []string
	not    []string // must not be in stdout
}

func (e *recEnv) steps(t *testing.T, steps []step) {
	t.Helper()
	for _, st := range steps {
		r := e.as(t, st.who, st.cmd)
		bad := r.code != st.code
		for _, w := range st.stdout {
			bad = bad || !containsWords(r.stdout, w)
		}
		for _, w := range st.stderr {
			bad = bad || !containsWords(r.stderr, w)
		}
		for _, w := range st.not {
			bad = bad || strings.Contains(r.stdout, w)
		}
		if bad {
			t.Errorf("%s: %s runs %q: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant stdout %q, stderr %q, not %q",
				st.name, st.who, st.cmd, r.code, st.code, r.stdout, r.stderr, st.stdout, st.stderr, st.not)
		}
		if strings.ContainsRune(r.stdout+r.stderr, '\x1b') {
			t.Errorf("%s: escape codes in plain output", st.name)
		}
	}
}

// containsWords reports whether text holds want, or holds its words
// however text wraps them (the commands wrap to 80 columns).
func containsWords(text, want string) bool {
	collapse := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return strings.Contains(text, want) || strings.Contains(collapse(text), collapse(want))
}

// playGame plays the running game at tbl to its end: each person in ps
// acts from their own newest snapshot (bots move by themselves). before,
// if set, runs once after the first move. It returns the game's ID.
func playGame(t *testing.T, tbl *lobby.Table, ps []lobby.Player, before func(id string)) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	subs := make([]*lobby.Subscription, len(ps))
	last := make([]lobby.Snapshot, len(ps))
	for i, p := range ps {
		s, err := tbl.Watch(ctx, p)
		if err != nil {
			t.Fatalf("%s watches: %v", nameOf(p), err)
		}
		defer s.Close()
		subs[i] = s
	}
	ready := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())}}
	for _, s := range subs {
		ready = append(ready, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.Ready())})
	}
	r := rand.New(rand.NewPCG(5, 6))
	acted := 0
	for ctx.Err() == nil {
		for i, s := range subs {
			select {
			case <-s.Ready():
				if snap, ok := s.Take(); ok {
					last[i] = snap
				}
			default:
			}
		}
		moved := false
		for i, p := range ps {
			snap := last[i]
			if snap.Game == nil {
				continue
			}
			if !snap.Playing {
				return snap.GameID
			}
			if snap.You < 0 || snap.Game.Turn != snap.You {
				continue
			}
			if err := tbl.Act(ctx, p, pickMove(snap.Game, r)); err != nil {
				continue // a stale snapshot; the next one is on its way
			}
			last[i].Game = nil // wait for the next one
			moved = true
			if acted++; acted == 1 && before != nil {
				before(snap.GameID)
			}
		}
		if !moved {
			// Nothing to do until someone's next snapshot: wait for it
			// (or the end of ctx, case 0), and take it.
			if i, _, _ := reflect.Select(ready); i > 0 {
				if snap, ok := subs[i-1].Take(); ok {
					last[i-1] = snap
				}
			}
		}
	}
	t.Fatal("the game did not end within a minute")
	return ""
}

// pickMove is a legal, plausible move from a view.
func pickMove(v *engine.View, r *rand.Rand) engine.Action {
	switch {
	case v.Can(engine.Claim):
		if slices.Contains(v.Claims, v.Dice) && r.IntN(2) == 0 {
			return engine.Action{Kind: engine.Claim, Value: v.Dice}
		}
		return engine.Action{Kind: engine.Claim, Value: v.Claims[r.IntN(min(3, len(v.Claims)))]}
	case v.Can(engine.Roll) && (v.Claim == engine.NoValue || r.IntN(3) > 0):
		return engine.Action{Kind: engine.Roll, Look: r.IntN(6) > 0}
	case v.Can(engine.GiveUp) && r.IntN(2) == 0:
		return engine.Action{Kind: engine.GiveUp}
	case v.Can(engine.Pass) && r.IntN(4) == 0:
		return engine.Action{Kind: engine.Pass, Value: v.Passes[0]}
	}
	return engine.Action{Kind: engine.Challenge}
}

// checkReplayJSON runs `replay ID --json` as who and re-checks it: the
// shape of PROTOCOL.md §3 key by key, then the events replayed through
// the engine give the recorded winner and standings.
func (e *recEnv) checkReplayJSON(t *testing.T, who, id string) store.Replay {
	t.Helper()
	r := e.as(t, who, "replay "+id+" --json")
	if r.code != 0 {
		t.Fatalf("replay %s --json: exit %d: %s", id, r.code, r.stderr)
	}
	return checkGameJSON(t, []byte(r.stdout), !e.scripted)
}

// §3's keys, in order for the top level.
var (
	gameKeys   = []string{"id", "table", "rules", "players", "started", "ended", "winner", "standings", "fair", "events"}
	fairKeys   = []string{"scheme", "commitment", "server_seed", "player_seeds"}
	rulesKeys  = []string{"ranking", "lives", "pass", "equal_claims", "mia_penalty", "mia_penalty_both", "mia_pass", "mia_reveal", "low_claim", "next_opener", "end", "turn_seconds"}
	playerKeys = []string{"seat", "person", "name", "fingerprint", "bot"}
	eventKeys  = map[string][]string{
		"round":     {"round", "opener"},
		"roll":      {"seat", "dice", "looked"},
		"claim":     {"seat", "value"},
		"pass":      {"seat", "value"},
		"challenge": {"seat", "claimant", "claim", "dice", "loser", "lives_lost"},
		"give_up":   {"seat", "lives_lost"},
		"timeout":   {"seat", "lives_lost"},
		"leave":     {"seat", "lives_lost"}, // §3's example omits lives_lost; it is the lives the leaver had
		"out":       {"seat"},
		"end":       {"winner"},
		"reveal":    {"seat", "claim", "dice", "losses"},
		"low_claim": {"seat", "value", "claim", "loser", "lives_lost"},
		"mia_back":  {"seat", "losses"},
	}
)

// objectKeys reads the keys of a JSON object in order.
func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}

// checkGameJSON checks a game's JSON; proof: it must carry the proof of
// fair dice (every game but those of scripted dice).
func checkGameJSON(t *testing.T, doc []byte, proof bool) store.Replay {
	t.Helper()
	top := objectKeys(t, doc)
	wantTop := gameKeys
	if !proof { // a game of scripted dice has no proof
		wantTop = slices.DeleteFunc(slices.Clone(gameKeys), func(k string) bool { return k == "fair" })
	}
	if !slices.Equal(top, wantTop) {
		t.Errorf("top-level keys %v, want %v in that order", top, wantTop)
	}
	var raw struct {
		Rules   json.RawMessage   `json:"rules"`
		Fair    json.RawMessage   `json:"fair"`
		Players []json.RawMessage `json:"players"`
		Started string            `json:"started"`
		Ended   string            `json:"ended"`
		Events  []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(doc, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Fair != nil {
		if got := objectKeys(t, raw.Fair); !slices.Equal(got, fairKeys) {
			t.Errorf("fair keys %v, want %v", got, fairKeys)
		}
	}
	wantRules := rulesKeys
	if strings.Contains(string(raw.Rules), `"preset"`) {
		wantRules = append(slices.Clone(rulesKeys), "preset")
	}
	if got := objectKeys(t, raw.Rules); !sameSet(got, wantRules) {
		t.Errorf("rules keys %v, want %v", got, rulesKeys)
	}
	for _, p := range raw.Players {
		if got := objectKeys(t, p); !sameSet(got, playerKeys) {
			t.Errorf("player keys %v, want %v", got, playerKeys)
		}
	}
	for _, ts := range []string{raw.Started, raw.Ended} {
		if _, err := time.Parse(time.RFC3339, ts); err != nil {
			t.Errorf("time %q is not RFC 3339: %v", ts, err)
		}
	}
	for i, ev := range raw.Events {
		var head struct {
			Seq  int    `json:"seq"`
			At   string `json:"at"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal(ev, &head); err != nil {
			t.Fatal(err)
		}
		if head.Seq != i+1 {
			t.Errorf("event %d has seq %d: not gap-free from 1", i, head.Seq)
		}
		if _, err := time.Parse(time.RFC3339, head.At); err != nil {
			t.Errorf("event %d: at %q is not RFC 3339", i, head.At)
		}
		want, ok := eventKeys[head.Type]
		if !ok {
			t.Errorf("event %d: unknown type %q", i, head.Type)
			continue
		}
		if got := objectKeys(t, ev); !sameSet(got, append([]string{"seq", "at", "type"}, want...)) {
			t.Errorf("event %d (%s): keys %v, want seq, at, type and %v", i, head.Type, got, want)
		}
	}
	var g store.Replay
	if err := json.Unmarshal(doc, &g); err != nil {
		t.Fatal(err)
	}
	for _, ev := range g.Events {
		if (ev.Type == engine.EvRoll || ev.Type == engine.EvChallenge && ev.Claimant >= 0) && !ev.Dice.Valid() {
			t.Errorf("seq %d: a %s without its dice", ev.Seq, ev.Type)
		}
	}
	fps := make([]string, len(g.Players))
	for i, p := range g.Players {
		fps[i] = p.Fingerprint
	}
	switch {
	case g.Fair == nil && proof:
		t.Errorf("game %s has no proof of its dice", g.ID)
	case g.Fair != nil:
		if _, err := fair.Verify(*g.Fair, g.Rules, fps, g.Events); err != nil {
			t.Errorf("game %s: the dice do not verify: %v", g.ID, err)
		}
	}
	replayed, err := engine.Replay(g.Rules, len(g.Players), g.Events, nil)
	if err != nil {
		t.Fatalf("game %s does not replay: %v", g.ID, err)
	}
	if !replayed.Over() || replayed.Winner() != g.Winner || !slices.Equal(replayed.Standings(), g.Standings) {
		t.Errorf("game %s replays to winner %d, standings %v; recorded %d, %v", g.ID,
			replayed.Winner(), replayed.Standings(), g.Winner, g.Standings)
	}
	return g
}

// historyIDs runs `history --json` as who and returns the game IDs.
func (e *recEnv) historyIDs(t *testing.T, who, args string) []string {
	t.Helper()
	r := e.as(t, who, strings.TrimSpace("history --json "+args))
	if r.code != 0 {
		t.Fatalf("history: exit %d: %s", r.code, r.stderr)
	}
	var h command.HistoryJSON
	if err := json.Unmarshal([]byte(r.stdout), &h); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, g := range h.Games {
		ids = append(ids, g.ID)
	}
	return ids
}
