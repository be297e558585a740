package lobby

import "github.com/mia-game/mia/lobby/ident"

// The kinds of a person's id are ident's (lobby/ident/id.go): "p:N" for a
// person with keys, "bot:LEVEL:NAME" for a built-in bot, "KIND:NAME" for a
// player of a door without keys. Records hold the id; the name is looked
// up when shown (Lobby.Name).

// HasKeys reports whether id is a person with keys (ident.HasKeys).
func HasKeys(id string) bool { return ident.HasKeys(id) }
