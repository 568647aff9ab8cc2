// Package ingest is the ingestion pipeline: an uploaded file becomes a
// drawing's sheets and blocks, as jobs run by the jobs framework.
package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"image"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/sheetinfo"
	"github.com/plangraph/plangraph/vision/sheetread"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vector"
)

// Ingest turns an uploaded file into a drawing's sheets:
// drawing_preprocess (per file: open, count pages, start one child per
// page) → sheet_preprocess (per page, spread over workers: render, read the
// text layer and the title block, store the page image, thumbnail and
// deep-zoom tiles, save the sheet).
type Ingest struct {
	R      *jobs.Runner
	Blobs  *blob.Bucket
	Limits render.Limits
	// the page a sheet stage rendered last, handed to its block stage
	// when that runs in this process soon after (else it renders again)
	handoff pageHandoff
}

// pageHandoff holds one rendered page for a short time: one extra page per
// process at most, on top of the one each worker slot works on.
type pageHandoff struct {
	mu      sync.Mutex
	sheetID string
	img     *image.Gray
	at      time.Time
}

const handoffTTL = 30 * time.Second

func (h *pageHandoff) put(sheetID string, img *image.Gray) {
	h.mu.Lock()
	h.sheetID, h.img, h.at = sheetID, img, time.Now()
	h.mu.Unlock()
}

// take returns the page of sheetID if it is held (and lets it go), else
// nil. A page held too long is let go whichever sheet asks.
func (h *pageHandoff) take(sheetID string) *image.Gray {
	h.mu.Lock()
	defer h.mu.Unlock()
	if time.Since(h.at) > handoffTTL {
		h.sheetID, h.img = "", nil
	}
	if h.sheetID != sheetID {
		return nil
	}
	img := h.img
	h.sheetID, h.img = "", nil
	return img
}

// renderPage renders page (1-based) of the stored file fileID.
func (in *Ingest) renderPage(ctx context.Context, fileID string, page int) (*image.Gray, error) {
	f, err := in.R.DB.File.Get(ctx, fileID)
	if err != nil {
		return nil, err
	}
	_, doc, done, err := in.open(ctx, f)
	if err != nil {
		return nil, err
	}
	defer done()
	img, err := render.RenderContext(ctx, doc, page-1)
	if err != nil {
		return nil, asFailure(err)
	}
	return img, nil
}

// Register adds the ingestion handlers to w.
func (in *Ingest) Register(w *jobs.Worker) {
	in.R.Handle(w, jobs.TypeDrawingPreprocess, in.drawing)
	in.R.Handle(w, jobs.TypeSheetPreprocess, in.sheet)
	in.R.Handle(w, jobs.TypeBlockPreprocess, in.blocks)
	in.R.Finalize(jobs.TypeSheetPreprocess, in.finishSheet)
	in.R.Finalize(jobs.TypeDrawingPreprocess, in.finishDrawing)
}

type pageInput struct {
	Page int `json:"page"`
}

// asFailure maps vision errors to permanent job failures.
func asFailure(err error) error {
	var re *render.Error
	if errors.As(err, &re) {
		return &jobs.Failure{Code: re.Code, Message: re.Message}
	}
	return err
}

// fetch copies a file's bytes to a temporary file (MuPDF and poppler read
// paths) and returns its path and a clean-up function.
func (in *Ingest) fetch(ctx context.Context, f *ent.File) (string, func(), error) {
	return blobs.FetchFile(ctx, in.Blobs, f)
}

// open fetches f and opens it for rendering; done closes and removes both.
func (in *Ingest) open(ctx context.Context, f *ent.File) (string, render.Document, func(), error) {
	path, cleanup, err := in.fetch(ctx, f)
	if err != nil {
		return "", nil, nil, err
	}
	doc, err := render.Open(path, f.ContentType, in.Limits)
	if err != nil {
		cleanup()
		return "", nil, nil, asFailure(err)
	}
	return path, doc, func() { doc.Close(); cleanup() }, nil
}

