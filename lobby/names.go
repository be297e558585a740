package lobby

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxNameLen is the longest name of a person, a bot or a table: every name
// is 1 to 16 of the characters A-Z a-z 0-9 _ . - (PROTOCOL.md §1).
const MaxNameLen = 16

// nameChars are the characters of a name, in words.
const nameChars = "A-Z a-z 0-9 _ . -"

// NameHint is the name rule in a few words, for the screens' hints: "1 to
// 16 of A-Z a-z 0-9 _ . -".
func NameHint() string { return fmt.Sprintf("1 to %d of %s", MaxNameLen, nameChars) }

// Errors of the name rule, fit to show the person who typed the name.
var (
	ErrBadName      = fmt.Errorf("a name is 1 to %d of the characters %s", MaxNameLen, nameChars)
	ErrBadTableName = fmt.Errorf("a table name is 1 to %d of the characters %s", MaxNameLen, nameChars)
	// ErrBotName: the name is a built-in bot's; it reads "NAME is the name
	// of a built-in bot; choose another".
	ErrBotName = errors.New("the name of a built-in bot; choose another")
)

// botNames are given to built-in bots in turn; a table adds a number
// ("ada2") when every one is taken. They, with or without a number, are
// reserved: no person or outside bot can take one.
var botNames = []string{"ada", "bert", "cleo", "dora", "emil", "fritz", "greta", "hugo", "ines"}

// validName is the name rule: 1 to MaxNameLen of [A-Za-z0-9_.-].
func validName(name string) bool {
	if len(name) < 1 || len(name) > MaxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// Overflows reports whether typing runes into a name field holding had
// would make a name longer than MaxNameLen: the screens say so (the name
// rule's error) instead of dropping what was typed without a word.
func Overflows(had string, runes int) bool { return utf8.RuneCountInString(had)+runes > MaxNameLen }

// CheckName checks a display name a person (or a bot on the line
// protocol) chooses: the name rule (ErrBadName), and not a built-in bot's
// name (ErrBotName). Uniqueness is the store's to check.
func CheckName(name string) error {
	switch {
	case !validName(name):
		return ErrBadName
	case IsBotName(name):
		return fmt.Errorf("%s is %w", name, ErrBotName)
	}
	return nil
}

// CheckTableName checks a table's name: the name rule (ErrBadTableName).
func CheckTableName(name string) error {
	if !validName(name) {
		return ErrBadTableName
	}
	return nil
}

// IsBotName reports whether name, in any case, is a built-in bot's: one
// of the bots' names, alone or followed by digits ("ada", "Bert", "ada2").
func IsBotName(name string) bool {
	base := strings.TrimRight(strings.ToLower(name), "0123456789")
	for _, b := range botNames {
		if base == b {
			return true
		}
	}
	return false
}
