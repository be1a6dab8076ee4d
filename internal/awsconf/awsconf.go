// Package awsconf loads the AWS SDK configuration that Hearth's AWS clients
// (Bedrock models, Transcribe Streaming) share: the SDK's standard chain,
// or explicit credentials in tests, and always a region.
package awsconf

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

// ErrNoRegion means neither the setting nor the SDK's chain named a
// region.
var ErrNoRegion = errors.New("no region configured (set AWS_REGION)")

// Load returns the configuration for region (empty: the SDK's chain
// decides) and creds (nil: the SDK's chain: environment, shared files,
// SSO, instance roles). Loading reads the environment and shared files but
// makes no request.
func Load(ctx context.Context, region string, creds aws.CredentialsProvider) (aws.Config, error) {
	if creds != nil {
		if region == "" {
			return aws.Config{}, ErrNoRegion
		}
		return aws.Config{Region: region, Credentials: creds}, nil
	}
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return aws.Config{}, ErrNoRegion
	}
	return cfg, nil
}
