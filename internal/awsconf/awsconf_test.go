package awsconf_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/hearthbot/hearth/internal/awsconf"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		creds   bool   // explicit credentials, as tests pass them
		region  string // the setting
		env     string // AWS_REGION, the SDK chain's region
		want    string
		wantErr error
	}{
		{name: "explicit credentials and region", creds: true, region: "eu-west-1", want: "eu-west-1"},
		{name: "explicit credentials, no region", creds: true, env: "us-east-2", wantErr: awsconf.ErrNoRegion},
		{name: "the chain's region", env: "us-east-2", want: "us-east-2"},
		{name: "the setting wins over the chain", region: "eu-central-1", env: "us-east-2", want: "eu-central-1"},
		{name: "no region anywhere", wantErr: awsconf.ErrNoRegion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AWS_REGION", tt.env)
			t.Setenv("AWS_DEFAULT_REGION", "")
			t.Setenv("AWS_PROFILE", "")
			t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
			var creds aws.CredentialsProvider
			if tt.creds {
				creds = credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")
			}
			cfg, err := awsconf.Load(context.Background(), tt.region, creds)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v; want %v", err, tt.wantErr)
			}
			if err == nil && cfg.Region != tt.want {
				t.Fatalf("region = %q; want %q", cfg.Region, tt.want)
			}
		})
	}
}
