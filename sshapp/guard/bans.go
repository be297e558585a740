package guard

import (
	"context"
	"errors"
	"fmt"

	"github.com/mia-game/mia/store"
)

// Bans is what the guard needs to refuse a banned key, or a key of a
// banned person, at the door.
type Bans interface {
	Banned(ctx context.Context, fingerprint string) (store.Ban, error)
}

// Banned is what the key with fingerprint fp is told when bans refuse it,
// or "" when they let it in. A lookup that fails lets the key in; its
// error is returned for the log. (A server admin's key is not brought
// here: admins are never refused.)
func Banned(ctx context.Context, bans Bans, fp string) (string, error) {
	if bans == nil {
		return "", nil
	}
	ban, err := bans.Banned(ctx, fp)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("ban lookup: %w", err)
	case ban.Person != "":
		return "you are banned from this server", nil
	}
	return "this key is banned from this server", nil
}
