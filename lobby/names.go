package lobby

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mia-game/mia/lobby/ident"
	"github.com/mia-game/mia/lobby/words"
)

// MaxNameLen is the longest name of a person, a built-in bot or a table:
// every name is 1 to 16 of the characters A-Z a-z 0-9 _ . - (PROTOCOL.md
// §1), not beginning with "-", with at least one letter or digit. A door
// whose protocol allows longer names (the Mäxchen gateway's 20) checks
// them with CheckNameUpTo: the same characters, skeleton and reservations.
// (Declared in lobby/ident, which the words of lobby/words may import.)
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
	// ErrNameNoLetter: only separators (_ . -), which set a name's parts
	// apart and never make it distinct (the skeleton drops them).
	ErrNameNoLetter = NewError(Refused, "name without a letter or digit")
	// ErrBotName: the name is a built-in bot's, or looks like one, or reads
	// as a bot's ("ada_bot", "x.b0t", "adabot"); it reads "NAME is the name
	// of a built-in bot; choose another".
	ErrBotName = NewError(Refused, "the name of a built-in bot; choose another")
	// ErrReservedName: the name is, or looks like, one of reservedWords:
	// the server's own (the Mäxchen gateway's, mia, server, system), its
	// admins' (admin, root, …), or a word the screens say in place of a
	// name (you, someone, …).
	ErrReservedName = NewError(Refused, "a name the server keeps for itself")
)

// NameError is a name the rule refuses: the rule it breaks and what to
// tell. It is Refused.
type NameError struct {
	Rule  error  // one of the rules above
	Name  string // as given (cleaned when told)
	Max   int    // the limit of its door
	Table bool   // a table's name
	Event bool   // an event's name (lobby/events)
	Like  string // the reserved name or word it looks like (ErrBotName, ErrReservedName); "bot" for one that reads as a bot's
}

func (e *NameError) Error() string {
	what := "a name"
	switch {
	case e.Event:
		what = "an event's name"
	case e.Table:
		what = "a table name"
	}
	shown := words.Echo(e.Name)
	switch e.Rule {
	case ErrNameLong:
		return fmt.Sprintf("%s is %d characters long: %s has at most %d", shown, utf8.RuneCountInString(e.Name), what, e.Max)
	case ErrNameDash:
		return fmt.Sprintf("%s may not begin with - (it would read as a flag)", what)
	case ErrNameNoLetter:
		return fmt.Sprintf("%s needs a letter or a digit: %s only set its parts apart", what, "_ . -")
	case ErrBotName:
		switch {
		case e.Like == botWord:
			return shown + " reads as a bot's name: only the server's built-in bots are named so; choose another"
		case strings.EqualFold(strings.TrimRight(e.Name, nameDigits+ident.Separators), e.Like):
			return shown + " is " + ErrBotName.Error()
		}
		return fmt.Sprintf("%s looks like %s, the name of a built-in bot; choose another", shown, e.Like)
	case ErrReservedName:
		is := "is"
		if !strings.EqualFold(strings.TrimRight(e.Name, nameDigits+ident.Separators), e.Like) {
			is = "looks like " + e.Like + ","
		}
		if e.Like == gatewayName {
			return fmt.Sprintf("%s %s the name of the server's Mäxchen gateway; choose another", shown, is)
		}
		return fmt.Sprintf("%s %s a name the server keeps for itself; choose another", shown, is)
	}
	return fmt.Sprintf("%s is 1 to %d of the characters %s", what, e.Max, nameChars)
}

// Kind is Refused.
func (e *NameError) Kind() ErrorKind { return Refused }

// Is matches the rule, and ErrBadName or ErrBadTableName for a refusal
// of the characters, the length, the dash or the want of a letter.
func (e *NameError) Is(target error) bool {
	if target == e.Rule {
		return true
	}
	bad := e.Rule == ErrNameChars || e.Rule == ErrNameLong || e.Rule == ErrNameDash || e.Rule == ErrNameNoLetter
	return bad && (target == ErrBadTableName && e.Table || target == ErrBadName && !e.Table)
}

// botNames are given to built-in bots in turn; a table adds a number
// ("ada2") when every one is taken. They, with or without a number, and
// any name that looks like one (skeleton), are reserved: no person or
// outside bot can take one.
var botNames = []string{"ada", "bert", "cleo", "dora", "emil", "fritz", "greta", "hugo", "ines"}

// gatewayName is the name of the Mäxchen gateway, which hosts its table.
var gatewayName, _ = ident.KeylessName(ident.GatewayHost)

// reservedWords are the names no person and no Mäxchen bot may take, nor
// one that looks like them (the skeleton: "r00t", "SYSTEM", "admin_"),
// with or without a number after them ("admin2"): the one list of them.
// Names taken before a word joined the list stay their holders'.
var reservedWords = []string{
	gatewayName, "mia", "server", "system", // the server's own
	"admin", "administrator", "root", "sysop", "operator", "moderator", "mod",
	"staff", "support", "official", "owner", // who runs the server
	"you", "someone", "nobody", "everyone", // what the screens say in place of a name
}

// botWord is what makes a name read as a bot's: a part of it set apart by
// a separator ("my_bot", "bot.x", "my-b0t2"), which no person's name may
// have (a person's bot is a seat's fact, marked by the screens), and
// beside a built-in bot's name or a reserved word ("ada_bot", "adabot",
// "bot.ada", "root-bot"), which no name may have: the Mäxchen gateway's
// bots are bots, and say so ("rational-python-bot"), but none passes for
// a built-in bot or the server.
const botWord = "bot"

