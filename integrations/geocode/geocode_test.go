package geocode_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/geocode"
	"github.com/hearthbot/hearth/integrations/geocode/locationfake"
	"github.com/hearthbot/hearth/internal/awsconf"
)

func TestAWS(t *testing.T) {
	t.Parallel()
	school := hearth.Coordinates{Lat: 51.5007, Lon: -0.1246}
	fake := locationfake.New(t, "homes", map[string]hearth.Coordinates{"1 School Road, London": school})
	cfg, err := awsconf.Load(context.Background(), "eu-west-2", credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""))
	if err != nil {
		t.Fatal(err)
	}
	g := geocode.NewAWS(cfg, "homes", fake.URL)
	got, ok, err := g.Geocode(context.Background(), "1 School Road, London")
	if err != nil || !ok || got != school {
		t.Fatalf("Geocode = %v, %v, %v; want %v", got, ok, err, school)
	}
	if _, ok, err := g.Geocode(context.Background(), "Nowhere Lane"); ok || err != nil {
		t.Fatalf("an unknown place: %v, %v", ok, err)
	}
	if _, _, err := geocode.NewAWS(cfg, "other", fake.URL).Geocode(context.Background(), "1 School Road, London"); err == nil {
		t.Fatal("a missing index is not an error")
	}
	if s := fake.Searched(); len(s) != 2 {
		t.Fatalf("searched %q", s)
	}
}
