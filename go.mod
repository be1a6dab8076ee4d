module github.com/hearthbot/hearth

go 1.26