// nameDigits are the digits a name may end in, as a number after it.
const nameDigits = "0123456789"

// shape checks the characters, the dash, the length and the want of a
// letter or digit of a name.
func shape(name string, max int, table bool) error {
	rule := error(nil)
	switch {
	case !validChars(name):
		rule = ErrNameChars
	case name[0] == '-':
		rule = ErrNameDash
	case len(name) > max:
		rule = ErrNameLong
	case strings.Trim(name, ident.Separators) == "":
		rule = ErrNameNoLetter
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
// commands and bots on the line protocol): the characters, the dash, the
// length and a letter or digit (ErrBadName); not a built-in bot's name
// nor one that reads as a bot's (ErrBotName), not a reserved word
// (ErrReservedName), nor one that looks like them. That no one else's
// name looks like it is the store's to check, in the transaction that
// takes it.
func CheckName(name string) error { return checkName(name, MaxNameLen, true) }

// CheckNameUpTo is the rule of the Mäxchen gateway's door, whose bots'
// names may be up to max characters (its 20): CheckName's, but that a
// bot's name may say it is one ("rational-python-bot"), as long as it
// does not pass for a built-in bot or the server ("ada_bot", "mia-bot").
func CheckNameUpTo(name string, max int) error { return checkName(name, max, false) }

func checkName(name string, max int, person bool) error {
	if err := shape(name, max, false); err != nil {
		return err
	}
	like, rule := reserved(name, person)
	if rule != nil {
		return &NameError{Rule: rule, Name: name, Max: max, Like: like}
	}
	return nil
}

// reserved is the name or word a name of the right shape looks like and
// the rule it breaks (ErrBotName, ErrReservedName); nil if none. A
// number, and separators, at the end change nothing ("admin2", "root_").
// A person's name may not read as a bot's at all (botWord).
func reserved(name string, person bool) (like string, rule error) {
	if b, ok := builtinLike(name); ok {
		return b, ErrBotName
	}
	if w, ok := wordLike(name); ok {
		return w, ErrReservedName
	}
	parts := strings.FieldsFunc(name, func(r rune) bool { return strings.ContainsRune(ident.Separators, r) })
	for i, part := range parts {
		if !Alike(strings.TrimRight(part, nameDigits), botWord) {
			continue
		}
		// The rest of the name, without the word bot.
		rest := strings.Join(append(slices.Clone(parts[:i]), parts[i+1:]...), "")
		if _, bot := builtinLike(rest); person || bot || isWord(rest) {
			return botWord, ErrBotName
		}
	}
	base := strings.TrimRight(name, nameDigits+ident.Separators)
	if rest, ok := strings.CutSuffix(ident.Skeleton(base), ident.Skeleton(botWord)); ok && rest != "" {
		if _, bot := builtinLike(rest); bot || isWord(rest) {
			return botWord, ErrBotName
		}
	}
	return "", nil
}

// wordLike is the reserved word that name looks like, a number and
// separators at its end aside.
func wordLike(name string) (string, bool) { return likeOneOf(name, reservedWords) }

func isWord(name string) bool { _, ok := wordLike(name); return ok }

// SuggestTableName is the name a door suggests for a new table of the
// player named player: "NAME-table", cut to a table name's length.
func SuggestTableName(player string) string {
	n := player + "-table"
	if len(n) > MaxNameLen {
		n = n[:MaxNameLen]
	}
	return n
}

// CheckTableName checks a table's name: the characters, the dash, the
// length and a letter or digit (ErrBadTableName). That no open table's
// name looks like it is the lobby's to check (Lobby.CreateTable); the
// reserved names are people's, not tables'.
func CheckTableName(name string) error { return shape(name, MaxNameLen, true) }

// MaxEventNameLen is the longest name of an event (lobby/events): its
// tables are named after it, NAME-N, within MaxNameLen.
const MaxEventNameLen = MaxNameLen - 5

// CheckEventName checks an event's name: a table's rule, at most
// MaxEventNameLen long. Its refusals match ErrBadTableName.
func CheckEventName(name string) error {
	err := shape(name, MaxEventNameLen, true)
	var ne *NameError
	if errors.As(err, &ne) {
		ne.Event = true
	}
	return err
}

// Alike reports whether two names look alike: the same skeleton (package
// ident: separators dropped, case, I/l/1, O/0 and the other digits that
// stand for letters, rn/m, vv/w). Two people, two open tables, two of the
// gateway's bots never have names alike.
func Alike(a, b string) bool { return ident.Alike(a, b) }

// IsBotName reports whether name is a built-in bot's or looks like one:
// one of the bots' names, alone or followed by digits or separators
// ("ada", "Bert", "ada2", "ada_", "lnes", "hug0").
func IsBotName(name string) bool {
	_, ok := builtinLike(name)
	return ok
}

// builtinLike is the built-in bot's name that name looks like, a number
// and separators at its end aside.
func builtinLike(name string) (string, bool) { return likeOneOf(name, botNames) }

// likeOneOf is the one of names that name looks like, alone or with a
// number and separators after it.
func likeOneOf(name string, names []string) (string, bool) {
	base := strings.TrimRight(name, nameDigits+ident.Separators)
	for _, n := range names {
		if Alike(base, n) || Alike(name, n) {
			return n, true
		}
	}
	return "", false
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
	return fmt.Sprintf("%s looks like %s, which is taken; choose another", words.Echo(e.Name), words.Echo(e.Taken))
}

// Kind is Refused.
func (e *LookalikeError) Kind() ErrorKind { return Refused }

// Is matches the rule.
func (e *LookalikeError) Is(target error) bool { return target == e.Rule }
