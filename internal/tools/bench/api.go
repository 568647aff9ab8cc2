package bench

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tlsca"
)

// APIOptions configure the API benchmark.
type APIOptions struct {
	// AdminURL is a PostgreSQL URL allowed to create and drop databases.
	AdminURL string
	RedisURL string
	Sheets   int
	Rate     int
	Duration time.Duration
	Out      io.Writer
}

// API seeds Sheets sheets in a fresh PostgreSQL database, then drives the
// REST sheet list (limit=100, expand=drawing), the same data through
// GraphQL, and a bare net/http + pgx handler running the same SQL, each at
// Rate requests per second over HTTPS, and reports latency and throughput.
func API(ctx context.Context, o APIOptions) ([]Result, error) {
	dbName := "plangraph_bench_" + strings.ToLower(ids.New("b")[2:14])
	dbURL, drop, err := createDatabase(ctx, o.AdminURL, dbName)
	if err != nil {
		return nil, err
	}
	defer drop()
	dir, err := os.MkdirTemp("", "plangraph-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	cfg := config.Config{Addr: "127.0.0.1:0", DataDir: dir, DatabaseURL: dbURL, RedisURL: o.RedisURL, LogLevel: "error",
		TLSHosts: "localhost,127.0.0.1", ShutdownTimeout: 5 * time.Second, MaxBodyBytes: 1 << 20,
		// the benchmark measures latency, not the per-key budget
		RateManagement: 1_000_000, BurstManagement: 1_000_000, RateVision: 1_000_000, BurstVision: 1_000_000}
	if err := cfg.Resolve(); err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	app, err := server.Open(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	defer app.Close()
	key, _, err := auth.CreateKey(ctx, app.Store.Client, "bench", "bench")
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "seeding %d sheets…\n", o.Sheets)
	projectID, err := seedSheets(ctx, app.Store.Client, key, o.Sheets)
	if err != nil {
		return nil, err
	}

	ln, tc, err := app.Listen()
	if err != nil {
		return nil, err
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go app.Serve(sctx, ln) //nolint:errcheck
	base := "https://" + ln.Addr().String()

	bare, err := startBare(ctx, dbURL, filepath.Join(dir, "tls"))
	if err != nil {
		return nil, err
	}
	defer bare.Close()

	client, err := httpsClient(tc.CAFile)
	if err != nil {
		return nil, err
	}
	restURL := base + "/v1/sheets?project_id=" + url.QueryEscape(projectID) + "&limit=100&expand=drawing"
	gqlBody, _ := json.Marshal(map[string]any{
		"query": `query($p: String!) { sheets(first: 100, where: {projectID: $p}, orderBy: [{field: CREATED_AT, direction: DESC}]) {
			edges { node { id drawingID pageNumber sheetNumber title discipline width height dpi uri createdAt drawing { id name status createdAt } } }
			pageInfo { hasNextPage endCursor } } }`,
		"variables": map[string]any{"p": projectID},
	})
	bareURL := "https://" + bare.Addr + "/sheets?project_id=" + url.QueryEscape(projectID)
	targets := []struct {
		name string
		req  func() (*http.Request, error)
	}{
		{"bare net/http + pgx", func() (*http.Request, error) { return http.NewRequest("GET", bareURL, nil) }},
		{"REST /v1/sheets", func() (*http.Request, error) {
			r, err := http.NewRequest("GET", restURL, nil)
			if err == nil {
				r.Header.Set("Authorization", "Bearer "+key)
			}
			return r, err
		}},
		{"GraphQL sheets", func() (*http.Request, error) {
			r, err := http.NewRequest("POST", base+"/graphql", strings.NewReader(string(gqlBody)))
			if err == nil {
				r.Header.Set("Authorization", "Bearer "+key)
				r.Header.Set("Content-Type", "application/json")
			}
			return r, err
		}},
	}
	// check each target answers correctly before measuring
	for _, t := range targets {
		if err := checkTarget(client, t.req); err != nil {
			return nil, fmt.Errorf("%s: %w", t.name, err)
		}
	}
	var out []Result
	for _, t := range targets {
		Constant(ctx, t.name+" warm-up", client, o.Rate, 3*time.Second, t.req)
		r := Constant(ctx, t.name, client, o.Rate, o.Duration, t.req)
		fmt.Fprintln(o.Out, r)
		out = append(out, r)
	}
	return out, nil
}

func checkTarget(c *http.Client, mk func() (*http.Request, error)) error {
	req, err := mk()
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	if strings.Contains(string(b), `"errors"`) {
		return fmt.Errorf("errors in body: %.300s", b)
	}
	var probe struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &probe) != nil || len(probe.Data) < 1000 {
		return fmt.Errorf("unexpectedly small answer: %.300s", b)
	}
	return nil
}

func httpsClient(caFile string) (*http.Client, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pool},
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     time.Minute,
	}}, nil
}

// createDatabase makes database name next to adminURL and returns its URL
// and a function that drops it.
func createDatabase(ctx context.Context, adminURL, name string) (string, func(), error) {
	db, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		db.Close()
	}, nil
}