func (in *Ingest) load(ctx context.Context, j *ent.Job) (*ent.Drawing, *ent.File, error) {
	d, err := in.R.DB.Drawing.Get(ctx, j.TargetID)
	if ent.IsNotFound(err) {
		return nil, nil, jobs.Fail("NOT_FOUND", "drawing %s no longer exists", j.TargetID)
	}
	if err != nil {
		return nil, nil, err
	}
	f, err := in.R.DB.File.Get(ctx, d.FileID)
	if ent.IsNotFound(err) {
		return nil, nil, jobs.Fail("NOT_FOUND", "the file of drawing %s no longer exists", d.ID)
	}
	return d, f, err
}

func (in *Ingest) drawing(ctx context.Context, j *ent.Job) (any, error) {
	d, f, err := in.load(ctx, j)
	if err != nil {
		return nil, err
	}
	_, doc, done, err := in.open(ctx, f)
	if err != nil {
		var fail *jobs.Failure
		if errors.As(err, &fail) {
			_ = in.R.DB.Drawing.UpdateOne(d).SetStatus(drawing.StatusFailed).Exec(ctx)
		}
		return nil, err
	}
	pages := doc.Pages()
	done()
	if err := in.R.DB.Drawing.UpdateOne(d).SetStatus(drawing.StatusProcessing).SetPageCount(pages).Exec(ctx); err != nil {
		return nil, err
	}
	// a retried task finds the children it already made
	existing, err := in.R.DB.Job.Query().Where(job.ParentID(j.ID)).All(ctx)
	if err != nil {
		return nil, err
	}
	have := map[int]*ent.Job{}
	for _, c := range existing {
		var p pageInput
		_ = json.Unmarshal(c.Input, &p)
		have[p.Page] = c
	}
	for p := 1; p <= pages; p++ {
		if _, ok := have[p]; ok {
			continue
		}
		if _, err := in.R.AddChild(ctx, j, jobs.TypeSheetPreprocess, job.TargetTypeDrawing, d.ID, pageInput{Page: p}); err != nil {
			return nil, err
		}
	}
	return nil, jobs.ErrWaitChildren
}

