package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestBackupRestore runs the README's backup recipe: pg_dump of a live
// Hearth's database, pg_restore into an empty one, and Hearth started on
// the copy has everything: the user, their reminder, what they asked it to
// remember and the conversation.
func TestBackupRestore(t *testing.T) {
	t.Parallel()
	dump, err := exec.LookPath("pg_dump")
	if err != nil {
		t.Skip("no pg_dump on this machine")
	}
	restore, err := exec.LookPath("pg_restore")
	if err != nil {
		t.Skip("no pg_restore on this machine")
	}
	src := storetest.NewDatabase(t)
	base, app, stop := startAppWith(t, func(c *Config) { c.DatabaseURL = src })
	c := newChatter(t, base, app, "Rosa", "Europe/Madrid")
	mustContain(t, c.say("Remind me to renew the passport tomorrow at 10am"), "passport")
	c.say("Remember that the spare key is under the blue pot")
	stop()

	file := filepath.Join(t.TempDir(), "hearth.dump")
	if out, err := exec.Command(dump, "--format=custom", "--file="+file, src).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	dst := storetest.NewEmptyDatabase(t)
	if out, err := exec.Command(restore, "--no-owner", "--exit-on-error", "--dbname="+dst, file).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}

	base2, app2, _ := startAppWith(t, func(c *Config) { c.DatabaseURL = dst })
	ctx := context.Background()
	ct, err := app2.Store.FindContact(ctx, hearth.ChannelWebchat, "rosa", "rosa")
	if err != nil || ct.User.Timezone != "Europe/Madrid" {
		t.Fatalf("Rosa after the restore: %+v %v", ct.User, err)
	}
	tasks, err := app2.Store.FindTasks(ctx, hearth.TaskFilter{UserID: ct.User.ID, IncludeUndated: true})
	if err != nil || len(tasks) != 1 || !strings.Contains(tasks[0].Title, "passport") {
		t.Fatalf("tasks after the restore: %+v %v", tasks, err)
	}
	c2 := newChatter(t, base2, app2, "Rosa", "Europe/Madrid")
	// Only a reply newer than the restored transcript counts.
	if err := app2.Store.Pool().QueryRow(ctx, `SELECT max(id) FROM messages`).Scan(&c2.lastID); err != nil {
		t.Fatal(err)
	}
	mustContain(t, c2.say("Where is the spare key?"), "blue pot")
}
