package lobby

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// MaxNameLen is the longest name of a person, a built-in bot or a table:
// every name is 1 to 16 of the characters A-Z a-z 0-9 _ . - (PROTOCOL.md
// §1), not beginning with "-". A door whose protocol allows longer names
// (the Mäxchen gateway's 20) checks them with CheckNameUpTo: the same
// characters, skeleton and reservations. (Declared in lobby/ident, which
// the words of lobby/words may import.)
const MaxNameLen = ident.MaxNameLen

// nameChars are the characters of a name, in words.
const nameChars = "A-Z a-z 0-9 _ . -"

// NameHint is the name rule in a few words, for the screens' hints: "1 to
// 16 of A-Z a-z 0-9 _ . -, not starting with -".
func NameHint() string {
	return fmt.Sprintf("1 to %d of %s, not starting with -", MaxNameLen, nameChars)
}

// The rules of names (errors.Is). A refusal is a *NameError, whose Error
// is the sentence the person reads; every refusal of the
// characters, the length or the dash also matches ErrBadName (a person's
// name) or ErrBadTableName (a table's).
var (
	ErrBadName      = NewError(Refused, "not a valid name")
	ErrBadTableName = NewError(Refused, "not a valid table name")
	// ErrNameChars: empty, or a character outside A-Z a-z 0-9 _ . -
	// (anything not ASCII is refused at the door).
	ErrNameChars = NewError(Refused, "a character a name may not hold")
	// ErrNameLong: longer than the limit; a name is refused, never cut.
	ErrNameLong = NewError(Refused, "name too long")
	// ErrNameDash: begins with "-", which commands would read as a flag.
	ErrNameDash = NewError(Refused, "name begins with -")
	// ErrBotName: the name is a built-in bot's, or looks like one; it reads
	// "NAME is the name of a built-in bot; choose another".
	ErrBotName = NewError(Refused, "the name of a built-in bot; choose another")
	// ErrReservedName: the name is the server's own (the Mäxchen gateway's
	// host), or looks like it.
	ErrReservedName = NewError(Refused, "a name the server keeps for itself")
)

// NameError is a name the rule refuses: the rule it breaks and what to
// tell. It is Refused.
type NameError struct {
	Rule  error  // one of the rules above
	Name  string // as given (cleaned when told)
	Max   int    // the limit of its door
	Table bool   // a table's name
}

func (e *NameError) Error() string {
	what := "a name"
	if e.Table {
		what = "a table name"
	}
	shown := words.Clean(e.Name, 40)
	switch e.Rule {
	case ErrNameLong:
		return fmt.Sprintf("%s is %d characters long: %s has at most %d", shown, len(e.Name), what, e.Max)
	case ErrNameDash:
		return fmt.Sprintf("%s may not begin with - (it would read as a flag)", what)
	case ErrBotName:
		return shown + " is " + ErrBotName.Error()
	case ErrReservedName:
		return shown + " is the name of the server's Mäxchen gateway; choose another"
	}
	return fmt.Sprintf("%s is 1 to %d of the characters %s", what, e.Max, nameChars)
}

// Kind is Refused.
func (e *NameError) Kind() ErrorKind { return Refused }

// Is matches the rule, and ErrBadName or ErrBadTableName for a refusal
// of the characters, the length or the dash.
func (e *NameError) Is(target error) bool {
	if target == e.Rule {
		return true
	}
	bad := e.Rule == ErrNameChars || e.Rule == ErrNameLong || e.Rule == ErrNameDash
	return bad && (target == ErrBadTableName && e.Table || target == ErrBadName && !e.Table)
}

// botNames are given to built-in bots in turn; a table adds a number
// ("ada2") when every one is taken. They, with or without a number, and
// any name that looks like one (skeleton), are reserved: no person or
// outside bot can take one.
var botNames = []string{"ada", "bert", "cleo", "dora", "emil", "fritz", "greta", "hugo", "ines"}