// seedSheets makes one project with drawings of 100 sheets each.
func seedSheets(ctx context.Context, c *ent.Client, key string, n int) (string, error) {
	a := auth.NewAuthenticator(c, time.Minute)
	defer a.Wait()
	p, err := a.Check(ctx, key)
	if err != nil {
		return "", err
	}
	ctx = tenant.WithOrg(ctx, p.OrgID)
	prj, err := c.Project.Create().SetName("bench").Save(ctx)
	if err != nil {
		return "", err
	}
	for made := 0; made < n; {
		d, err := c.Drawing.Create().SetProjectID(prj.ID).SetName(fmt.Sprintf("Set %d", made/100+1)).SetStatus("ready").Save(ctx)
		if err != nil {
			return "", err
		}
		batch := make([]*ent.SheetCreate, 0, 100)
		for i := 0; i < 100 && made < n; i, made = i+1, made+1 {
			num := fmt.Sprintf("A-%03d", i+1)
			batch = append(batch, c.Sheet.Create().SetProjectID(prj.ID).SetDrawingID(d.ID).SetPageNumber(i+1).
				SetSheetNumber(num).SetSheetNumberNorm(strings.ReplaceAll(num, "-", "")).
				SetTitle(fmt.Sprintf("FLOOR PLAN - LEVEL %02d", i%10+1)).SetDiscipline("architectural").
				SetWidth(10800).SetHeight(7200).SetDpi(300).SetURI("blobs/sheets/"+d.ID+"/"+num+".png"))
		}
		if err := c.Sheet.CreateBulk(batch...).Exec(ctx); err != nil {
			return "", err
		}
	}
	return prj.ID, nil
}

// bareServer is the comparison: net/http + pgxpool, the same SQL our REST
// list runs (keyset page of sheets, then their drawings by id), no framework.
type bareServer struct {
	Addr string
	srv  *http.Server
	pool *pgxpool.Pool
}

func (b *bareServer) Close() {
	_ = b.srv.Close()
	b.pool.Close()
}

func startBare(ctx context.Context, dbURL, tlsDir string) (*bareServer, error) {
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	cfg, err := tlsca.LoadServerConfig(filepath.Join(tlsDir, "server.pem"), filepath.Join(tlsDir, "server-key.pem"))
	if err != nil {
		pool.Close()
		return nil, err
	}
	type drawingRow struct {
		ID        string    `json:"id"`
		ProjectID string    `json:"project_id"`
		Name      string    `json:"name"`
		Status    string    `json:"status"`
		CreatedAt time.Time `json:"created_at"`
	}
	type sheetRow struct {
		ID          string      `json:"id"`
		DrawingID   string      `json:"drawing_id"`
		ProjectID   string      `json:"project_id"`
		PageNumber  int         `json:"page_number"`
		SheetNumber string      `json:"sheet_number"`
		Title       string      `json:"title"`
		Discipline  string      `json:"discipline"`
		Width       int         `json:"width"`
		Height      int         `json:"height"`
		DPI         int         `json:"dpi"`
		URI         string      `json:"uri"`
		CreatedAt   time.Time   `json:"created_at"`
		Drawing     *drawingRow `json:"drawing"`
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sheets", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		rows, err := pool.Query(ctx, `SELECT id, drawing_id, project_id, page_number, sheet_number, title, discipline, width, height, dpi, uri, created_at
			FROM sheets WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT 101`, r.URL.Query().Get("project_id"))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		var out []*sheetRow
		var drawingIDs []string
		for rows.Next() {
			s := &sheetRow{}
			if err := rows.Scan(&s.ID, &s.DrawingID, &s.ProjectID, &s.PageNumber, &s.SheetNumber, &s.Title, &s.Discipline, &s.Width, &s.Height, &s.DPI, &s.URI, &s.CreatedAt); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			out = append(out, s)
			drawingIDs = append(drawingIDs, s.DrawingID)
		}
		rows.Close()
		if len(out) > 100 {
			out = out[:100]
		}
		drows, err := pool.Query(ctx, `SELECT id, project_id, name, status, created_at FROM drawings WHERE id = ANY($1)`, drawingIDs)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		by := map[string]*drawingRow{}
		for drows.Next() {
			d := &drawingRow{}
			if err := drows.Scan(&d.ID, &d.ProjectID, &d.Name, &d.Status, &d.CreatedAt); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			by[d.ID] = d
		}
		drows.Close()
		for _, s := range out {
			s.Drawing = by[s.DrawingID]
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"data": out, "_meta": map[string]any{"next": "x", "prev": nil, "limit": 100}})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		pool.Close()
		return nil, err
	}
	srv := &http.Server{Handler: mux, TLSConfig: cfg, ReadHeaderTimeout: 10 * time.Second}
	go srv.ServeTLS(ln, "", "") //nolint:errcheck
	return &bareServer{Addr: ln.Addr().String(), srv: srv, pool: pool}, nil
}
