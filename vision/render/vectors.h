// A MuPDF device that records a page's marks as geometry instead of
// drawing them: every filled or stroked path (its points in page pixels at
// the render's zoom), every glyph of visible text (its character, matrix
// and box) and where images are drawn. Content that does not reach the
// page is left out: mask definitions, the cells of tiling patterns (hatch
// fills) and invisible text. Each path carries the box of the clips in
// force, so what a viewport clips away can be cut off by the reader.
//
// The record is a stream of floats (see pg_vec_* below), written to a
// growable buffer whose size is capped; past the cap the page is marked
// truncated and recording stops.
#ifndef PG_VECTORS_H
#define PG_VECTORS_H
#include <stdint.h>
#include "mupdf.h"

typedef struct fz_path fz_path;
typedef struct fz_text fz_text;
typedef struct fz_shade fz_shade;
typedef struct fz_image fz_image;
typedef struct fz_function fz_function;
typedef struct fz_font fz_font;
typedef struct fz_default_colorspaces fz_default_colorspaces;
typedef struct fz_device_container_stack fz_device_container_stack;
typedef struct { float x, y; } fz_point;
typedef struct { uint8_t ri, bp, op, opm; } fz_color_params;
typedef enum { PG_LINECAP_BUTT = 0 } fz_linecap;
typedef enum { PG_LINEJOIN_MITER = 0 } fz_linejoin;
typedef int fz_structure; // an enum in MuPDF
typedef int fz_metatext;  // an enum in MuPDF

typedef struct {
	int refs;
	fz_linecap start_cap, dash_cap, end_cap;
	fz_linejoin linejoin;
	float linewidth;
	float miterlimit;
	float dash_phase;
	int dash_len;
	float dash_list[32];
} fz_stroke_state;

typedef struct {
	void (*moveto)(fz_context *ctx, void *arg, float x, float y);
	void (*lineto)(fz_context *ctx, void *arg, float x, float y);
	void (*curveto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2, float x3, float y3);
	void (*closepath)(fz_context *ctx, void *arg);
	void (*quadto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2);
	void (*curvetov)(fz_context *ctx, void *arg, float x2, float y2, float x3, float y3);
	void (*curvetoy)(fz_context *ctx, void *arg, float x1, float y1, float x3, float y3);
	void (*rectto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2);
} fz_path_walker;

typedef struct {
	float x, y;
	int gid;
	int ucs;
	int cid;
} fz_text_item;

typedef struct fz_text_span {
	fz_font *font;
	fz_matrix trm;
	unsigned wmode : 1;
	unsigned bidi_level : 7;
	unsigned markup_dir : 2;
	unsigned language : 15;
	int len, cap;
	fz_text_item *items;
	struct fz_text_span *next;
} fz_text_span;

struct fz_text {
	int refs;
	fz_text_span *head, *tail;
};

