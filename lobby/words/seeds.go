package words

// SeedSays is what a person's seed for a table's dice does, in words, as
// every door tells them once they gave it (the table screen, the seed
// command): a seed is in the dice of the game it was given for only if
// its giver plays that game (lobby: the seeds of those seated when it is
// dealt). next is whether it was given for the next game (else it is in
// the running game's dice, dealt with it); seated whether its giver is
// seated for that game.
func SeedSays(next, seated bool) string {
	switch {
	case !next:
		return "it is in the dice of the game running now"
	case seated:
		return "it goes into the next game's dice"
	}
	return "it counts only if you play the next game"
}

// SeedIfSeated follows, in short, the seed of someone not seated for the
// next game, which counts only if they sit down and play it (SeedSays):
// the table screen's line under its title.
const SeedIfSeated = "if you sit"
