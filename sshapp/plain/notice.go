package plain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// The notices: wherever the person is in the plain door (the lobby, a
// replay, another table), the news addressed to them (lobby.Notices: a
// game of theirs started, their turn at a table they do not have open,
// an invitation, a seat free at a table they watch, a hook of theirs
// paused) is said as one line each, in the words the screens' notice
// uses (Lobby.Noticed), with one terminal bell (BEL) for each batch
// unless they turned the bell off (Config.BellOff). go takes them to
// the last notice's table (an invitation: joins it first). A notice of
// the table open is not said: its events are; nor a game's at a table
// of the event the door follows, which takes the person there itself.

// bel is the terminal's bell: a control character that moves nothing.
const bel = "\a"

// follow starts hearing the person's notices, once they have a name.
func (d *door) follow() {
	if d.notices != nil || d.cfg.Lobby == nil || d.me.ID == "" {
		return
	}
	d.notices = d.cfg.Lobby.Notices(d.me.ID)
}

// unfollow stops hearing them.
func (d *door) unfollow() {
	if d.notices != nil {
		d.cfg.Lobby.Unfollow(d.notices)
		d.notices = nil
	}
}

// heard says the notices waiting, one line each: a game's start and its
// first turn, told together, as one.
func (d *door) heard() {
	shown := ""
	if d.at != nil {
		shown = d.at.t.Name()
	}
	now := d.cfg.Clock.Now()
	var (
		lines   []string
		started string // the table whose start is the last line
		last    *lobby.News
	)
	for _, n := range d.notices.Take() {
		if shown != "" && strings.EqualFold(n.Table, shown) || d.dealtThere(n) {
			continue
		}
		if n.Kind == lobby.NewsTurn && started != "" && strings.EqualFold(n.Table, started) {
			lines[len(lines)-1] = d.noticeLine(n, true, now)
			started = ""
			continue
		}
		start := n.Kind == lobby.NewsGameStarted
		lines = append(lines, d.noticeLine(n, start, now))
		started = ""
		if start {
			started = n.Table
		}
		last = &n
	}
	if len(lines) == 0 {
		return
	}
	d.went = last
	if d.cfg.BellOff == nil || !d.cfg.BellOff() {
		lines[0] = bel + lines[0]
	}
	d.say(lines...)
}

// dealtThere reports whether n is of a game at a table of the event the
// door follows: the event takes the person there itself (eventRoom.seated),
// so "say go" is not said.
func (d *door) dealtThere(n lobby.News) bool {
	if d.ev == nil || n.Table == "" || n.Kind != lobby.NewsGameStarted && n.Kind != lobby.NewsTurn {
		return false
	}
	t, err := d.cfg.Lobby.Table(n.Table)
	return err == nil && strings.EqualFold(t.Info().Event, d.ev.name)
}

// noticeLine is one notice said, with what takes the person there.
func (d *door) noticeLine(n lobby.News, started bool, now time.Time) string {
	goes := "go there"
	if n.Kind == lobby.NewsInvited {
		goes = "join"
	}
	return words.Sentence(d.cfg.Lobby.Noticed(n, started, now)) + " Say go to " + goes + "."
}

// goThere takes the person to the last notice's table: an invitation
// joins a private table with its code first.
func (d *door) goThere() {
	n := d.went
	if n != nil && n.Event != nil {
		d.sayEvent(n.Event.Name, true)
		return
	}
	if n == nil || n.Table == "" {
		d.say("There is no notice to go to.")
		return
	}
	if n.Kind == lobby.NewsInvited && n.Code != "" {
		ctx, cancel := context.WithTimeout(d.ctx, callTimeout)
		_, err := d.cfg.Lobby.Redeem(ctx, d.me, n.Table, n.Code)
		if f := d.cfg.DropInvitation; f != nil {
			_ = f(ctx, n.Table) // spent, or no longer good: as the screens' list drops it
		}
		cancel()
		if err != nil && !errors.Is(err, lobby.ErrMember) {
			d.say(fmt.Sprintf("Could not join %s: %s", words.Clean(n.Table, lobby.MaxNameLen), words.Sentence(d.said("take the invitation", err))))
			return
		}
	}
	d.open(n.Table)
}