// SheetResult is what a sheet_preprocess job reports.
type SheetResult struct {
	SheetID     string `json:"sheet_id"`
	PageNumber  int    `json:"page_number"`
	SheetNumber string `json:"sheet_number"`
	Title       string `json:"title"`
	Discipline  string `json:"discipline"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	DPI         int    `json:"dpi"`
	Words       int    `json:"words"`
	TextSource  string `json:"text_source"` // pdf (text layer) or ocr
	Blocks      int    `json:"blocks"`
}

func (in *Ingest) sheet(ctx context.Context, j *ent.Job) (any, error) {
	var p pageInput
	if err := json.Unmarshal(j.Input, &p); err != nil || p.Page < 1 {
		return nil, jobs.Fail("BAD_INPUT", "sheet job %s has no page number", j.ID)
	}
	d, f, err := in.load(ctx, j)
	if err != nil {
		return nil, err
	}
	path, doc, done, err := in.open(ctx, f)
	if err != nil {
		return nil, err
	}
	defer done()
	if p.Page > doc.Pages() {
		return nil, jobs.Fail("BAD_INPUT", "page %d is past the end of the document", p.Page)
	}
	w, h, dpi, err := doc.PageSize(p.Page - 1)
	if err != nil {
		return nil, asFailure(err)
	}
	// the text layer is read by a separate process: overlap it with rendering
	type textResult struct {
		words []text.Word
		err   error
	}
	textc := make(chan textResult, 1)
	go func() {
		if f.ContentType != "application/pdf" {
			textc <- textResult{}
			return
		}
		pg, err := text.PDFPage(ctx, path, p.Page, float64(dpi)/72)
		textc <- textResult{pg.Words, err}
	}()
	img, err := render.RenderContext(ctx, doc, p.Page-1)
	if err != nil {
		<-textc
		return nil, asFailure(err)
	}
	// a PDF page's marks as geometry, for the symbol search (nil for scans)
	vec, _, err := render.Vectors(ctx, doc, p.Page-1)
	if err != nil {
		<-textc
		return nil, asFailure(err)
	}
	// the page's images do not depend on its text: store them while the
	// text layer is still being read
	org, _ := tenant.Org(ctx)
	key := blobs.SheetKey(org, d.ID, p.Page)
	storec := make(chan error, 1)
	go func() {
		err := in.storeImages(ctx, key, img)
		if err == nil && vec != nil {
			err = in.storeVectors(ctx, key, vec)
		}
		storec <- err
	}()
	tr := <-textc
	err = tr.err
	if errors.Is(err, text.ErrTextTooLarge) {
		err = jobs.Fail("TEXT_TOO_LARGE", "page %d's text layer is over %d bytes", p.Page, text.MaxPDFTextBytes)
	}
	var sh sheetread.Sheet
	if err == nil {
		// a scan, or text drawn as outlines, is read by OCR
		sh, err = sheetread.Read(ctx, img, dpi, tr.words)
	}
	if serr := <-storec; err == nil {
		err = serr
	}
	if err != nil {
		return nil, err
	}
	words, textSource, info := sh.Words, sh.TextSource, sh.Info
	wb, _ := json.Marshal(words)
	if err := in.Blobs.WriteAll(ctx, key+"-words.json", wb, &blob.WriterOptions{ContentType: "application/json"}); err != nil {
		return nil, err
	}
	s, err := in.saveSheet(ctx, d, p.Page, info, w, h, dpi)
	if err != nil {
		return nil, err
	}
	in.handoff.put(s.ID, img) // for the block stage, which comes next
	img = nil
	res := SheetResult{SheetID: s.ID, PageNumber: p.Page, SheetNumber: s.SheetNumber, Title: s.Title, Discipline: s.Discipline,
		Width: w, Height: h, DPI: dpi, Words: len(words), TextSource: textSource}
	// keep what this stage found on the job; block_preprocess adds to it
	rb, _ := json.Marshal(res)
	if err := in.R.DB.Job.UpdateOne(j).SetResult(rb).SetProgress(0.5).Exec(ctx); err != nil {
		return nil, err
	}
	in.R.Changed(ctx, j.ID)
	exists, err := in.R.DB.Job.Query().Where(job.ParentID(j.ID)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !exists { // on a retry the block job exists already
		if _, err := in.R.AddChild(ctx, j, jobs.TypeBlockPreprocess, job.TargetTypeSheet, s.ID, pageInput{Page: p.Page}); err != nil {
			return nil, err
		}
	}
	return nil, jobs.ErrWaitChildren
}

// storeVectors keeps a page's geometry (KEY-vectors.bin, see VectorsKey).
func (in *Ingest) storeVectors(ctx context.Context, key string, vec *vector.Page) error {
	return blobs.PutVectors(ctx, in.Blobs, key, vec)
}

// storeBlock writes a block's image and words (key is BlockKey's).
func (in *Ingest) storeBlock(ctx context.Context, key string, img *image.Gray, words []text.Word) error {
	bw, err := in.Blobs.NewWriter(ctx, key+".png", &blob.WriterOptions{ContentType: "image/png"})
	if err != nil {
		return err
	}
	if err := render.EncodePNG(bw, img); err != nil {
		bw.Close()
		return err
	}
	if err := bw.Close(); err != nil {
		return err
	}
	wb, _ := json.Marshal(words)
	return in.Blobs.WriteAll(ctx, key+"-words.json", wb, &blob.WriterOptions{ContentType: "application/json"})
}

// BlockResult is one block a block_preprocess job found.
type BlockResult struct {
	BlockID string   `json:"block_id"`
	Type    string   `json:"type"`
	Title   string   `json:"title"`
	Scale   string   `json:"scale"`
	Bounds  geom.Box `json:"bounds"`
}

// blocks segments a sheet into typed blocks. A retry replaces the sheet's
// blocks in one transaction, so they are never doubled.
func (in *Ingest) blocks(ctx context.Context, j *ent.Job) (any, error) {
	s, err := in.R.DB.Sheet.Get(ctx, j.TargetID)
	if ent.IsNotFound(err) {
		return nil, jobs.Fail("NOT_FOUND", "sheet %s no longer exists", j.TargetID)
	}
	if err != nil {
		return nil, err
	}
	d, err := in.R.DB.Drawing.Get(ctx, s.DrawingID)
	if err != nil {
		return nil, err
	}
	img := in.handoff.take(s.ID)
	if img == nil {
		// rendering again (≈0.3–0.5 s for a 113 MP page) is cheaper than decoding the stored PNG
		if img, err = in.renderPage(ctx, d.FileID, s.PageNumber); err != nil {
			return nil, err
		}
	}
	org, _ := tenant.Org(ctx)
	key := blobs.SheetKey(org, d.ID, s.PageNumber)
	var words []text.Word
	if wb, err := in.Blobs.ReadAll(ctx, key+"-words.json"); err == nil {
		_ = json.Unmarshal(wb, &words)
	}
	pg, info := sheetread.Analyze(img, words)
	var found []layout.Block
	if pg != nil {
		found = pg.Blocks(info.NumberBox)
	}
	// legends read by OCR are read again closely; the sheet keeps the
	// better words (search reads them)
	words, reread, err := sheetread.Reread(ctx, img, s.Dpi, words, pg, found)
	if err != nil {
		return nil, err
	}
	if reread {
		wb, _ := json.Marshal(words)
		if err := in.Blobs.WriteAll(ctx, key+"-words.json", wb, &blob.WriterOptions{ContentType: "application/json"}); err != nil {
			return nil, err
		}
	}
	type made struct {
		res   BlockResult
		crop  *image.Gray
		words []text.Word
	}
	var out []made
	for _, b := range found {
		b.Title = strings.TrimSpace(strings.TrimRight(b.Title, ": ")) // "GENERAL NOTES:" → "GENERAL NOTES"
		if b.Type == "TitleBlock" && b.Title == "" {
			b.Title = info.Title // the drawing title it shows
		}
		id := ids.New(ids.Block)
		r := image.Rect(int(b.Box.XMin), int(b.Box.YMin), int(math.Ceil(b.Box.XMax)), int(math.Ceil(b.Box.YMax))).Intersect(img.Rect)
		if r.Empty() {
			continue
		}
		var inside []text.Word
		for _, w := range words {
			if w.Box.XMin >= b.Box.XMin && w.Box.YMin >= b.Box.YMin && w.Box.XMax <= b.Box.XMax && w.Box.YMax <= b.Box.YMax {
				w.Box = w.Box.Translate(-b.Box.XMin, -b.Box.YMin) // block pixels
				inside = append(inside, w)
			}
		}
		out = append(out, made{BlockResult{BlockID: id, Type: b.Type, Title: b.Title, Scale: b.Scale, Bounds: b.Box},
			img.SubImage(r).(*image.Gray), inside})
	}
	// each block's image is one single-threaded encode: spread them over the cores
	errs := make([]error, len(out))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(out)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(out); i = int(next.Add(1) - 1) {
				errs[i] = in.storeBlock(ctx, blobs.BlockKey(org, out[i].res.BlockID), out[i].crop, out[i].words)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	tx, err := in.R.DB.Tx(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Block.Delete().Where(block.SheetID(s.ID)).Exec(ctx); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	results := make([]BlockResult, 0, len(out))
	for _, m := range out {
		if err := tx.Block.Create().SetID(m.res.BlockID).SetProjectID(s.ProjectID).SetSheetID(s.ID).
			SetType(block.Type(m.res.Type)).SetTitle(m.res.Title).SetScale(m.res.Scale).SetBounds(m.res.Bounds).
			SetDescription(describeBlock(layout.Block{Type: m.res.Type, Title: m.res.Title, Scale: m.res.Scale})).
			SetURI(blobs.BlockURI(m.res.BlockID)).Exec(ctx); err != nil {
			_ = tx.Rollback()
			return nil, err
		}
		results = append(results, m.res)
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return map[string]any{"sheet_id": s.ID, "blocks": results}, nil
}

// describeBlock says in words what a block is.
func describeBlock(b layout.Block) string {
	kind := map[string]string{
		"Plan": "Plan view", "Elevation": "Elevation", "Section": "Section", "Detail": "Detail", "Schedule": "Schedule",
		"Legend": "Legend", "GeneralNotes": "General notes", "KeyNotes": "Key notes", "SheetNotes": "Sheet notes",
		"TitleBlock": "Title block", "RevisionHistory": "Revision history", "Diagram": "Diagram", "Image": "Image",
	}[b.Type]
	if kind == "" {
		kind = b.Type
	}
	out := kind
	if b.Title != "" {
		out += " \"" + b.Title + "\""
	}
	if b.Scale != "" {
		out += " at " + b.Scale
	}
	return out
}

// finishSheet completes a sheet job when its block job ends, adding the
// blocks to what the sheet stage found.
func (in *Ingest) finishSheet(ctx context.Context, parent *ent.Job, children []*ent.Job) (any, error) {
	var res SheetResult
	_ = json.Unmarshal(parent.Result, &res)
	for _, c := range children {
		if c.Status != job.StatusCompleted {
			code, msg := "BLOCKS_FAILED", "block segmentation failed"
			if c.Error != nil {
				code, msg = c.Error.Code, c.Error.Message
			}
			return nil, jobs.Fail(code, "%s", msg)
		}
		var br struct {
			Blocks []BlockResult `json:"blocks"`
		}
		_ = json.Unmarshal(c.Result, &br)
		res.Blocks = len(br.Blocks)
	}
	return res, nil
}

func (in *Ingest) storeImages(ctx context.Context, key string, img *image.Gray) error {
	// the full-page PNG is one long single-threaded encode: run it beside
	// the tile pyramid, which spreads over the other cores
	pngc := make(chan error, 1)
	go func() {
		bw, err := in.Blobs.NewWriter(ctx, key+".png", &blob.WriterOptions{ContentType: "image/png"})
		if err != nil {
			pngc <- err
			return
		}
		if err := render.EncodePNG(bw, img); err != nil {
			bw.Close()
			pngc <- err
			return
		}
		pngc <- bw.Close()
	}()
	if err := in.storeTiles(ctx, key, img); err != nil {
		<-pngc
		return err
	}
	return <-pngc
}

// storeTiles writes the thumbnail and the deep-zoom pyramid (its tiles
// packed into one object, see TilePack).
func (in *Ingest) storeTiles(ctx context.Context, key string, img *image.Gray) error {
	tw, err := in.Blobs.NewWriter(ctx, key+"-thumb.png", &blob.WriterOptions{ContentType: "image/png"})
	if err != nil {
		return err
	}
	if err := render.EncodePNG(tw, render.Thumbnail(img, 1024)); err != nil {
		tw.Close()
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	pack, err := tilepack.Create(ctx, in.Blobs, blobs.TilePack(key))
	if err != nil {
		return err
	}
	desc, err := render.WriteDZI(ctx, img, 256, 1, "png", func(_ context.Context, name string, data []byte) error {
		return pack.Put(name, data)
	})
	if err != nil {
		pack.Abort()
		return err
	}
	if err := pack.Close(ctx); err != nil {
		return err
	}
	return in.Blobs.WriteAll(ctx, key+".dzi", desc, &blob.WriterOptions{ContentType: "application/xml"})
}

// saveSheet creates the page's sheet or, on a retry, updates it: the
// (drawing, page) pair is unique, so a sheet is never made twice.
func (in *Ingest) saveSheet(ctx context.Context, d *ent.Drawing, page int, info sheetinfo.Info, w, h, dpi int) (*ent.Sheet, error) {
	s, err := in.R.DB.Sheet.Query().Where(sheet.DrawingID(d.ID), sheet.PageNumber(page)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		id := ids.New(ids.Sheet)
		return in.R.DB.Sheet.Create().SetID(id).SetURI(blobs.SheetURI(id)).SetProjectID(d.ProjectID).SetDrawingID(d.ID).SetPageNumber(page).
			SetSheetNumber(info.Number).SetSheetNumberNorm(sheetmeta.Normalize(info.Number)).SetTitle(info.Title).
			SetDiscipline(info.Discipline).SetRevision(info.Revision).SetWidth(w).SetHeight(h).SetDpi(dpi).Save(ctx)
	case err != nil:
		return nil, err
	}
	return in.R.DB.Sheet.UpdateOne(s).SetSheetNumber(info.Number).SetSheetNumberNorm(sheetmeta.Normalize(info.Number)).
		SetTitle(info.Title).SetDiscipline(info.Discipline).SetRevision(info.Revision).SetWidth(w).SetHeight(h).SetDpi(dpi).Save(ctx)
}

// DrawingResult is what a completed drawing_preprocess job reports.
type DrawingResult struct {
	DrawingID string        `json:"drawing_id"`
	Sheets    []SheetResult `json:"sheets"`
}

// finishDrawing runs when every page is done. One failed page fails the
// drawing and removes its sheets, so nothing half-made is left behind.
func (in *Ingest) finishDrawing(ctx context.Context, parent *ent.Job, children []*ent.Job) (any, error) {
	var failed *ent.Job
	res := DrawingResult{DrawingID: parent.TargetID}
	for _, c := range children {
		if c.Status != job.StatusCompleted {
			if failed == nil {
				failed = c
			}
			continue
		}
		var sr SheetResult
		if err := json.Unmarshal(c.Result, &sr); err == nil {
			res.Sheets = append(res.Sheets, sr)
		}
	}
	if failed != nil {
		if _, err := in.R.DB.Sheet.Delete().Where(sheet.DrawingID(parent.TargetID)).Exec(ctx); err != nil {
			return nil, err
		}
		_ = in.R.DB.Drawing.UpdateOneID(parent.TargetID).SetStatus(drawing.StatusFailed).Exec(ctx)
		var p pageInput
		_ = json.Unmarshal(failed.Input, &p)
		code, msg := "PAGE_FAILED", "a page could not be processed"
		if failed.Error != nil {
			code, msg = failed.Error.Code, failed.Error.Message
		}
		return nil, jobs.Fail(code, "page %d: %s", p.Page, msg)
	}
	if err := in.fillDisciplines(ctx, parent.TargetID, res.Sheets); err != nil {
		return nil, err
	}
	if err := index.New(in.R.DB, in.Blobs).RebuildDrawing(ctx, parent.TargetID); err != nil {
		return nil, err // the search rows; rebuilt whole on a retry
	}
	if err := in.R.DB.Drawing.UpdateOneID(parent.TargetID).SetStatus(drawing.StatusReady).Exec(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// fillDisciplines gives the sheets whose own lettering names no discipline
// (a notes sheet with a bare number) the discipline most of the set's
// sheets have, when at least two sheets and more than half of those with
// one agree: a set is mostly one office's sheets.
func (in *Ingest) fillDisciplines(ctx context.Context, drawingID string, sheets []SheetResult) error {
	n, known := map[string]int{}, 0
	for _, s := range sheets {
		if s.Discipline != "" {
			n[s.Discipline]++
			known++
		}
	}
	best := ""
	for d, c := range n {
		if c > n[best] || c == n[best] && d < best {
			best = d
		}
	}
	if best == "" || n[best] < 2 || 2*n[best] <= known || known == len(sheets) {
		return nil
	}
	if _, err := in.R.DB.Sheet.Update().Where(sheet.DrawingID(drawingID), sheet.Discipline("")).SetDiscipline(best).Save(ctx); err != nil {
		return err
	}
	for i := range sheets {
		if sheets[i].Discipline == "" {
			sheets[i].Discipline = best
		}
	}
	return nil
}
