package botline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/sshapp/internal/outbox"
)

func TestParseBotLine(t *testing.T) {
	tests := []struct {
		line    string
		want    botAnswer
		wantErr string // a part of the error; "" for success
	}{
		{"ROLL;t1", botAnswer{engine.Action{Kind: engine.Roll, Look: true}, "t1"}, ""},
		{"ROLL;t1\r", botAnswer{engine.Action{Kind: engine.Roll, Look: true}, "t1"}, ""},
		{"SEE;abc", botAnswer{engine.Action{Kind: engine.Challenge}, "abc"}, ""},
		{"PASS;x", botAnswer{engine.Action{Kind: engine.Pass}, "x"}, ""},
		{"PASS;6,4;x", botAnswer{engine.Action{Kind: engine.Pass, Value: 64}, "x"}, ""},
		{"GIVE UP;x", botAnswer{engine.Action{Kind: engine.GiveUp}, "x"}, ""},
		{"ANNOUNCE;2,1;x", botAnswer{engine.Action{Kind: engine.Claim, Value: engine.Mia}, "x"}, ""},
		{"ANNOUNCE;1,2;x", botAnswer{engine.Action{Kind: engine.Claim, Value: engine.Mia}, "x"}, ""},
		{"ANNOUNCE;5,5;x", botAnswer{engine.Action{Kind: engine.Claim, Value: 55}, "x"}, ""},
		{"", botAnswer{}, "empty line"},
		{"\r", botAnswer{}, "empty line"},
		{"roll;t1", botAnswer{}, `unknown word "roll"`},
		{"JOIN;t1", botAnswer{}, `unknown word "JOIN"`},
		{"HELLO", botAnswer{}, "unknown word"},
		{"GIVEUP;t", botAnswer{}, "unknown word"},
		{"\x1b[31mX;t", botAnswer{}, `unknown word "X"`},
		{"ROLL", botAnswer{}, "wrong number of fields: ROLL;TOKEN"},
		{"ROLL;", botAnswer{}, "token is missing"},
		{"ROLL;a;b", botAnswer{}, "wrong number of fields"},
		{"SEE", botAnswer{}, "wrong number of fields: SEE;TOKEN"},
		{"PASS;6,4;", botAnswer{}, "token is missing"},
		{"PASS;a;b;c", botAnswer{}, "PASS;TOKEN or PASS;D1,D2;TOKEN"},
		{"ANNOUNCE;x", botAnswer{}, "ANNOUNCE;D1,D2;TOKEN"},
		{"ANNOUNCE;64;x", botAnswer{}, "dice are two numbers"},
		{"ANNOUNCE;7,1;x", botAnswer{}, "dice are two numbers"},
		{"ANNOUNCE;0,0;x", botAnswer{}, "dice are two numbers"},
		{"ANNOUNCE;6, 4;x", botAnswer{}, "dice are two numbers"},
		{"PASS;6,4,3;x", botAnswer{}, "dice are two numbers"},
		{"ROLL;\xff\xfe", botAnswer{}, "not UTF-8"},
		{"ROLL;" + strings.Repeat("a", maxBotLine), botAnswer{}, "longer than 1024"},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := parseBotLine([]byte(tt.line))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parse %q: err %v, want one with %q", tt.line, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse %q: %v", tt.line, err)
			}
			if got != tt.want {
				t.Errorf("parse %q = %+v, want %+v", tt.line, got, tt.want)
			}
		})
	}
}

func TestErrorLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"not your turn", "ERROR;not your turn"},
		{"a;b\nc\x1b", "ERROR;a,b c"},
		{strings.Repeat("x", 300), "ERROR;" + strings.Repeat("x", 200)},
	}
	for _, tt := range tests {
		if got := ErrorLine(tt.in); got != tt.want {
			t.Errorf("ErrorLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPromptLines(t *testing.T) {
	tests := []struct{ got, want string }{
		{yourTurnLine(engine.NoValue, "tk"), "YOUR TURN;-;tk"},
		{yourTurnLine(64, "tk"), "YOUR TURN;6,4;tk"},
		{yourTurnLine(engine.Mia, "tk"), "YOUR TURN;2,1;tk"},
		{rolledLine(33, "tk"), "ROLLED;3,3;tk"},
		{rolledLine(engine.NoValue, "tk"), "ROLLED;-;tk"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// ev is shorthand for an event.
func ev(typ engine.EventType, f func(*engine.Event)) engine.Event {
	e := engine.Event{Type: typ}
	if f != nil {
		f(&e)
	}
	return e
}

func TestTranslator(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	tests := []struct {
		name  string
		lives int
		evs   []engine.Event
		want  []string
	}{
		{"a bluff caught", 2, []engine.Event{
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 1, 1 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat, e.Looked = 1, true }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 1, 43 }),
			ev(engine.EvPass, func(e *engine.Event) { e.Seat, e.Value = 2, 43 }),
			ev(engine.EvPass, func(e *engine.Event) { e.Seat, e.Value = 0, 65 }),
			ev(engine.EvChallenge, func(e *engine.Event) {
				e.Seat, e.Claimant, e.Claim, e.Dice, e.Loser, e.LivesLost = 1, 0, 65, 42, 0, 1
			}),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 2, 1 }),
		}, []string{
			"ROUND STARTED;1;bob,cy,ann",
			"PLAYER ROLLS;bob",
			"ANNOUNCED;bob;4,3",
			"PLAYER PASSES;cy;4,3",
			"PLAYER PASSES;ann;6,5",
			"PLAYER WANTS TO SEE;bob",
			"ACTUAL DICE;4,2",
			"PLAYER LOST;ann;CAUGHT_BLUFFING;1",
			"SCORE;ann:1,bob:2,cy:2",
			"ROUND STARTED;2;bob,cy,ann",
		}},
		{"a true Mia and the end", 2, []engine.Event{
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 1, 0 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 0 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 0, engine.Mia }),
			ev(engine.EvChallenge, func(e *engine.Event) {
				e.Seat, e.Claimant, e.Claim, e.Dice, e.Loser, e.LivesLost = 1, 0, engine.Mia, engine.Mia, 1, 2
			}),
			ev(engine.EvOut, func(e *engine.Event) { e.Seat = 1 }),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 2, 2 }),
			ev(engine.EvTimeout, func(e *engine.Event) { e.Seat, e.LivesLost = 2, 1 }),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 3, 0 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 0 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 0, engine.Mia }),
			ev(engine.EvGiveUp, func(e *engine.Event) { e.Seat, e.LivesLost = 2, 1 }),
			ev(engine.EvOut, func(e *engine.Event) { e.Seat = 2 }),
			ev(engine.EvEnd, func(e *engine.Event) { e.Winner = 0 }),
		}, []string{
			"ROUND STARTED;1;ann,bob,cy",
			"PLAYER ROLLS;ann",
			"ANNOUNCED;ann;2,1",
			"PLAYER WANTS TO SEE;bob",
			"ACTUAL DICE;2,1",
			"PLAYER LOST;bob;MIA;2",
			"SCORE;ann:2,bob:0,cy:2",
			"PLAYER OUT;bob",
			"ROUND STARTED;2;cy,ann",
			"PLAYER LOST;cy;TIMED_OUT;1",
			"SCORE;ann:2,bob:0,cy:1",
			"ROUND STARTED;3;ann,cy",
			"PLAYER ROLLS;ann",
			"ANNOUNCED;ann;2,1",
			"PLAYER LOST;cy;GAVE_UP;1",
			"SCORE;ann:2,bob:0,cy:0",
			"PLAYER OUT;cy",
			"GAME OVER;ann;7",
		}},
		{"a failed challenge and a leaver", 3, []engine.Event{
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 1, 2 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 2 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 2, 31 }),
			ev(engine.EvChallenge, func(e *engine.Event) {
				e.Seat, e.Claimant, e.Claim, e.Dice, e.Loser, e.LivesLost = 0, 2, 31, 66, 0, 1
			}),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 2, 1 }),
			ev(engine.EvLeave, func(e *engine.Event) { e.Seat, e.LivesLost = 0, 2 }),
			ev(engine.EvOut, func(e *engine.Event) { e.Seat = 0 }),
		}, []string{
			"ROUND STARTED;1;cy,ann,bob",
			"PLAYER ROLLS;cy",
			"ANNOUNCED;cy;3,1",
			"PLAYER WANTS TO SEE;ann",
			"ACTUAL DICE;6,6",
			"PLAYER LOST;ann;SEE_FAILED;1",
			"SCORE;ann:2,bob:3,cy:3",
			"ROUND STARTED;2;bob,cy,ann",
			"PLAYER LOST;ann;LEFT;2",
			"SCORE;ann:0,bob:3,cy:3",
			"PLAYER OUT;ann",
		}},
		{"Mias revealed at once, a low claim, a challenge of nothing", 1, []engine.Event{
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 1, 2 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 2 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 2, engine.Mia }),
			ev(engine.EvReveal, func(e *engine.Event) {
				e.Seat, e.Claim, e.Dice = 2, engine.Mia, engine.Mia
				e.Losses = []engine.Loss{{Seat: 0, LivesLost: 1}, {Seat: 1, LivesLost: 1}}
			}),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 2, 2 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 2 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 2, engine.Mia }),
			ev(engine.EvReveal, func(e *engine.Event) {
				e.Seat, e.Claim, e.Dice = 2, engine.Mia, 54
				e.Losses = []engine.Loss{{Seat: 2, LivesLost: 1}}
			}),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 3, 0 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 0 }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 0, 54 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat = 1 }),
			ev(engine.EvLowClaim, func(e *engine.Event) { e.Seat, e.Value, e.Claim, e.Loser, e.LivesLost = 1, 43, 54, 1, 1 }),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 4, 1 }),
			ev(engine.EvChallenge, func(e *engine.Event) {
				e.Seat, e.Claimant, e.Claim, e.Dice, e.Loser, e.LivesLost = 1, -1, engine.NoValue, engine.NoValue, 1, 1
			}),
		}, []string{
			"ROUND STARTED;1;cy,ann,bob",
			"PLAYER ROLLS;cy",
			"ANNOUNCED;cy;2,1",
			"ACTUAL DICE;2,1",
			"PLAYER LOST;ann;MIA;1",
			"PLAYER LOST;bob;MIA;1",
			"SCORE;ann:0,bob:0,cy:1",
			"ROUND STARTED;2;cy",
			"PLAYER ROLLS;cy",
			"ANNOUNCED;cy;2,1",
			"ACTUAL DICE;5,4",
			"PLAYER LOST;cy;LIED_ABOUT_MIA;1",
			"SCORE;ann:0,bob:0,cy:0",
			"ROUND STARTED;3;",
			"PLAYER ROLLS;ann",
			"ANNOUNCED;ann;5,4",
			"PLAYER ROLLS;bob",
			"ANNOUNCED;bob;4,3",
			"PLAYER LOST;bob;ANNOUNCED_LOSING_DICE;1",
			"SCORE;ann:0,bob:0,cy:0",
			"ROUND STARTED;4;",
			"PLAYER WANTS TO SEE;bob",
			"PLAYER LOST;bob;SEE_BEFORE_FIRST_ROLL;1",
			"SCORE;ann:0,bob:0,cy:0",
		}},
		{"a Mia passed back to its roller", 2, []engine.Event{
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 1, 0 }),
			ev(engine.EvRoll, func(e *engine.Event) { e.Seat, e.Looked = 0, true }),
			ev(engine.EvClaim, func(e *engine.Event) { e.Seat, e.Value = 0, engine.Mia }),
			ev(engine.EvPass, func(e *engine.Event) { e.Seat, e.Value = 1, engine.Mia }),
			ev(engine.EvPass, func(e *engine.Event) { e.Seat, e.Value = 2, engine.Mia }),
			ev(engine.EvMiaBack, func(e *engine.Event) {
				e.Seat, e.Losses = 0, []engine.Loss{{Seat: 1, LivesLost: 1}, {Seat: 2, LivesLost: 1}}
			}),
			ev(engine.EvRound, func(e *engine.Event) { e.Round, e.Opener = 2, 0 }),
		}, []string{
			"ROUND STARTED;1;ann,bob,cy",
			"PLAYER ROLLS;ann",
			"ANNOUNCED;ann;2,1",
			"PLAYER PASSES;bob;2,1",
			"PLAYER PASSES;cy;2,1",
			"PLAYER LOST;bob;MIA_CAME_BACK;1",
			"PLAYER LOST;cy;MIA_CAME_BACK;1",
			"SCORE;ann:2,bob:1,cy:1",
			"ROUND STARTED;2;ann,bob,cy",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := engine.DefaultOptions()
			o.Lives = tt.lives
			tr, first := newTranslator("7", names, o)
			if want := "GAME STARTING;7;ann,bob,cy;" + string(rune('0'+tt.lives)); len(first) != 2 || first[0] != want ||
				!strings.HasPrefix(first[1], "RULES;ranking=classic,lives="+string(rune('0'+tt.lives))+",") {
				t.Errorf("first lines %q, want %q and RULES", first, want)
			}
			// Feed the events in growing prefixes, as snapshots come: every
			// event is translated once.
			var got []string
			for n := 0; n <= len(tt.evs); n += 2 {
				got = tr.feed(got, tt.evs[:n])
			}
			got = tr.feed(got, tt.evs)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestRulesLine holds the RULES line of PROTOCOL.md §2 to the keys of the
// rules object of §3: a bot tells from it whether a Mia may be passed.
func TestRulesLine(t *testing.T) {
	wins := engine.DefaultOptions()
	wins.Ranking, wins.MiaPass = engine.Pips, engine.MiaPassWins
	maex, _ := engine.Preset(engine.PresetMaexchen)
	tests := []struct {
		name string
		o    engine.Options
		want string
	}{
		{"classic", engine.DefaultOptions(), "RULES;ranking=classic,lives=6,pass=on,equal_claims=off,mia_penalty=2," +
			"mia_penalty_both=off,mia_pass=off,mia_reveal=challenge,low_claim=refused,next_opener=after-loser," +
			"end=last-standing,turn_seconds=60"},
		{"pips, mia-pass wins", wins, "RULES;ranking=pips,lives=6,pass=on,equal_claims=off,mia_penalty=2," +
			"mia_penalty_both=off,mia_pass=wins,mia_reveal=challenge,low_claim=refused,next_opener=after-loser," +
			"end=last-standing,turn_seconds=60"},
		{"maexchen", maex, "RULES;ranking=classic,lives=1,pass=off,equal_claims=off,mia_penalty=2," +
			"mia_penalty_both=off,mia_pass=off,mia_reveal=at-once,low_claim=loses,next_opener=after-loser," +
			"end=first-out,turn_seconds=60,preset=maexchen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rulesLine(tt.o); got != tt.want {
				t.Errorf("rulesLine =\n%s\nwant\n%s", got, tt.want)
			}
			// The same keys as the JSON rules object.
			b, _ := json.Marshal(tt.o)
			var obj map[string]any
			_ = json.Unmarshal(b, &obj)
			fields := strings.Split(strings.TrimPrefix(tt.want, "RULES;"), ",")
			if len(fields) != len(obj) {
				t.Errorf("%d keys in RULES, %d in the JSON", len(fields), len(obj))
			}
			for _, f := range fields {
				if _, ok := obj[strings.SplitN(f, "=", 2)[0]]; !ok {
					t.Errorf("key of %q not in the JSON rules object", f)
				}
			}
		})
	}
}

