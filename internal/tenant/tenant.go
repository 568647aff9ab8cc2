// Package tenant carries the caller's organization through a context. Every
// database query of an organization-owned record is filtered by it (see the
// OrgMixin in ent/schema); code that must see all organizations (workers,
// key look-up, migrations) says so explicitly with System.
package tenant

import "context"

type ctxKey int

const (
	orgKey ctxKey = iota
	systemKey
)

// WithOrg returns a context scoped to organization orgID.
func WithOrg(ctx context.Context, orgID string) context.Context {
	return context.WithValue(ctx, orgKey, orgID)
}

// Org returns the organization of ctx.
func Org(ctx context.Context) (string, bool) {
	v, ok := ctx.Value(orgKey).(string)
	return v, ok && v != ""
}

// System returns a context that is not limited to one organization.
func System(ctx context.Context) context.Context {
	return context.WithValue(ctx, systemKey, true)
}

// IsSystem reports whether ctx was made by System and has no organization.
func IsSystem(ctx context.Context) bool {
	if _, ok := Org(ctx); ok {
		return false
	}
	v, _ := ctx.Value(systemKey).(bool)
	return v
}
