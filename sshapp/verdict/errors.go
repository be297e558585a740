package verdict

// Error is an error of this package, of a kind the doors answer by
// (lobby.KindOf, lobby.Shown): this package may not import the lobby, so
// it names its kind as lobby.ErrorKind's String does, and the lobby reads
// it (KindName). Its sentinels are matched by errors.Is, by identity.
type Error struct {
	kind string
	say  string
}

// The kinds' names (lobby.ErrorKind's String).
const (
	refused     = "refused"
	notFound    = "not found"
	unavailable = "unavailable"
)

func (e *Error) Error() string { return e.say }

// KindName is the name of the error's kind (lobby.ErrorKind).
func (e *Error) KindName() string { return e.kind }
