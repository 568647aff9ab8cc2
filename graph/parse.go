package graph

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"mime"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/contrib/entgql"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/predicate"
	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/render"
)

// Parse request rules (interface specification, POST /parse).
var (
	// ParseFeatures are the feature values accepted today.
	ParseFeatures = []string{"symbols"}
	// ParseComingSoon are the feature values announced but not built.
	ParseComingSoon = []string{"legend", "rooms", "grid", "schedule", "notes", "title_block"}
	// Values of the option groups that are validated but not used yet.
	ParseMEPSystems       = []string{"hvac_duct", "hvac_pipe", "plumbing", "electrical", "fire_protection"}
	ParseDimensionUnits   = []string{"imperial", "metric"}
	ParseAnnotationTypes  = []string{"cloud", "callout", "redline", "keynote"}
	ParseTextRegions      = []string{"notes", "schedules", "specifications"}
	ParseImageTypes       = []string{render.TypePNG, render.TypeJPEG, render.TypeTIFF}
	parseMaxSymbols       = 500
	parseMaxLabel         = 200
	parseMaxDescription   = 2000
	parseMaxImagePixels   = int64(25_000_000)
	parseMaxImageBytes    = int64(20 << 20)
	parseImageURLExamples = "a data: URL (PNG, JPEG or TIFF), this service's /v1/blocks/{id}/image or /v1/files/{id} (or the file's download URL)"
)

// supplied is one legend entry sent with a parse request.
type supplied struct {
	field       string // options.symbols.legend[0]
	label, desc string
	imageURL    *string
	source      *generated.ParseExemplarSource
	img         *image.Gray
	featureID   string
}

