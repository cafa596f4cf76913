package complete

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Spec completion.md §9.4 (DockerFinder service).

// DockerFinder is a client of a DockerFinder-compatible service: /search
// answers queries and /api/software lists the supported software. The
// service applies §9.1 itself, so its page is taken as it comes.
type DockerFinder struct {
	// SearchURL is the URL of /search, SoftwareURL the URL of /api/software.
	SearchURL, SoftwareURL string
	// Client is the HTTP client; nil means one with the reference's 5 s
	// timeout.
	Client *http.Client
}

// NewDockerFinder returns a client of the service at base (scheme, host
// and port, optionally a path): base/search and base/api/software.
func NewDockerFinder(base string) *DockerFinder {
	base = strings.TrimRight(base, "/")
	return &DockerFinder{SearchURL: base + "/search", SoftwareURL: base + "/api/software"}
}

// NewDockerFinderHost returns a client for the reference's layout, from
// DOCKERFINDER_HOST=http://host: http://host:3000/search and
// http://host:3001/api/software.
func NewDockerFinderHost(host string) *DockerFinder {
	host = strings.TrimRight(host, "/")
	return &DockerFinder{SearchURL: host + ":3000/search", SoftwareURL: host + ":3001/api/software"}
}

// requestTimeout is the reference's timeout per request.
const requestTimeout = 5 * time.Second

// maxReply bounds a service reply.
const maxReply = 64 << 20

// ServiceError is a failure of the DockerFinder service; Message is the
// reference's message and Reason says what went wrong.
type ServiceError struct {
	Message, Reason string
}

func (e *ServiceError) Error() string { return e.Message }

func (d *DockerFinder) get(ctx context.Context, url string) ([]byte, error) {
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: requestTimeout}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return body, nil
}

// SupportedSoftware implements Source with GET /api/software.
func (d *DockerFinder) SupportedSoftware(ctx context.Context) ([]string, error) {
	fail := func(err error) error { return &ServiceError{MsgSoftwareService, err.Error()} }
	body, err := d.get(ctx, d.SoftwareURL)
	if err != nil {
		return nil, fail(err)
	}
	var reply struct {
		Software []json.RawMessage `json:"software"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return nil, fail(err)
	}
	if reply.Software == nil {
		return nil, fail(errors.New(`the reply has no "software" list`))
	}
	names := make([]string, 0, len(reply.Software))
	for _, raw := range reply.Software {
		name, err := softwareName(raw)
		if err != nil {
			return nil, fail(err)
		}
		names = append(names, name)
	}
	return names, nil
}

// Search implements Source with GET /search?<wire form>. The returned page
// is the pool of the choice, in the service's order.
func (d *DockerFinder) Search(ctx context.Context, q *Query) (*SearchResult, error) {
	fail := func(err error) error { return &ServiceError{MsgServerError, err.Error()} }
	body, err := d.get(ctx, d.SearchURL+"?"+q.Wire())
	if err != nil {
		return nil, fail(err)
	}
	var reply struct {
		Count  *int              `json:"count"`
		Images []json.RawMessage `json:"images"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return nil, fail(err)
	}
	if reply.Count == nil || reply.Images == nil {
		return nil, fail(errors.New(`the reply lacks "count" or "images"`))
	}
	res := &SearchResult{Count: *reply.Count}
	for i, raw := range reply.Images {
		img, err := ParseImage(raw)
		if err != nil {
			return nil, fail(fmt.Errorf("image %d: %w", i+1, err))
		}
		res.Page = append(res.Page, img)
	}
	res.Pool = res.Page
	res.Match = make([]bool, len(res.Pool))
	for i := range res.Match {
		res.Match[i] = true
	}
	return res, nil
}
