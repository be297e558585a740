package events

import "slices"

// The seating of each format, as pure functions of who is there: the
// event's actor calls them and deals the tables they make.

// met says whether two entrants sat at one table (in their last game for
// an arena, in any earlier round for a Swiss event).
type met func(a, b string) bool

// clashes counts the players of table that id has met.
func clashes(id string, table []string, seen met) int {
	n := 0
	for _, o := range table {
		if seen(id, o) {
			n++
		}
	}
	return n
}

// arenaTables seats free entrants, longest free first, at tables of
// seats: as many full tables as they fill, each filled in their order
// with those who met none of it in their last game where there are such
// (last), the others after. The rest wait for more to be free; but when
// gather is set (nobody else will be free soon, or they have waited long
// enough) the rest, if two or more, sit at a smaller table. No table has
// fewer than 2 players.
func arenaTables(free []string, seats int, last met, gather bool) (tables [][]string, wait []string) {
	pool := slices.Clone(free)
	for len(pool) >= seats {
		var table []string
		table, pool = fill(pool, seats, last)
		tables = append(tables, table)
	}
	if gather && len(pool) >= 2 {
		tables = append(tables, pool)
		pool = nil
	}
	return tables, pool
}

// fill takes n players from pool for one table: the first, then, in the
// pool's order, whoever met fewest of those taken (the first of the
// fewest), and returns the table and the pool left. Linear in the pool
// for each seat.
func fill(pool []string, n int, seen met) (table, rest []string) {
	table = append(table, pool[0])
	taken := make([]bool, len(pool))
	taken[0] = true
	for len(table) < n {
		best, bestN := -1, 0
		for i, id := range pool {
			if taken[i] {
				continue
			}
			c := clashes(id, table, seen)
			if best < 0 || c < bestN {
				best, bestN = i, c
				if c == 0 {
					break
				}
			}
		}
		taken[best] = true
		table = append(table, pool[best])
	}
	for i, id := range pool {
		if !taken[i] {
			rest = append(rest, id)
		}
	}
	return table, rest
}

// sizes splits n players into the fewest tables of at most seats, their
// sizes apart by at most one, largest first; nil when that leaves a table
// of one (n odd at tables of two), and for fewer than 2.
func sizes(n, seats int) []int {
	if n < 2 {
		return nil
	}
	k := (n + seats - 1) / seats
	base, extra := n/k, n%k
	if base < 2 {
		return nil
	}
	out := make([]int, k)
	for i := range out {
		out[i] = base
		if i < extra {
			out[i]++
		}
	}
	return out
}

// searchBudget bounds the search for a Swiss round without a repeated
// table-mate: past it, the tables filled best first stand.
const searchBudget = 20000

// swissTables seats a Swiss round: ranked best first, at the fewest
// tables of at most seats (sizes), neighbours by score together, and no
// two who met before (seen) at one table where that can be avoided: the
// tables are filled best first, each seat with the best ranked who met
// nobody there, and if that leaves a repeat, a bounded search looks for a
// round without one. When the count does not fit (an odd count at tables
// of two), the lowest ranked who has had no bye (byed) sits out: bye.
func swissTables(ranked []string, seats int, seen met, byed func(string) bool) (tables [][]string, bye string) {
	pool := slices.Clone(ranked)
	if len(pool) >= 2 && sizes(len(pool), seats) == nil {
		i := len(pool) - 1
		for i > 0 && byed(pool[i]) {
			i--
		}
		bye = pool[i]
		pool = slices.Delete(pool, i, i+1)
	}
	if len(pool) < 2 {
		if len(pool) == 1 && bye == "" {
			bye = pool[0]
		}
		return nil, bye
	}
	sz := sizes(len(pool), seats)
	tables = greedyTables(pool, sz, seen)
	if repeats(tables, seen) > 0 {
		budget := searchBudget
		if found := searchTables(pool, sz, seen, &budget); found != nil {
			tables = found
		}
	}
	return tables, bye
}

// greedyTables fills tables of the sizes from pool, in order: each its
// best ranked left, then whoever met fewest of the table.
func greedyTables(pool []string, sz []int, seen met) [][]string {
	tables := make([][]string, 0, len(sz))
	rest := pool
	for _, n := range sz {
		var t []string
		t, rest = fill(rest, n, seen)
		tables = append(tables, t)
	}
	return tables
}

// repeats counts the pairs at one table who met before.
func repeats(tables [][]string, seen met) int {
	n := 0
	for _, t := range tables {
		for i, a := range t {
			n += clashes(a, t[i+1:], seen)
		}
	}
	return n
}

// searchTables looks for tables of the sizes without a repeat, trying
// the best ranked first, within budget steps; nil if it finds none.
func searchTables(pool []string, sz []int, seen met, budget *int) [][]string {
	used := make([]bool, len(pool))
	tables := make([][]string, len(sz))
	var place func(t int) bool
	place = func(t int) bool {
		if t == len(sz) {
			return true
		}
		if len(tables[t]) == sz[t] {
			return place(t + 1)
		}
		for i, id := range pool {
			if used[i] || clashes(id, tables[t], seen) > 0 {
				continue
			}
			if *budget--; *budget < 0 {
				return false
			}
			used[i] = true
			tables[t] = append(tables[t], id)
			if place(t) {
				return true
			}
			used[i] = false
			tables[t] = tables[t][:len(tables[t])-1]
			if len(tables[t]) == 0 {
				return false // the table's first is the best ranked left: no other first is better
			}
		}
		return false
	}
	if place(0) {
		return tables
	}
	return nil
}

// knockoutTables seats a knockout round: seeded best first, at the fewest
// tables of at most seats, the seeds spread snake-wise (1 and 8 at one
// table of two, 2 and 7 at the next). All at one table is the final. When
// the count does not fit (odd at tables of two), the top seed goes on
// without a game: bye.
func knockoutTables(seeded []string, seats int) (tables [][]string, bye string, final bool) {
	pool := slices.Clone(seeded)
	if len(pool) >= 2 && sizes(len(pool), seats) == nil {
		bye, pool = pool[0], pool[1:]
	}
	sz := sizes(len(pool), seats)
	if sz == nil {
		return nil, bye, false
	}
	tables = make([][]string, len(sz))
	k, dir := 0, 1
	for _, id := range pool {
		for len(tables[k]) == sz[k] {
			k, dir = step(k, dir, len(sz))
		}
		tables[k] = append(tables[k], id)
		k, dir = step(k, dir, len(sz))
	}
	return tables, bye, len(tables) == 1 && bye == ""
}

// step moves k along 0…n-1 and back, as a snake does.
func step(k, dir, n int) (int, int) {
	if n == 1 {
		return 0, dir
	}
	next := k + dir
	if next < 0 || next >= n {
		return k, -dir // the end: its table takes the next seed too
	}
	return next, dir
}