// reservedNames are the server's own: the name of the Mäxchen gateway,
// which hosts its table.
var reservedNames = []string{"maexchen"}

// shape checks the characters, the dash and the length of a name.
func shape(name string, max int, table bool) error {
	rule := error(nil)
	switch {
	case !validChars(name):
		rule = ErrNameChars
	case name[0] == '-':
		rule = ErrNameDash
	case len(name) > max:
		rule = ErrNameLong
	}
	if rule == nil {
		return nil
	}
	return &NameError{Rule: rule, Name: name, Max: max, Table: table}
}

// validChars: at least one character, every one of A-Z a-z 0-9 _ . -.
func validChars(name string) bool {
	if name == "" {
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

// validName is the name rule of a built-in bot's or a table's name.
func validName(name string) bool { return shape(name, MaxNameLen, false) == nil }

// Overflows reports whether typing runes into a name field holding had
// would make a name longer than MaxNameLen: the screens say so (the name
// rule's error) instead of dropping what was typed without a word.
func Overflows(had string, runes int) bool { return utf8.RuneCountInString(had)+runes > MaxNameLen }

// CheckName checks a name a person chooses (over SSH, for their screens,
// commands and bots on the line protocol): the characters, the dash and
// the length (ErrBadName), and not a built-in bot's name nor the server's
// own, nor one that looks like them (ErrBotName, ErrReservedName). That no
// one else's name looks like it is the store's to check, in the
// transaction that takes it.
func CheckName(name string) error { return CheckNameUpTo(name, MaxNameLen) }

// CheckNameUpTo is CheckName for a door whose protocol allows names up to
// max characters (the Mäxchen gateway's 20): the same rule but the length.
func CheckNameUpTo(name string, max int) error {
	if err := shape(name, max, false); err != nil {
		return err
	}
	switch {
	case IsBotName(name):
		return &NameError{Rule: ErrBotName, Name: name, Max: max}
	case isReserved(name):
		return &NameError{Rule: ErrReservedName, Name: name, Max: max}
	}
	return nil
}

// CheckTableName checks a table's name: the characters, the dash and the
// length (ErrBadTableName). That no open table's name looks like it is
// the lobby's to check (Lobby.CreateTable).
func CheckTableName(name string) error { return shape(name, MaxNameLen, true) }

// Alike reports whether two names look alike: the same skeleton (package
// ident: case, I/l/1, O/0, rn/m, vv/w). Two people, two open tables,
// two of the gateway's bots never have names alike.
func Alike(a, b string) bool { return ident.Alike(a, b) }

// IsBotName reports whether name is a built-in bot's or looks like one:
// one of the bots' names, alone or followed by digits ("ada", "Bert",
// "ada2", "lnes", "hug0").
func IsBotName(name string) bool {
	base := strings.TrimRight(name, "0123456789")
	for _, b := range botNames {
		if Alike(base, b) || Alike(name, b) {
			return true
		}
	}
	return false
}

// isReserved reports whether name is the server's own or looks like it.
func isReserved(name string) bool {
	for _, r := range reservedNames {
		if Alike(name, r) {
			return true
		}
	}
	return false
}

// LookalikeError refuses a name that looks like one taken (Alike): a
// person's, an open table's, a bot's of the gateway. Rule is what it is
// refused as (ErrTableExists for a table's name). It is Refused.
type LookalikeError struct {
	Rule  error
	Name  string // the name asked for
	Taken string // the name it looks like
}

func (e *LookalikeError) Error() string {
	return fmt.Sprintf("%s looks like %s, which is taken; choose another", words.Clean(e.Name, 40), words.Clean(e.Taken, 40))
}

// Kind is Refused.
func (e *LookalikeError) Kind() ErrorKind { return Refused }

// Is matches the rule.
func (e *LookalikeError) Is(target error) bool { return target == e.Rule }
