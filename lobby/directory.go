package lobby

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/mia-game/mia/engine/fair"
	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// directory is who is called what, now: the names of people with keys,
// read from storage once and kept until Renamed or Merged says otherwise.
// Every name the lobby shows (seats, hosts, chat lines, results, seeds
// given) is looked up here when a table publishes, never copied into a
// record when someone sits down.
type directory struct {
	mu     sync.RWMutex
	names  map[string]string   // person id -> name
	missed map[string]struct{} // ids whose name storage could not read
}

// known reports whether the name of id was ever asked for: only then may
// anything show them.
func (d *directory) known(id string) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	_, ok := d.names[id]
	if !ok {
		_, ok = d.missed[id]
	}
	return ok
}

func (d *directory) miss(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.missed == nil {
		d.missed = make(map[string]struct{})
	}
	d.missed[id] = struct{}{}
}

func (d *directory) get(id string) (string, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	name, ok := d.names[id]
	return name, ok
}

func (d *directory) set(id, name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.names[id] = name
}

func (d *directory) drop(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.names, id)
}

// unknownName is shown for a person storage does not know.
const unknownName = "?"

// Name is the name of a person now: a key-less player's from their id, a
// person's with keys from storage (read once, then kept until Renamed);
// "?" for someone storage does not know (or cannot read now).
func (l *Lobby) Name(id string) string {
	if name, ok := ident.KeylessName(id); ok {
		return name
	}
	if name, ok := l.dir.get(id); ok {
		return name
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.SaveTimeout)
	defer cancel()
	return l.lookup(ctx, id)
}

// learn reads the name of id into the directory unless it is there: the
// doors call it before a request reaches a table's actor, so that the
// actor finds the name without waiting on storage.
func (l *Lobby) learn(ctx context.Context, id string) {
	if id == "" {
		return
	}
	if _, ok := ident.KeylessName(id); ok {
		return
	}
	if _, ok := l.dir.get(id); !ok {
		l.lookup(ctx, id)
	}
}

// lookup reads a name from storage into the directory.
func (l *Lobby) lookup(ctx context.Context, id string) string {
	if id == "" || !ident.HasKeys(id) {
		return unknownName
	}
	name, err := l.cfg.Store.PersonName(ctx, id)
	switch {
	case errors.Is(err, ErrNoPerson):
		name = unknownName
	case err != nil:
		l.log.Warn("could not read a name", "person", id, "err", err)
		l.dir.miss(id)
		return unknownName // not kept: the next look may find it
	}
	l.dir.set(id, name)
	return name
}

// Renamed tells the lobby that the person id has a new name: it reads the
// name from storage, and every table showing them (a seat, the host, a
// chat line, a seed given) and the lobby's list and chat show it to every
// screen open on them, before Renamed returns. Only the screens that show
// them are woken: the lobby's when its chat has a line of theirs (a table
// that shows them tells the lobby itself when its row changed), so that a
// crowd naming itself costs each lobby screen nothing. Whatever shows a
// person asked the directory for their name first (Name): a person whose
// name it was never asked for (a newcomer's first name) is shown nowhere,
// and no table is asked.
func (l *Lobby) Renamed(ctx context.Context, id string) error {
	name, err := l.cfg.Store.PersonName(ctx, id)
	if err != nil {
		return err
	}
	known := l.dir.known(id)
	l.dir.set(id, name)
	if !known {
		return nil
	}
	l.mu.Lock()
	if l.chat.renamed(id, name) {
		l.notifyLocked()
	}
	ts := l.tablesLocked()
	l.mu.Unlock()
	for _, t := range ts {
		_ = t.doEvenPaused(ctx, func(context.Context) error { t.renamed(id, name); return nil }) // a table closed meanwhile shows no one
	}
	return nil
}

// Merged tells the lobby that the person from was merged into the person
// into (their last key joined into's keys; storage has moved what was
// theirs): the tables they hosted, were members of or sat at are into's,
// and their chat lines are.
func (l *Lobby) Merged(ctx context.Context, from, into string) {
	l.dir.drop(from)
	l.learn(ctx, into)
	name := l.Name(into)
	l.mu.Lock()
	l.chat.merged(from, into, name)
	ts := l.tablesLocked()
	l.notifyLocked()
	l.mu.Unlock()
	for _, t := range ts {
		_ = t.doEvenPaused(ctx, func(context.Context) error { t.merged(from, into, name); return nil })
	}
}

// tablesLocked lists the open tables; l.mu is held.
func (l *Lobby) tablesLocked() []*Table {
	ts := make([]*Table, 0, len(l.tables))
	for _, t := range l.tables {
		ts = append(ts, t)
	}
	return ts
}

// resultOf is how run ended, in its players' names now.
func (t *Table) resultOf(run *gameRun) *ResultInfo {
	label := func(s int) string { return words.Label(t.lobby.Name(run.players[s].ID), run.players[s].Bot) }
	r := &ResultInfo{GameID: run.id, Winner: label(run.g.Winner())}
	for _, s := range run.g.Standings() {
		r.Standings = append(r.Standings, label(s))
	}
	return r
}

// shows reports whether the table shows the person id by name: hosting,
// seated, in the game shown, in its chat or among the seeds given.
func (t *Table) shows(id string) bool {
	return t.rec.Host == id || t.seatOf(id) >= 0 || t.gameSeat(id) >= 0 || t.chat.has(id) ||
		slices.ContainsFunc(t.next.Given, func(g fair.GivenSeed) bool { return g.Person == id })
}

// renamed shows the person id's new name wherever the table shows them.
func (t *Table) renamed(id, name string) {
	if !t.shows(id) {
		return
	}
	t.chat.renamed(id, name)
	if t.result != nil && t.game != nil {
		t.result = t.resultOf(t.game)
	}
	t.changed(false)
}

// merged gives the person into what the person from had at the table
// (storage has moved it in its records): the host's place, a membership,
// a seat, their chat lines and the seed they gave.
func (t *Table) merged(from, into, name string) {
	if t.rec.Host == from {
		t.rec.Host = into
	}
	if i := slices.Index(t.rec.Members, from); i >= 0 {
		members := slices.Delete(slices.Clone(t.rec.Members), i, i+1)
		if t.rec.Host != into && !slices.Contains(members, into) {
			members = append(members, into)
		}
		t.rec.Members = members
	}
	if i := t.seatOf(from); i >= 0 {
		sitters := slices.Clone(t.sitters)
		if t.seatOf(into) >= 0 {
			sitters = without(sitters, i)
		} else {
			sitters[i].ID = into
		}
		t.sitters = sitters
	}
	t.chat.merged(from, into, name)
	if i := slices.IndexFunc(t.next.Given, func(g fair.GivenSeed) bool { return g.Person == from }); i >= 0 {
		given := slices.Clone(t.next.Given)
		if slices.ContainsFunc(given, func(g fair.GivenSeed) bool { return g.Person == into }) {
			given = slices.Delete(given, i, i+1)
		} else {
			given[i].Person = into
		}
		t.next.Given = given
	}
	t.changed(false)
}
