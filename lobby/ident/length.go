package ident

// MaxNameLen is the longest name of a person, a built-in bot or a table,
// in runes. The rule of names built on it is the lobby's (lobby.CheckName,
// whose MaxNameLen it is); it is declared here so that the words every
// door shows (lobby/words), which may not import the lobby, cut a name as
// that rule does.
const MaxNameLen = 16
