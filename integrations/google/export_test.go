package google

import "context"

// ImportEvent runs an imported event's job, for tests.
func (g *Google) ImportEvent(ctx context.Context, j ImportEventArgs) error {
	return g.importEvent(ctx, j)
}

// JWTAlg reads a JWT header's algorithm, for its fuzz test.
var JWTAlg = jwtAlg