func TestField(t *testing.T) {
	tests := []struct{ in, want string }{
		{"alice", "alice"},
		{"", "?"},
		{"a;b,c:d", "a_b_c_d"},
		{"x\ny\x1b\u202e", "xy"},
	}
	for _, tt := range tests {
		if got := field(tt.in); got != tt.want {
			t.Errorf("field(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBotLineReader reads lines of every size, and the overlong ones only
// up to the reader's buffer.
func TestBotLineReader(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	input := "ROLL;a\n" + strings.Repeat("y", maxBotLine) + "\n" + strings.Repeat("z", maxBotLine+1) + "\n" +
		big + "\nSEE;b\r\n\n" + strings.Repeat("w", 1500) + "\nlast"
	type line struct {
		text string
		long bool
	}
	want := []line{{"ROLL;a", false}, {strings.Repeat("y", maxBotLine), false}, {"", true}, {"", true},
		{"SEE;b\r", false}, {"", false}, {"", true}, {"last", false}}
	cr := &countingReader{r: strings.NewReader(input)}
	lr := newBotLineReader(cr)
	for i, w := range want {
		text, long, err := lr.next()
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if string(text) != w.text || long != w.long {
			t.Errorf("line %d = %.20q (long %v), want %.20q (long %v)", i, text, long, w.text, w.long)
		}
	}
	if _, _, err := lr.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v, want EOF", err)
	}
	if cr.maxRead > 2*maxBotLine {
		t.Errorf("read %d bytes at once, want at most %d", cr.maxRead, 2*maxBotLine)
	}
}

type countingReader struct {
	r       io.Reader
	maxRead int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.maxRead = max(c.maxRead, len(p))
	return c.r.Read(p)
}

// blockingWriter blocks every Write until released, like an SSH channel
// whose reader stopped reading.
type blockingWriter struct {
	release chan struct{}
	mu      sync.Mutex
	b       bytes.Buffer
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestBotWriterNeverBlocks: a bot that does not read blocks only the
// writer's goroutine; ERROR lines past the hard limit are dropped, game
// lines are not, and everything queued arrives once the bot reads again.
func TestBotWriterNeverBlocks(t *testing.T) {
	w := &blockingWriter{release: make(chan struct{})}
	box := outbox.New(w, 0, nil)
	bw := newBotWriter(box)
	done := make(chan int)
	go func() {
		sent := 0
		for i := 0; i < 100000; i++ {
			if bw.send(false, "ERROR;garbage") {
				sent++
			}
		}
		done <- sent
	}()
	var sent int
	select {
	case sent = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("send blocked on a writer that does not read")
	}
	if b := bw.backlog(); b > botHardLimit+100 {
		t.Errorf("backlog %d, want at most about %d", b, botHardLimit)
	}
	if !bw.send(true, "GAME OVER;x;1") {
		t.Error("a game line was dropped")
	}
	close(w.release)
	box.Close(5 * time.Second)
	w.mu.Lock()
	out := w.b.String()
	w.mu.Unlock()
	if n := strings.Count(out, "ERROR;garbage\n"); n != sent {
		t.Errorf("%d ERROR lines arrived, %d were queued", n, sent)
	}
	if !strings.HasSuffix(out, "GAME OVER;x;1\n") {
		t.Errorf("the last line is missing: %q", out[max(0, len(out)-40):])
	}
}
