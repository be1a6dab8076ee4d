package main

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

func main() {
	loc, _ := time.LoadLocation("Europe/Berlin")
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, loc)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		for _, m := range timex.Find(sc.Text(), now, timex.Options{}) {
			fmt.Printf("%q kind=%v grain=%v value=%v from=%v to=%v [%d:%d]\n", m.Text, m.Kind, m.Grain, m.Value.Format(time.DateTime), m.From.Format(time.DateTime), m.To.Format(time.DateTime), m.Start, m.End)
		}
		fmt.Println("--")
	}
}
