// Package events is the events of the server: tournaments and
// competition nights (README.md). Each event is an actor (loop.go) that
// owns its entrants, its seating, its points and its clock, and drives
// the lobby's tables through their public methods, as a player does:
// it opens a table for each game it deals (lobby.CreateEventTable),
// deals it (Table.Deal), follows it (Table.Watch) and closes it once the
// game is over (Table.Close). Points are counted from the games' results
// (Tally), never stored.
//
// Its room: under lobby. It may import lobby (and lobby/ai), engine and
// engine/rating; its storage is its own interface (Storage), which
// store/lobbystore adapts; the doors (sshapp/command, botline, tui, web)
// import it, never the other way.
package events