struct fz_device {
	int refs;
	int hints;
	int flags;
	void (*close_device)(fz_context *, fz_device *);
	void (*drop_device)(fz_context *, fz_device *);
	void (*fill_path)(fz_context *, fz_device *, const fz_path *, int even_odd, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void (*stroke_path)(fz_context *, fz_device *, const fz_path *, const fz_stroke_state *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void (*clip_path)(fz_context *, fz_device *, const fz_path *, int even_odd, fz_matrix, fz_rect scissor);
	void (*clip_stroke_path)(fz_context *, fz_device *, const fz_path *, const fz_stroke_state *, fz_matrix, fz_rect scissor);
	void (*fill_text)(fz_context *, fz_device *, const fz_text *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void (*stroke_text)(fz_context *, fz_device *, const fz_text *, const fz_stroke_state *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
	void (*clip_text)(fz_context *, fz_device *, const fz_text *, fz_matrix, fz_rect scissor);
	void (*clip_stroke_text)(fz_context *, fz_device *, const fz_text *, const fz_stroke_state *, fz_matrix, fz_rect scissor);
	void (*ignore_text)(fz_context *, fz_device *, const fz_text *, fz_matrix);
	void (*fill_shade)(fz_context *, fz_device *, fz_shade *shd, fz_matrix ctm, float alpha, fz_color_params color_params);
	void (*fill_image)(fz_context *, fz_device *, fz_image *img, fz_matrix ctm, float alpha, fz_color_params color_params);
	void (*fill_image_mask)(fz_context *, fz_device *, fz_image *img, fz_matrix ctm, fz_colorspace *, const float *color, float alpha, fz_color_params color_params);
	void (*clip_image_mask)(fz_context *, fz_device *, fz_image *img, fz_matrix ctm, fz_rect scissor);
	void (*pop_clip)(fz_context *, fz_device *);
	void (*begin_mask)(fz_context *, fz_device *, fz_rect area, int luminosity, fz_colorspace *, const float *bc, fz_color_params);
	void (*end_mask)(fz_context *, fz_device *, fz_function *fn);
	void (*begin_group)(fz_context *, fz_device *, fz_rect area, fz_colorspace *cs, int isolated, int knockout, int blendmode, float alpha);
	void (*end_group)(fz_context *, fz_device *);
	int (*begin_tile)(fz_context *, fz_device *, fz_rect area, fz_rect view, float xstep, float ystep, fz_matrix ctm, int id);
	void (*end_tile)(fz_context *, fz_device *);
	void (*render_flags)(fz_context *, fz_device *, int set, int clear);
	void (*set_default_colorspaces)(fz_context *, fz_device *, fz_default_colorspaces *);
	void (*begin_layer)(fz_context *, fz_device *, const char *layer_name);
	void (*end_layer)(fz_context *, fz_device *);
	void (*begin_structure)(fz_context *, fz_device *, fz_structure standard, const char *raw, int idx);
	void (*end_structure)(fz_context *, fz_device *);
	void (*begin_metatext)(fz_context *, fz_device *, fz_metatext meta, const char *text);
	void (*end_metatext)(fz_context *, fz_device *);
	fz_rect d1_rect;
	int container_len;
	int container_cap;
	fz_device_container_stack *container;
};

extern fz_device *fz_new_device_of_size(fz_context *ctx, int size);
extern void fz_walk_path(fz_context *ctx, const fz_path *path, const fz_path_walker *walker, void *arg);
extern fz_rect fz_bound_path(fz_context *ctx, const fz_path *path, const fz_stroke_state *stroke, fz_matrix ctm);
extern fz_rect fz_bound_text(fz_context *ctx, const fz_text *text, const fz_stroke_state *stroke, fz_matrix ctm);
extern fz_rect fz_bound_glyph(fz_context *ctx, fz_font *font, int gid, fz_matrix trm);
extern float fz_advance_glyph(fz_context *ctx, fz_font *font, int glyph, int wmode);
extern fz_matrix fz_concat(fz_matrix left, fz_matrix right);
extern float fz_matrix_expansion(fz_matrix m);
extern fz_point fz_transform_point(fz_point point, fz_matrix m);
extern fz_rect fz_intersect_rect(fz_rect a, fz_rect b);
extern int fz_colorspace_n(fz_context *ctx, fz_colorspace *cs);

// Record tags and path commands in the float stream.
enum {
	PG_VEC_PATH = 1,  // flags, grey, alpha, width, clip x0 y0 x1 y1, then commands, then PG_CMD_END
	PG_VEC_GLYPH = 2, // unicode, matrix a b c d e f, advance, box x0 y0 x1 y1, grey
	PG_VEC_IMAGE = 3, // the image's unit square on the page: 4 corners x y
	PG_VEC_SHADE = 4, // box x0 y0 x1 y1 of a smooth shading
};
enum { PG_CMD_MOVE = 0, PG_CMD_LINE = 1, PG_CMD_CURVE = 2, PG_CMD_CLOSE = 3, PG_CMD_END = 4 };
enum { PG_PATH_FILL = 1, PG_PATH_STROKE = 2, PG_PATH_EVENODD = 4, PG_PATH_DASHED = 8 };

#define PG_VEC_MAXCLIP 64

typedef struct {
	fz_device super;
	float *buf;
	size_t len, cap, max;
	int truncated;
	float ox, oy;      // the page box's origin at the zoom: pixel (0,0)
	fz_matrix ctm;     // of the path being walked
	fz_rect clip[PG_VEC_MAXCLIP];
	int nclip;         // clips pushed (may exceed PG_VEC_MAXCLIP: the deeper ones are not narrowed)
	fz_rect mask_area[PG_VEC_MAXCLIP];
	int nmask;         // begin_mask seen, end_mask not yet: what is drawn is a mask's content
	int ntile;         // inside a tile (pattern cell) being defined
} pg_vdev;

static int pg_vec_room(pg_vdev *v, size_t n) {
	if (v->truncated) return 0;
	if (v->len + n > v->cap) {
		size_t c = v->cap ? v->cap * 2 : 1 << 16;
		while (c < v->len + n) c *= 2;
		if (c > v->max) c = v->max;
		if (v->len + n > c) { v->truncated = 1; return 0; }
		float *nb = realloc(v->buf, c * sizeof(float));
		if (!nb) { v->truncated = 1; return 0; }
		v->buf = nb;
		v->cap = c;
	}
	return 1;
}

static void pg_vec_put(pg_vdev *v, float f) {
	if (pg_vec_room(v, 1)) v->buf[v->len++] = f;
}

static int pg_vec_hidden(pg_vdev *v) { return v->nmask > 0 || v->ntile > 0; }

static fz_rect pg_vec_clip(pg_vdev *v) {
	if (v->nclip == 0) {
		fz_rect all = {-1e30f, -1e30f, 1e30f, 1e30f};
		return all;
	}
	int i = v->nclip < PG_VEC_MAXCLIP ? v->nclip - 1 : PG_VEC_MAXCLIP - 1;
	return v->clip[i];
}

static void pg_vec_push_clip(pg_vdev *v, fz_rect r) {
	if (v->nclip < PG_VEC_MAXCLIP) {
		if (v->nclip > 0) r = fz_intersect_rect(r, v->clip[v->nclip - 1]);
		v->clip[v->nclip] = r;
	}
	v->nclip++;
}

// pg_vec_grey is a colour's lightness, 0 black to 1 white (-1: unknown, a pattern).
static float pg_vec_grey(fz_context *ctx, fz_colorspace *cs, const float *c) {
	if (!cs || !c) return -1;
	int n = fz_colorspace_n(ctx, cs);
	switch (n) {
	case 1: return c[0];
	case 3: return 0.30f * c[0] + 0.59f * c[1] + 0.11f * c[2];
	case 4: {
		float k = 0.30f * c[0] + 0.59f * c[1] + 0.11f * c[2] + c[3];
		return k > 1 ? 0 : 1 - k;
	}
	}
	return 0; // separations and other spaces: taken as ink
}

static void pg_vec_pt(pg_vdev *v, float x, float y) {
	fz_point p = {x, y};
	p = fz_transform_point(p, v->ctm);
	pg_vec_put(v, p.x - v->ox);
	pg_vec_put(v, p.y - v->oy);
}

static void pg_vec_moveto(fz_context *ctx, void *arg, float x, float y) {
	pg_vdev *v = arg;
	pg_vec_put(v, PG_CMD_MOVE);
	pg_vec_pt(v, x, y);
}
static void pg_vec_lineto(fz_context *ctx, void *arg, float x, float y) {
	pg_vdev *v = arg;
	pg_vec_put(v, PG_CMD_LINE);
	pg_vec_pt(v, x, y);
}
static void pg_vec_curveto(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2, float x3, float y3) {
	pg_vdev *v = arg;
	pg_vec_put(v, PG_CMD_CURVE);
	pg_vec_pt(v, x1, y1);
	pg_vec_pt(v, x2, y2);
	pg_vec_pt(v, x3, y3);
}
static void pg_vec_close(fz_context *ctx, void *arg) {
	pg_vdev *v = arg;
	pg_vec_put(v, PG_CMD_CLOSE);
}

static const fz_path_walker pg_vec_walker = {pg_vec_moveto, pg_vec_lineto, pg_vec_curveto, pg_vec_close, NULL, NULL, NULL, NULL};

static void pg_vec_path(fz_context *ctx, pg_vdev *v, const fz_path *path, fz_matrix ctm, int flags, float grey, float alpha, float width) {
	if (pg_vec_hidden(v) || v->truncated) return;
	fz_rect c = pg_vec_clip(v);
	pg_vec_put(v, PG_VEC_PATH);
	pg_vec_put(v, flags);
	pg_vec_put(v, grey);
	pg_vec_put(v, alpha);
	pg_vec_put(v, width);
	pg_vec_put(v, c.x0 - v->ox);
	pg_vec_put(v, c.y0 - v->oy);
	pg_vec_put(v, c.x1 - v->ox);
	pg_vec_put(v, c.y1 - v->oy);
	v->ctm = ctm;
	fz_walk_path(ctx, path, &pg_vec_walker, v);
	pg_vec_put(v, PG_CMD_END);
}

static void pg_vec_fill_path(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	pg_vdev *v = (pg_vdev *)dev;
	pg_vec_path(ctx, v, path, ctm, PG_PATH_FILL | (even_odd ? PG_PATH_EVENODD : 0), pg_vec_grey(ctx, cs, color), alpha, 0);
}

static void pg_vec_stroke_path(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *st, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	pg_vdev *v = (pg_vdev *)dev;
	float w = st ? st->linewidth * fz_matrix_expansion(ctm) : 1;
	int flags = PG_PATH_STROKE | (st && st->dash_len > 0 ? PG_PATH_DASHED : 0);
	pg_vec_path(ctx, v, path, ctm, flags, pg_vec_grey(ctx, cs, color), alpha, w);
}

static void pg_vec_text(fz_context *ctx, pg_vdev *v, const fz_text *text, fz_matrix ctm, float grey) {
	if (pg_vec_hidden(v) || v->truncated) return;
	fz_rect c = pg_vec_clip(v);
	for (fz_text_span *sp = text->head; sp; sp = sp->next) {
		for (int i = 0; i < sp->len; i++) {
			fz_text_item *it = &sp->items[i];
			if (it->gid < 0) continue; // a further character of the glyph before
			fz_matrix trm = sp->trm;
			trm.e = it->x;
			trm.f = it->y;
			fz_matrix m = fz_concat(trm, ctm);
			fz_rect b = fz_bound_glyph(ctx, sp->font, it->gid, m);
			if (b.x1 < c.x0 || b.x0 > c.x1 || b.y1 < c.y0 || b.y0 > c.y1) continue; // clipped away
			float adv = fz_advance_glyph(ctx, sp->font, it->gid, sp->wmode);
			if (!pg_vec_room(v, 13)) return;
			float *o = v->buf + v->len;
			o[0] = PG_VEC_GLYPH;
			// a glyph without a character (a symbol font, a Type3 font without
			// a map) stands for itself: a private-use code from its glyph id
			o[1] = it->ucs > 0 && it->ucs != 0xFFFD ? it->ucs : 0xF0000 + (it->gid & 0xFFFF);
			o[2] = m.a; o[3] = m.b; o[4] = m.c; o[5] = m.d;
			o[6] = m.e - v->ox; o[7] = m.f - v->oy;
			o[8] = adv;
			o[9] = b.x0 - v->ox; o[10] = b.y0 - v->oy; o[11] = b.x1 - v->ox; o[12] = b.y1 - v->oy;
			v->len += 13;
			pg_vec_put(v, grey);
		}
	}
}

static void pg_vec_fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	pg_vec_text(ctx, (pg_vdev *)dev, text, ctm, pg_vec_grey(ctx, cs, color));
}

static void pg_vec_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *st, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	pg_vec_text(ctx, (pg_vdev *)dev, text, ctm, pg_vec_grey(ctx, cs, color));
}

static void pg_vec_image(pg_vdev *v, fz_matrix ctm) {
	if (pg_vec_hidden(v) || v->truncated) return;
	fz_point q[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
	pg_vec_put(v, PG_VEC_IMAGE);
	for (int i = 0; i < 4; i++) {
		fz_point p = fz_transform_point(q[i], ctm);
		pg_vec_put(v, p.x - v->ox);
		pg_vec_put(v, p.y - v->oy);
	}
}

static void pg_vec_fill_image(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, float alpha, fz_color_params cp) {
	pg_vec_image((pg_vdev *)dev, ctm);
}

static void pg_vec_fill_image_mask(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {
	pg_vec_image((pg_vdev *)dev, ctm);
}

static void pg_vec_fill_shade(fz_context *ctx, fz_device *dev, fz_shade *shd, fz_matrix ctm, float alpha, fz_color_params cp) {
	pg_vdev *v = (pg_vdev *)dev;
	if (pg_vec_hidden(v) || v->truncated) return;
	fz_rect c = pg_vec_clip(v);
	pg_vec_put(v, PG_VEC_SHADE);
	pg_vec_put(v, c.x0 - v->ox);
	pg_vec_put(v, c.y0 - v->oy);
	pg_vec_put(v, c.x1 - v->ox);
	pg_vec_put(v, c.y1 - v->oy);
}

static void pg_vec_clip_path(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm, fz_rect scissor) {
	pg_vec_push_clip((pg_vdev *)dev, fz_bound_path(ctx, path, NULL, ctm));
}

static void pg_vec_clip_stroke_path(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *st, fz_matrix ctm, fz_rect scissor) {
	pg_vec_push_clip((pg_vdev *)dev, fz_bound_path(ctx, path, st, ctm));
}

static void pg_vec_clip_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_rect scissor) {
	pg_vec_push_clip((pg_vdev *)dev, fz_bound_text(ctx, text, NULL, ctm));
}

static void pg_vec_clip_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *st, fz_matrix ctm, fz_rect scissor) {
	pg_vec_push_clip((pg_vdev *)dev, fz_bound_text(ctx, text, st, ctm));
}

static void pg_vec_clip_image_mask(fz_context *ctx, fz_device *dev, fz_image *img, fz_matrix ctm, fz_rect scissor) {
	fz_rect unit = {0, 0, 1, 1};
	pg_vec_push_clip((pg_vdev *)dev, fz_transform_rect(unit, ctm));
}

static void pg_vec_pop_clip(fz_context *ctx, fz_device *dev) {
	pg_vdev *v = (pg_vdev *)dev;
	if (v->nclip > 0) v->nclip--;
}

static void pg_vec_begin_mask(fz_context *ctx, fz_device *dev, fz_rect area, int luminosity, fz_colorspace *cs, const float *bc, fz_color_params cp) {
	pg_vdev *v = (pg_vdev *)dev;
	if (v->nmask < PG_VEC_MAXCLIP) v->mask_area[v->nmask] = area;
	v->nmask++;
}

// end_mask: the mask is made, and clips what follows until pop_clip.
static void pg_vec_end_mask(fz_context *ctx, fz_device *dev, fz_function *fn) {
	pg_vdev *v = (pg_vdev *)dev;
	if (v->nmask == 0) return;
	v->nmask--;
	fz_rect all = {-1e30f, -1e30f, 1e30f, 1e30f};
	pg_vec_push_clip(v, v->nmask < PG_VEC_MAXCLIP ? v->mask_area[v->nmask] : all);
}

// begin_tile: a pattern's cell is not recorded (hatching is not a mark a
// symbol is made of); the device says it has the tile, so MuPDF does not
// run the cell at all.
static int pg_vec_begin_tile(fz_context *ctx, fz_device *dev, fz_rect area, fz_rect view, float xstep, float ystep, fz_matrix ctm, int id) {
	return 1;
}

static void pg_vec_end_tile(fz_context *ctx, fz_device *dev) {}

// pg_vectors records page i at zoom. Returns 1 ok, 0 error (d->msg).
// *out (malloc'd, the caller frees it) holds *n floats.
static int pg_vectors(pg_doc *d, int i, float zoom, size_t max, float **out, size_t *n, int *truncated) {
	fz_page *volatile page = NULL;
	pg_vdev *volatile v = NULL;
	volatile int ok = 1;
	*out = NULL;
	*n = 0;
	*truncated = 0;
	pg_try(d->ctx) {
		page = fz_load_page(d->ctx, d->doc, i);
		fz_matrix ctm = fz_scale(zoom, zoom);
		fz_irect box = fz_round_rect(fz_transform_rect(fz_bound_page(d->ctx, page), ctm));
		v = (pg_vdev *)fz_new_device_of_size(d->ctx, sizeof(pg_vdev));
		v->max = max;
		v->ox = box.x0;
		v->oy = box.y0;
		fz_device *dev = &v->super;
		dev->fill_path = pg_vec_fill_path;
		dev->stroke_path = pg_vec_stroke_path;
		dev->clip_path = pg_vec_clip_path;
		dev->clip_stroke_path = pg_vec_clip_stroke_path;
		dev->fill_text = pg_vec_fill_text;
		dev->stroke_text = pg_vec_stroke_text;
		dev->clip_text = pg_vec_clip_text;
		dev->clip_stroke_text = pg_vec_clip_stroke_text;
		dev->fill_shade = pg_vec_fill_shade;
		dev->fill_image = pg_vec_fill_image;
		dev->fill_image_mask = pg_vec_fill_image_mask;
		dev->clip_image_mask = pg_vec_clip_image_mask;
		dev->pop_clip = pg_vec_pop_clip;
		dev->begin_mask = pg_vec_begin_mask;
		dev->end_mask = pg_vec_end_mask;
		dev->begin_tile = pg_vec_begin_tile;
		dev->end_tile = pg_vec_end_tile;
		fz_run_page(d->ctx, page, dev, ctm, &d->cookie);
		fz_close_device(d->ctx, dev);
	}
	pg_always(d->ctx) {
		if (v) {
			*out = v->buf;
			*n = v->len;
			*truncated = v->truncated;
			v->buf = NULL;
		}
		fz_drop_device(d->ctx, (fz_device *)v);
		fz_drop_page(d->ctx, page);
	}
	pg_catch(d->ctx) {
		pg_caught(d);
		ok = 0;
	}
	return ok;
}

#endif
