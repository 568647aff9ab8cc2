// MuPDF declarations and the document wrapper shared by the cgo files of
// this package (pdf.go: pages drawn; vectors.go: pages read as geometry).
// Every function here is static: each cgo file compiles its own copy.
#ifndef PG_MUPDF_H
#define PG_MUPDF_H
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

#define PG_FZ_VERSION "1.24.9"

typedef struct fz_context fz_context;
typedef struct fz_document fz_document;
typedef struct fz_page fz_page;
typedef struct fz_pixmap fz_pixmap;
typedef struct fz_device fz_device;
typedef struct fz_colorspace fz_colorspace;
typedef struct fz_separations fz_separations;
typedef struct fz_locks_context fz_locks_context;
typedef struct { float x0, y0, x1, y1; } fz_rect;
typedef struct { int x0, y0, x1, y1; } fz_irect;
typedef struct { float a, b, c, d, e, f; } fz_matrix;
typedef struct { int abort; int progress; size_t progress_max; int errors; int incomplete; } fz_cookie;
typedef struct {
	void *user;
	void *(*malloc_)(void *, size_t);
	void *(*realloc_)(void *, void *, size_t);
	void (*free_)(void *, void *);
} fz_alloc_context;

// MuPDF's fz_jmp_buf is sigjmp_buf on Unix (HAVE_SIGSETJMP), jmp_buf elsewhere.
#if defined(__unix) || defined(__APPLE__)
#define PG_SETJMP(b) sigsetjmp(*(sigjmp_buf *)(b), 0)
#else
#define PG_SETJMP(b) setjmp(*(jmp_buf *)(b))
#endif

extern void *fz_push_try(fz_context *ctx);
extern int fz_do_try(fz_context *ctx);
extern int fz_do_always(fz_context *ctx);
extern int fz_do_catch(fz_context *ctx);
extern const char *fz_caught_message(fz_context *ctx);
extern void fz_ignore_error(fz_context *ctx);
extern void fz_set_warning_callback(fz_context *ctx, void (*cb)(void *, const char *), void *user);
extern void fz_set_error_callback(fz_context *ctx, void (*cb)(void *, const char *), void *user);

#define pg_try(ctx) if (!PG_SETJMP(fz_push_try(ctx))) if (fz_do_try(ctx)) do
#define pg_always(ctx) while (0); if (fz_do_always(ctx)) do
#define pg_catch(ctx) while (0); if (fz_do_catch(ctx))

extern fz_context *fz_new_context_imp(const fz_alloc_context *alloc, const fz_locks_context *locks, size_t max_store, const char *version);
extern void fz_drop_context(fz_context *ctx);
extern void fz_disable_icc(fz_context *ctx);
extern fz_document *pdf_open_document(fz_context *ctx, const char *filename); // returns pdf_document*, whose first member is its fz_document
extern fz_document *fz_open_document(fz_context *ctx, const char *filename);
extern void fz_register_document_handlers(fz_context *ctx);
extern void fz_drop_document(fz_context *ctx, fz_document *doc);
extern int fz_needs_password(fz_context *ctx, fz_document *doc);
extern int fz_count_pages(fz_context *ctx, fz_document *doc);
extern fz_page *fz_load_page(fz_context *ctx, fz_document *doc, int number);
extern void fz_drop_page(fz_context *ctx, fz_page *page);
extern fz_rect fz_bound_page(fz_context *ctx, fz_page *page);
extern fz_matrix fz_scale(float sx, float sy);
extern fz_rect fz_transform_rect(fz_rect rect, fz_matrix m);
extern fz_irect fz_round_rect(fz_rect rect);
extern fz_colorspace *fz_device_gray(fz_context *ctx);
extern fz_pixmap *fz_new_pixmap_with_bbox_and_data(fz_context *ctx, fz_colorspace *cs, fz_irect rect, fz_separations *seps, int alpha, unsigned char *samples);
extern void fz_drop_pixmap(fz_context *ctx, fz_pixmap *pix);
extern void fz_clear_pixmap_with_value(fz_context *ctx, fz_pixmap *pix, int value);
extern fz_device *fz_new_draw_device(fz_context *ctx, fz_matrix transform, fz_pixmap *dest);
extern void fz_close_device(fz_context *ctx, fz_device *dev);
extern void fz_drop_device(fz_context *ctx, fz_device *dev);
extern void fz_run_page(fz_context *ctx, fz_page *page, fz_device *dev, fz_matrix transform, fz_cookie *cookie);

// A counting allocator: MuPDF's memory for one document stays under limit.
// When an allocation would pass it, MuPDF first evicts its cache, then
// throws, and the page fails instead of the process running out of memory.
typedef struct {
	size_t used, peak, limit;
	int refused;
} pg_budget;

#define PG_HDR 16 // keeps malloc's 16-byte alignment

static void *pg_malloc(void *user, size_t n) {
	pg_budget *b = user;
	if (n > b->limit - b->used || n > (size_t)-1 - PG_HDR) { b->refused = 1; return NULL; }
	char *p = malloc(n + PG_HDR);
	if (!p) return NULL;
	*(size_t *)p = n;
	b->used += n;
	if (b->used > b->peak) b->peak = b->used;
	return p + PG_HDR;
}

static void pg_free(void *user, void *q) {
	pg_budget *b = user;
	if (!q) return;
	char *p = (char *)q - PG_HDR;
	b->used -= *(size_t *)p;
	free(p);
}

