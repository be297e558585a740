module github.com/mia-game/mia

go 1.26.8
