// Package words is the one home of every sentence a door shows that is
// not an error's own text: a game's events told (narrate.go: the table's
// log, the lifted cup, the replays, the claim on the table), a table's
// rules (rulewords.go), ratings and seasons (season.go), how an abandoned
// game ended (abandoned.go), what a player's seed does (seeds.go), and the cleaning of typed text, the one
// plural and the one rounding of a rate (clean.go). The screens, the
// commands, the bot protocol, the web window and the lobby itself say
// these things by calling it.
//
// Its room: pure functions of their arguments, no goroutines, no clocks
// but the time it is given, no I/O. It may import engine (and
// engine/rating) and lobby/ident (the longest name), never lobby, which
// imports it for the words its actors put in a snapshot or an error.
package words
