package httpx

import "context"

type shutdownKey struct{}

// WithShutdown records in ctx a channel that closes when the server begins
// to shut down. Request contexts do not end then (in-flight requests are
// drained), so long-lived responses — event streams, websockets — watch
// this channel to end and let clients reconnect elsewhere.
func WithShutdown(ctx context.Context, done <-chan struct{}) context.Context {
	return context.WithValue(ctx, shutdownKey{}, done)
}

// UntilShutdown is ctx, also cancelled when the server begins to shut down
// (see WithShutdown). Call cancel when done with it.
func UntilShutdown(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if done, _ := ctx.Value(shutdownKey{}).(<-chan struct{}); done != nil {
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}