static void *pg_realloc(void *user, void *q, size_t n) {
	pg_budget *b = user;
	if (!q) return pg_malloc(user, n);
	if (n == 0) { pg_free(user, q); return NULL; }
	char *p = (char *)q - PG_HDR;
	size_t old = *(size_t *)p;
	if ((n > old && n - old > b->limit - b->used) || n > (size_t)-1 - PG_HDR) { b->refused = 1; return NULL; }
	char *r = realloc(p, n + PG_HDR);
	if (!r) return NULL;
	*(size_t *)r = n;
	b->used = b->used - old + n;
	if (b->used > b->peak) b->peak = b->used;
	return r + PG_HDR;
}

static void pg_quiet(void *user, const char *msg) { (void)user; (void)msg; }

typedef struct {
	pg_budget budget;
	fz_alloc_context alloc;
	fz_cookie cookie;
	fz_context *ctx;
	fz_document *doc;
	char msg[256];
} pg_doc;

static void pg_caught(pg_doc *d) {
	const char *m = fz_caught_message(d->ctx);
	strncpy(d->msg, m ? m : "", sizeof d->msg - 1);
	d->msg[sizeof d->msg - 1] = 0;
	fz_ignore_error(d->ctx);
}

static void pg_close(pg_doc *d) {
	if (!d) return;
	if (d->ctx) {
		fz_drop_document(d->ctx, d->doc);
		fz_drop_context(d->ctx);
	}
	free(d);
}

// pg_open returns 0 ok, 1 needs a password, -1 cannot open (d->msg), -2 no context.
// svg opens the file as SVG (by MuPDF's SVG reader) instead of PDF.
static int pg_open(const char *path, size_t limit, size_t store, int svg, pg_doc **out) {
	pg_doc *d = calloc(1, sizeof *d);
	*out = d;
	if (!d) return -2;
	d->budget.limit = limit;
	d->alloc.user = &d->budget;
	d->alloc.malloc_ = pg_malloc;
	d->alloc.realloc_ = pg_realloc;
	d->alloc.free_ = pg_free;
	d->ctx = fz_new_context_imp(&d->alloc, NULL, store, PG_FZ_VERSION);
	if (!d->ctx) return -2;
	fz_set_warning_callback(d->ctx, pg_quiet, NULL);
	fz_set_error_callback(d->ctx, pg_quiet, NULL);
	// Without ICC, colour → grey is plain luma (as in poppler): with it,
	// RGB mid-grey became 108 while DeviceGray mid-grey stayed 128.
	fz_disable_icc(d->ctx);
	int rc = 0;
	pg_try(d->ctx) {
		if (svg) {
			fz_register_document_handlers(d->ctx);
			d->doc = fz_open_document(d->ctx, path);
		} else {
			d->doc = pdf_open_document(d->ctx, path);
		}
		if (fz_needs_password(d->ctx, d->doc)) rc = 1;
	}
	pg_catch(d->ctx) {
		pg_caught(d);
		rc = -1;
	}
	return rc;
}

// pg_count returns the page count, or -1 (d->msg).
static int pg_count(pg_doc *d) {
	int n = -1;
	pg_try(d->ctx) {
		n = fz_count_pages(d->ctx, d->doc);
	}
	pg_catch(d->ctx) {
		pg_caught(d);
		n = -1;
	}
	return n;
}

// pg_bound gives page i's pixel box at the zoom and its size in points.
static int pg_bound(pg_doc *d, int i, float zoom, fz_irect *box, fz_rect *pts) {
	fz_page *volatile page = NULL;
	int ok = 1;
	pg_try(d->ctx) {
		page = fz_load_page(d->ctx, d->doc, i);
		*pts = fz_bound_page(d->ctx, page);
		*box = fz_round_rect(fz_transform_rect(*pts, fz_scale(zoom, zoom)));
	}
	pg_always(d->ctx) {
		fz_drop_page(d->ctx, page);
	}
	pg_catch(d->ctx) {
		pg_caught(d);
		ok = 0;
	}
	return ok;
}

// pg_render draws page i at zoom into samples, which holds w×h grey bytes.
// Returns 1 ok, 0 error (d->msg), -1 the page's box is not w×h.
static int pg_render(pg_doc *d, int i, float zoom, unsigned char *samples, int w, int h) {
	fz_page *volatile page = NULL;
	fz_pixmap *volatile pix = NULL;
	fz_device *volatile dev = NULL;
	volatile int ok = 1;
	fz_matrix id = {1, 0, 0, 1, 0, 0};
	pg_try(d->ctx) {
		page = fz_load_page(d->ctx, d->doc, i);
		fz_matrix ctm = fz_scale(zoom, zoom);
		fz_irect box = fz_round_rect(fz_transform_rect(fz_bound_page(d->ctx, page), ctm));
		if (box.x1 - box.x0 != w || box.y1 - box.y0 != h) {
			ok = -1;
			break; // leaves the do-while of pg_try
		}
		pix = fz_new_pixmap_with_bbox_and_data(d->ctx, fz_device_gray(d->ctx), box, NULL, 0, samples);
		fz_clear_pixmap_with_value(d->ctx, pix, 255);
		dev = fz_new_draw_device(d->ctx, id, pix);
		fz_run_page(d->ctx, page, dev, ctm, &d->cookie);
		fz_close_device(d->ctx, dev);
	}
	pg_always(d->ctx) {
		fz_drop_device(d->ctx, dev);
		fz_drop_pixmap(d->ctx, pix);
		fz_drop_page(d->ctx, page);
	}
	pg_catch(d->ctx) {
		pg_caught(d);
		ok = 0;
	}
	return ok;
}

static void pg_set_abort(pg_doc *d, int v) { *(volatile int *)&d->cookie.abort = v; }
#endif
