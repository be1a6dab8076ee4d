package main

import (
	"context"
	"fmt"

	"github.com/hearthbot/hearth/integrations/geocode"
	"github.com/hearthbot/hearth/internal/awsconf"
)

// newGeocoder returns the configured geocoder (HEARTH_GEOCODER), or nil
// for none.
func newGeocoder(ctx context.Context, cfg Config) (*geocode.AWS, error) {
	if cfg.Geocoder != "aws" {
		return nil, nil
	}
	awsCfg, err := awsconf.Load(ctx, cfg.GeocoderRegion, nil)
	if err != nil {
		return nil, fmt.Errorf("geocoder (check HEARTH_GEOCODER_REGION or AWS_REGION): %w", err)
	}
	return geocode.NewAWS(awsCfg, cfg.AWSPlaceIndex, cfg.GeocoderURL), nil
}
