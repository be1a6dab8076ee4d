// Package geocode turns an address into coordinates: Amazon Location
// Service's place index through aws-sdk-go-v2 (HEARTH_GEOCODER=aws). With
// no geocoder, addresses keep no coordinates unless given in chat, and
// questions about distance say why they cannot be judged.
package geocode

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/location"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/hearthbot/hearth"
)

// AWS geocodes with an Amazon Location Service place index.
type AWS struct {
	client *location.Client
	index  string
}

// NewAWS returns a geocoder searching the place index named index. A
// non-empty endpoint replaces the service's (a private endpoint, or a
// fake server in tests); requests then go to it as given, without the
// "places." host prefix.
func NewAWS(cfg aws.Config, index, endpoint string) *AWS {
	client := location.NewFromConfig(cfg, func(o *location.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
				return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("HearthNoHostPrefix",
					func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
						return next.HandleInitialize(smithyhttp.DisableEndpointHostPrefix(ctx, true), in)
					}), middleware.Before)
			})
		}
	})
	return &AWS{client: client, index: index}
}

// Geocode returns where address is: the best match of the place index.
// ok is false when the index knows no such place.
func (g *AWS) Geocode(ctx context.Context, address string) (hearth.Coordinates, bool, error) {
	address = strings.TrimSpace(address)
	if address == "" {
		return hearth.Coordinates{}, false, nil
	}
	out, err := g.client.SearchPlaceIndexForText(ctx, &location.SearchPlaceIndexForTextInput{
		IndexName: aws.String(g.index), Text: aws.String(address), MaxResults: aws.Int32(1),
	})
	if err != nil {
		return hearth.Coordinates{}, false, fmt.Errorf("geocode %q: %w", address, err)
	}
	for _, r := range out.Results {
		if r.Place == nil || r.Place.Geometry == nil || len(r.Place.Geometry.Point) != 2 {
			continue
		}
		// Amazon Location writes points as [longitude, latitude].
		c := hearth.Coordinates{Lon: r.Place.Geometry.Point[0], Lat: r.Place.Geometry.Point[1]}
		if c.Valid() {
			return c, true, nil
		}
	}
	return hearth.Coordinates{}, false, nil
}
