package complete

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// dockerFinderServer serves a catalog the way DockerFinder does: GET
// /api/software lists the software, GET /search answers the wire form of
// completion.md §8.5 with §9.1's semantics (the same Catalog.Search the
// offline mode uses, so both modes must agree on the corpus).
func dockerFinderServer(t *testing.T, c *Catalog) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/api/software", func(w http.ResponseWriter, _ *http.Request) {
		var sw []map[string]string
		for _, s := range c.Software {
			sw = append(sw, map[string]string{"name": s})
		}
		writeJSON(w, map[string]any{"count": len(sw), "software": sw})
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		q, err := parseWire(r.URL.RawQuery)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := c.Search(r.Context(), q)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		images := make([]json.RawMessage, 0, len(res.Page))
		for _, img := range res.Page {
			images = append(images, img.Raw)
		}
		pages := (res.Count + PageSize - 1) / PageSize
		writeJSON(w, map[string]any{"count": res.Count, "page": 1, "limit": PageSize, "pages": pages, "images": images})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// parseWire reads a /search query string back into a query, as
// DockerFinder's handler reads its parameters.
func parseWire(raw string) (*Query, error) {
	q := &Query{}
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, err
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, err
		}
		switch {
		case key == "sort":
			field, desc := strings.TrimPrefix(val, "-"), !strings.HasPrefix(val, "-")
			f, ok := fieldByName(field)
			if !ok {
				return nil, fmt.Errorf("bad sort %q", val)
			}
			q.Sort = append(q.Sort, SortKey{f, desc})
		case key == "distro":
			q.Distro, q.HasDistro = val, true
		case strings.Contains(key, "_"):
			name, op, _ := strings.Cut(key, "_")
			f, ok := fieldByName(name)
			o := -1
			for i, s := range opSuffix {
				if s == op {
					o = i
				}
			}
			n, err := strconv.ParseInt(val, 10, 64)
			if !ok || o < 0 || err != nil {
				return nil, fmt.Errorf("bad bound %s=%s", key, val)
			}
			q.setBound(Bound{f, Op(o), n})
		default:
			q.setSoftware(key, val)
		}
	}
	return q, nil
}

func fieldByName(s string) (Field, bool) {
	for i, n := range fieldNames {
		if n == s {
			return Field(i), true
		}
	}
	return 0, false
}

func testCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := ParseCatalog([]byte(`{"software": ["node", "ruby"], "images": [
		{"name": "a:1", "size": 100, "pulls": 5, "stars": 1, "distro": "Alpine Linux v3.4",
		 "softwares": [{"software": "node", "ver": "6.2.0"}]},
		{"name": "b:1", "size": 50, "pulls": 9, "stars": 7, "distro": "Debian GNU/Linux 8 (jessie)",
		 "softwares": [{"software": "node", "ver": "6.20.1"}, {"software": "ruby", "ver": "2.3.1"}]},
		{"name": "c:1", "size": 0, "pulls": 1, "stars": 99, "softwares": [{"software": "node", "ver": "6.2.0"}]}
	]}`))
	require.NoError(t, err)
	return c
}

func TestDockerFinderClient(t *testing.T) {
	c := testCatalog(t)
	srv := dockerFinderServer(t, c)
	df := NewDockerFinder(srv.URL + "/")
	ctx := context.Background()

	sw, err := df.SupportedSoftware(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"node", "ruby"}, sw)

	tests := []struct {
		name  string
		q     *Query
		count int
		names []string
	}{
		{"top rated, size > 0 drops c", newQuery(TopRated), 2, []string{"b:1", "a:1"}},
		{"size policy", newQuery(SizePolicy), 2, []string{"b:1", "a:1"}},
		{"prefix 6.2 matches 6.20.1", func() *Query { q := newQuery(TopRated); q.setSoftware("node", "6.2"); return q }(), 2, []string{"b:1", "a:1"}},
		{"ruby", func() *Query { q := newQuery(TopRated); q.setSoftware("ruby", "2"); return q }(), 1, []string{"b:1"}},
		{"distro words", func() *Query { q := newQuery(TopRated); q.Distro, q.HasDistro = "debian jessie", true; return q }(), 1, []string{"b:1"}},
		{"bound", func() *Query { q := newQuery(TopRated); q.setBound(Bound{FieldStars, OpLT, 5}); return q }(), 1, []string{"a:1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := df.Search(ctx, tc.q)
			require.NoError(t, err, "query %s", tc.q.Wire())
			require.Equal(t, tc.count, res.Count, "count of %s", tc.q.Wire())
			var names []string
			for _, img := range res.Page {
				names = append(names, img.Name)
			}
			require.Equal(t, tc.names, names, "page of %s", tc.q.Wire())
			offline, err := c.Search(ctx, tc.q)
			require.NoError(t, err)
			require.Equal(t, offline.Count, res.Count, "offline and service counts of %s", tc.q.Wire())
		})
	}
}

func TestDockerFinderErrors(t *testing.T) {
	ctx := context.Background()
	reply := func(status int, body string) *DockerFinder {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return NewDockerFinder(srv.URL)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name       string
		df         *DockerFinder
		searchMsg  string
		softwareOK bool
	}{
		{"status 500", reply(500, `{"count": 0, "images": []}`), MsgServerError, false},
		{"no count", reply(200, `{"images": []}`), MsgServerError, false},
		{"no images", reply(200, `{"count": 3}`), MsgServerError, false},
		{"not JSON", reply(200, `<html>`), MsgServerError, false},
		{"unreachable", NewDockerFinder(closed.URL), MsgServerError, false},
		{"software only", reply(200, `{"count": 1, "software": [{"name": "x"}], "images": null}`), MsgServerError, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.df.Search(ctx, newQuery(TopRated))
			require.Error(t, err)
			require.Equal(t, tc.searchMsg, err.Error())
			_, err = tc.df.SupportedSoftware(ctx)
			if tc.softwareOK {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				require.Equal(t, MsgSoftwareService, err.Error())
			}
		})
	}
}

func TestDockerFinderHostLayout(t *testing.T) {
	df := NewDockerFinderHost("http://finder.example/")
	require.Equal(t, "http://finder.example:3000/search", df.SearchURL)
	require.Equal(t, "http://finder.example:3001/api/software", df.SoftwareURL)
	df = NewDockerFinder("http://localhost:8080/df/")
	require.Equal(t, "http://localhost:8080/df/search", df.SearchURL)
	require.Equal(t, "http://localhost:8080/df/api/software", df.SoftwareURL)
}

func TestWireRoundTrip(t *testing.T) {
	q := newQuery(SizePolicy)
	q.setSoftware("node", "6.2")
	q.setSoftware("wget", "")
	q.Distro, q.HasDistro = "debian jessie", true
	q.setBound(Bound{FieldSize, OpLTE, 99000000})
	q.setBound(Bound{FieldPulls, OpGT, 30})
	want := "size_gt=0&sort=-size&sort=stars&sort=pulls&node=6.2&wget=&distro=debian+jessie&size_lte=99000000&pulls_gt=30"
	require.Equal(t, want, q.Wire())
	back, err := parseWire(q.Wire())
	require.NoError(t, err)
	require.Equal(t, q, back)
}