// StartParse validates a parse request, stores the symbols it supplies and
// queues the parse job (the parse mutation and POST /v1/parse).
func (r *Resolver) StartParse(ctx context.Context, in generated.ParseInput) (*ent.Job, error) {
	bad := apierr.Fields{}
	// features
	switch {
	case in.Features == nil:
		bad.Add("features", `is required; "symbols" is available`)
	case len(in.Features) == 0:
		bad.Add("features", `must name at least one feature; "symbols" is available`)
	}
	for _, f := range in.Features {
		switch {
		case slices.Contains(ParseFeatures, f):
		case slices.Contains(ParseComingSoon, f):
			bad.Add("features", fmt.Sprintf(`%q is coming soon; only "symbols" is available today`, f))
		default:
			bad.Add("features", fmt.Sprintf(`%q is not a parse feature; only "symbols" is available`, f))
		}
	}
	// exactly one target
	targets := []struct {
		name string
		v    *string
	}{{"sheet_id", in.SheetID}, {"block_id", in.BlockID}, {"drawing_id", in.DrawingID}, {"file_id", in.FileID}}
	var given []string
	for _, t := range targets {
		if t.v != nil && *t.v != "" {
			given = append(given, t.name)
		} else if t.v != nil {
			bad.Add(t.name, "must not be empty")
		}
	}
	switch {
	case len(given) == 0:
		for _, t := range targets {
			bad.Add(t.name, "exactly one of sheet_id, block_id, drawing_id and file_id is required")
		}
	case len(given) > 1:
		for _, n := range given {
			bad.Add(n, "only one of sheet_id, block_id, drawing_id and file_id may be given; this request has "+strings.Join(given, ", "))
		}
	}
	opts := in.Options
	if opts == nil {
		opts = &generated.ParseOptions{}
	}
	checkValues := func(field string, vals []string, allowed []string) {
		for _, v := range vals {
			if !slices.Contains(allowed, v) {
				bad.Add(field, fmt.Sprintf("%q is not one of %s", v, strings.Join(allowed, ", ")))
			}
		}
	}
	if o := opts.Mep; o != nil {
		checkValues("options.mep.systems", o.Systems, ParseMEPSystems)
	}
	if o := opts.Dimensions; o != nil && o.Units != nil {
		checkValues("options.dimensions.units", []string{*o.Units}, ParseDimensionUnits)
	}
	if o := opts.Annotations; o != nil {
		checkValues("options.annotations.types", o.Types, ParseAnnotationTypes)
	}
	if o := opts.Text; o != nil {
		checkValues("options.text.regions", o.Regions, ParseTextRegions)
	}
	sym := opts.Symbols
	if sym == nil {
		sym = &generated.ParseSymbolOptions{}
	}
	var sups []*supplied
	for i, l := range sym.Legend {
		if l == nil {
			continue
		}
		s := &supplied{field: fmt.Sprintf("options.symbols.legend[%d]", i), label: l.Label, imageURL: l.ImageURL}
		if l.Description != nil {
			s.desc = *l.Description
		}
		sups = append(sups, s)
	}
	for i, e := range sym.Exemplars {
		if e == nil {
			continue
		}
		s := &supplied{field: fmt.Sprintf("options.symbols.exemplars[%d]", i), label: e.Label, imageURL: e.ImageURL, source: e.Source}
		if e.Description != nil {
			s.desc = *e.Description
		}
		switch {
		case e.ImageURL == nil && e.Source == nil:
			bad.Add(s.field, "needs image_url or source")
		case e.ImageURL != nil && e.Source != nil:
			bad.Add(s.field, "has both image_url and source; give one")
		case e.Source != nil && e.Source.SheetID == "":
			bad.Add(s.field+".source.sheet_id", "is required")
		case e.Source != nil && (e.Source.Bounds == nil || !e.Source.Bounds.Valid() || e.Source.Bounds.XMin < 0 || e.Source.Bounds.YMin < 0):
			bad.Add(s.field+".source.bounds", "must be a box with 0 ≤ x_min < x_max and 0 ≤ y_min < y_max")
		}
		sups = append(sups, s)
	}
	if len(sups) > parseMaxSymbols {
		bad.Add("options.symbols", fmt.Sprintf("supplies %d symbols; at most %d", len(sups), parseMaxSymbols))
	}
	for _, s := range sups {
		s.label, s.desc = strings.TrimSpace(s.label), strings.TrimSpace(s.desc)
		switch {
		case s.label == "":
			bad.Add(s.field+".label", "is required")
		case utf8.RuneCountInString(s.label) > parseMaxLabel:
			bad.Add(s.field+".label", fmt.Sprintf("must be at most %d characters", parseMaxLabel))
		}
		if utf8.RuneCountInString(s.desc) > parseMaxDescription {
			bad.Add(s.field+".description", fmt.Sprintf("must be at most %d characters", parseMaxDescription))
		}
		if s.imageURL != nil && strings.TrimSpace(*s.imageURL) == "" {
			bad.Add(s.field+".image_url", "must not be empty")
		}
	}
	legendBlockID := ""
	if sym.LegendBlockID != nil {
		legendBlockID = *sym.LegendBlockID
		if legendBlockID == "" {
			bad.Add("options.symbols.legend_block_id", "must not be empty")
		}
	}
	if in.BlockID != nil && *in.BlockID != "" && legendBlockID == "" && len(sups) == 0 {
		bad.Add("options.symbols.legend_block_id", "is required with block_id, unless options.symbols.legend or options.symbols.exemplars supply the symbols")
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}

	// the target, in this organization (another organization's is missing)
	pj := jobs.ParseInput{Features: dedupe(in.Features), LegendBlockID: legendBlockID, Count: sym.Count != nil && *sym.Count}
	var (
		projectID  string
		targetType job.TargetType
		targetID   string
		srcFile    *ent.File
	)
	switch {
	case in.SheetID != nil:
		s, err := r.Client.Sheet.Get(ctx, *in.SheetID)
		if err != nil {
			return nil, missing(err, "sheet", *in.SheetID)
		}
		if err := r.drawingReady(ctx, s.DrawingID); err != nil {
			return nil, err
		}
		pj.SheetID, projectID, targetType, targetID = s.ID, s.ProjectID, job.TargetTypeSheet, s.ID
	case in.BlockID != nil:
		b, err := r.Client.Block.Get(ctx, *in.BlockID)
		if err != nil {
			return nil, missing(err, "block", *in.BlockID)
		}
		pj.BlockID, projectID, targetType, targetID = b.ID, b.ProjectID, job.TargetTypeBlock, b.ID
	case in.DrawingID != nil:
		d, err := r.Client.Drawing.Get(ctx, *in.DrawingID)
		if err != nil {
			return nil, missing(err, "drawing", *in.DrawingID)
		}
		if err := r.drawingReady(ctx, d.ID); err != nil {
			return nil, err
		}
		pj.DrawingID, projectID, targetType, targetID = d.ID, d.ProjectID, job.TargetTypeDrawing, d.ID
	case in.FileID != nil:
		f, err := r.Client.File.Get(ctx, *in.FileID)
		if err != nil {
			return nil, missing(err, "file", *in.FileID)
		}
		if f.Status != file.StatusReady {
			return nil, apierr.Invalid("file_id", "is not confirmed yet: upload its bytes and call POST /v1/files/{id}/confirm").WithCode("FILE_NOT_READY")
		}
		srcFile = f
		// the drawing made from the file is the job's target
		pj.FileID, pj.DrawingID = f.ID, ids.New(ids.Drawing)
		projectID, targetType, targetID = f.ProjectID, job.TargetTypeDrawing, pj.DrawingID
	}
	if legendBlockID != "" {
		if _, err := r.Client.Block.Get(ctx, legendBlockID); err != nil {
			return nil, missing(err, "legend block", legendBlockID)
		}
	}
	// the supplied symbols' images
	for _, s := range sups {
		switch {
		case s.source != nil:
			sh, err := r.Client.Sheet.Get(ctx, s.source.SheetID)
			if err != nil {
				return nil, missing(err, "sheet", s.source.SheetID)
			}
			if b := s.source.Bounds; b.XMax > float64(sh.Width) || b.YMax > float64(sh.Height) {
				bad.Add(s.field+".source.bounds", fmt.Sprintf("must lie within the sheet (%d × %d px)", sh.Width, sh.Height))
			}
		case s.imageURL != nil:
			img, err := r.parseImage(ctx, s.field+".image_url", strings.TrimSpace(*s.imageURL))
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Kind == apierr.Validation {
				for k, v := range ae.Fields {
					bad[k] = append(bad[k], v...)
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			s.img = img
		}
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}

	org, _ := tenant.Org(ctx)
	jobID := ids.New(ids.Job)
	for i, s := range sups {
		s.featureID = ids.New(ids.Feature)
		ss := jobs.SuppliedSymbol{FeatureID: s.featureID}
		if s.source != nil {
			ss.Source = &jobs.ExemplarSource{SheetID: s.source.SheetID, Bounds: *s.source.Bounds}
		}
		pj.Supplied = append(pj.Supplied, ss)
		if s.img != nil {
			if err := jobs.PutPNG(ctx, r.Blobs, jobs.FeatureKey(org, s.featureID)+".png", s.img); err != nil {
				return nil, err
			}
			sups[i].img = nil
		}
	}
	input, err := json.Marshal(pj)
	if err != nil {
		return nil, err
	}
	var j *ent.Job
	err = withTx(ctx, r.Client, func(tx *ent.Tx) error {
		c := tx.Job.Create().SetID(jobID).SetType(jobs.TypeParse).SetStatus(job.StatusQueued).
			SetTargetType(targetType).SetTargetID(targetID).SetInput(input)
		if projectID != "" {
			c.SetProjectID(projectID)
		}
		var err error
		if j, err = c.Save(ctx); err != nil {
			return err
		}
		if srcFile != nil {
			if _, _, err := newDrawing(ctx, tx, srcFile, srcFile.Filename, pj.DrawingID, jobID); err != nil {
				return err
			}
		}
		for i, s := range sups {
			if err := tx.Feature.Create().SetID(s.featureID).SetJobID(jobID).SetKind(feature.KindLegendEntry).
				SetLabel(s.label).SetDescription(s.desc).SetHasGraphic(s.imageURL != nil || s.source != nil).
				SetDedupeKey(fmt.Sprintf("supplied:%s:%d", jobID, i)).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := jobs.Enqueue(ctx, r.Queue, j, jobs.QueueDefault); err != nil {
		_ = r.Client.Job.UpdateOne(j).SetStatus(job.StatusFailed).SetCompletedAt(time.Now().UTC().Truncate(time.Microsecond)).
			SetError(&jobstatus.Error{Code: "QUEUE_UNAVAILABLE", Message: "the job could not be queued"}).Exec(ctx)
		return nil, &apierr.Error{Kind: apierr.Unavailable, Detail: "the job queue is unavailable; try again shortly", Err: err}
	}
	return j, nil
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// missing is the 404 of a named resource that does not exist for this
// organization.
func missing(err error, kind, id string) error {
	if ent.IsNotFound(err) {
		return apierr.NotFoundf("%s %q does not exist", kind, id)
	}
	return err
}

// drawingReady fails unless the drawing's processing has finished: its
// sheets and blocks are complete only then.
func (r *Resolver) drawingReady(ctx context.Context, id string) error {
	d, err := r.Client.Drawing.Get(ctx, id)
	if err != nil {
		return missing(err, "drawing", id)
	}
	switch d.Status {
	case drawing.StatusReady:
		return nil
	case drawing.StatusFailed:
		return apierr.New(apierr.Conflict, "drawing %s could not be processed; there is nothing to parse", id).WithCode("DRAWING_FAILED")
	}
	return apierr.New(apierr.Conflict, "drawing %s is still being processed (%s); parse it when its job has completed", id, d.Status).WithCode("DRAWING_NOT_READY")
}

// newDrawing creates a drawing of file f and its processing job (a child of
// parentID when set) in tx; the caller queues the job.
func newDrawing(ctx context.Context, tx *ent.Tx, f *ent.File, name, drawingID, parentID string) (*ent.Drawing, *ent.Job, error) {
	dc := tx.Drawing.Create().SetProjectID(f.ProjectID).SetFileID(f.ID).SetName(name)
	if drawingID != "" {
		dc.SetID(drawingID)
	}
	d, err := dc.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	jc := tx.Job.Create().SetType(jobs.TypeDrawingPreprocess).SetProjectID(f.ProjectID).
		SetTargetType(job.TargetTypeDrawing).SetTargetID(d.ID)
	if parentID != "" {
		jc.SetParentID(parentID)
	}
	j, err := jc.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	return d, j, nil
}

// parseImage reads a symbol image named by a parse request: a data: URL,
// an image of this service (a block's or a file's, of this organization),
// or an allowlisted URL. It is cropped to its drawn pixels.
func (r *Resolver) parseImage(ctx context.Context, field, raw string) (*image.Gray, error) {
	var (
		data []byte
		ct   string
		img  *image.Gray
		err  error
	)
	switch {
	case strings.HasPrefix(strings.ToLower(raw), "data:"):
		data, ct, err = decodeDataURL(raw)
		if err != nil {
			return nil, apierr.Invalid(field, err.Error())
		}
	default:
		u, perr := url.Parse(raw)
		if perr != nil {
			return nil, apierr.Invalid(field, "is not a URL")
		}
		own, ok := r.ownPath(u)
		switch {
		case ok:
			img, data, ct, err = r.ownImage(ctx, field, own)
			if err != nil {
				return nil, err
			}
		case r.ImageFetcher.Enabled() && r.ImageFetcher.Check(u) == nil:
			data, ct, err = r.ImageFetcher.Get(ctx, u.String())
			if err != nil {
				return nil, apierr.Invalid(field, "could not be fetched: "+err.Error())
			}
		default:
			msg := "must be " + parseImageURLExamples
			if r.ImageFetcher.Enabled() {
				msg += ", or an https URL on the operator's allowlist"
			} else {
				msg += "; other URLs are not fetched (the operator has allowed no hosts)"
			}
			return nil, apierr.Invalid(field, msg)
		}
	}
	if img == nil {
		if img, err = decodeImage(ctx, data, ct); err != nil {
			return nil, apierr.Invalid(field, err.Error())
		}
	}
	out, ok := jobs.TightCrop(img)
	if !ok {
		return nil, apierr.Invalid(field, "the image is blank: nothing in it is darker than the paper")
	}
	return out, nil
}

// ownPath is the path of u when it addresses this service (a relative
// path, or the public URL's scheme and host).
func (r *Resolver) ownPath(u *url.URL) (string, bool) {
	if u.Scheme == "" && u.Host == "" {
		return u.Path, strings.HasPrefix(u.Path, "/")
	}
	pub, err := url.Parse(r.Uploads.PublicURL)
	if err != nil || !strings.EqualFold(u.Scheme, pub.Scheme) || !strings.EqualFold(u.Host, pub.Host) {
		return "", false
	}
	return u.Path, true
}

// ownImage reads /v1/blocks/{id}/image, /v1/files/{id} (or its
// /downloads/{id} URL): resources of the request's organization only.
func (r *Resolver) ownImage(ctx context.Context, field, path string) (*image.Gray, []byte, string, error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	org, _ := tenant.Org(ctx)
	switch {
	case len(parts) >= 3 && parts[0] == "v1" && parts[1] == "blocks" && (len(parts) == 3 || (len(parts) == 4 && parts[3] == "image")):
		b, err := r.Client.Block.Get(ctx, parts[2])
		if ent.IsNotFound(err) {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("block %q does not exist", parts[2]))
		}
		if err != nil {
			return nil, nil, "", err
		}
		img, err := jobs.GetPNG(ctx, r.Blobs, jobs.BlockKey(org, b.ID)+".png")
		if err != nil {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("block %s has no image", b.ID))
		}
		return img, nil, "", nil
	case (len(parts) == 3 && parts[0] == "v1" && parts[1] == "files") || (len(parts) == 2 && parts[0] == "downloads"):
		id := parts[len(parts)-1]
		f, err := r.Client.File.Get(ctx, id)
		if ent.IsNotFound(err) {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %q does not exist", id))
		}
		if err != nil {
			return nil, nil, "", err
		}
		if f.Status != file.StatusReady {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %s is not confirmed yet", f.ID))
		}
		if f.Size > parseMaxImageBytes {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %s is larger than %d bytes", f.ID, parseMaxImageBytes))
		}
		data, err := r.Blobs.ReadAll(ctx, f.StorageKey)
		if err != nil {
			return nil, nil, "", err
		}
		return nil, data, f.ContentType, nil
	}
	return nil, nil, "", apierr.Invalid(field, "must be "+parseImageURLExamples)
}

// decodeDataURL returns the bytes and media type of a data: URL.
func decodeDataURL(raw string) ([]byte, string, error) {
	meta, payload, ok := strings.Cut(raw[len("data:"):], ",")
	if !ok {
		return nil, "", errors.New("is not a valid data: URL (no comma)")
	}
	params := strings.Split(meta, ";")
	ct := strings.ToLower(strings.TrimSpace(params[0]))
	b64 := false
	for _, p := range params[1:] {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			b64 = true
		}
	}
	var data []byte
	var err error
	if b64 {
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, payload)
		if un, uerr := url.PathUnescape(clean); uerr == nil {
			clean = un
		}
		data, err = base64.StdEncoding.DecodeString(clean)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
		}
		if err != nil {
			return nil, "", errors.New("is a data: URL whose base64 data cannot be decoded")
		}
	} else {
		s, uerr := url.PathUnescape(payload)
		if uerr != nil {
			return nil, "", errors.New("is a data: URL whose data cannot be decoded")
		}
		data = []byte(s)
	}
	if len(data) == 0 {
		return nil, "", errors.New("is a data: URL without data")
	}
	return data, ct, nil
}

// decodeImage decodes a PNG, JPEG or single-page TIFF with the same
// decoders (and bomb limits) as uploaded drawings. ct, when given, must
// agree with the bytes.
func decodeImage(ctx context.Context, data []byte, ct string) (*image.Gray, error) {
	sniffed := render.Sniff(data[:min(len(data), 512)])
	if !slices.Contains(ParseImageTypes, sniffed) {
		return nil, errors.New("is not a PNG, JPEG or TIFF image")
	}
	if ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err == nil && mt != "application/octet-stream" && mt != "binary/octet-stream" {
			ct = mt
		} else {
			ct = ""
		}
	}
	tmp, err := os.CreateTemp("", "plangraph-symbol-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	doc, err := render.Open(tmp.Name(), ct, render.Limits{DPI: render.DefaultDPI, MaxPixels: parseMaxImagePixels, MaxPages: 1})
	if err != nil {
		return nil, imageErr(err)
	}
	defer doc.Close()
	img, err := render.RenderContext(ctx, doc, 0)
	if err != nil {
		return nil, imageErr(err)
	}
	return img, nil
}

func imageErr(err error) error {
	var re *render.Error
	if errors.As(err, &re) {
		switch re.Code {
		case render.CodeTooManyPages:
			return errors.New("must be an image of one page")
		case render.CodePageTooLarge:
			return fmt.Errorf("is too large (at most %d pixels)", parseMaxImagePixels)
		}
		return errors.New("could not be read: " + strings.TrimSuffix(re.Message, "."))
	}
	return err
}

// featureConnection pages the features of kind within scope, in the order
// they were found.
func (r *Resolver) featureConnection(ctx context.Context, kind feature.Kind, scope predicate.Feature,
	after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, where *ent.FeatureWhereInput) (*ent.FeatureConnection, error) {
	first, last, err := pageSize(first, last)
	if err != nil {
		return nil, err
	}
	order := []*ent.FeatureOrder{{Field: ent.FeatureOrderFieldCreatedAt, Direction: entgql.OrderDirectionAsc}}
	return r.Client.Feature.Query().Where(feature.KindEQ(kind), scope).
		Paginate(ctx, after, first, before, last, ent.WithFeatureOrder(order), ent.WithFeatureFilter(where.Filter))
}

func onSheet(id string) predicate.Feature { return feature.HasBlockWith(block.SheetID(id)) }
