package review

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/planq-dev/planq/session"
)

// cookieName holds the token once the page was opened with it.
const cookieName = "planq_token"

// Server is one run of the review page for one project.
type Server struct {
	// svc is the project service, which what the page reads and writes
	// goes through.
	svc *session.Project
	// name is the project's, which the API's paths hold.
	name  string
	who   string
	token string
	// origin is the server's own origin, http://127.0.0.1:<port>, known
	// once it listens.
	origin string
	host   string
	port   string
	mux    *http.ServeMux
	// mu serialises requests: the service is not safe for concurrent use.
	mu sync.Mutex
}

// New makes the review page of svc's project: who is the name the
// decisions are recorded under. Proposals are applied to the checkout svc
// found the project in. Each server draws its own token.
func New(ctx context.Context, svc *session.Project, who string) (*Server, error) {
	name, err := svc.Name()
	if err != nil {
		return nil, err
	}
	if _, err := svc.AgentNames(ctx); err != nil {
		return nil, err // the store opens now: a page that cannot read fails at start
	}
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("failed to draw a token: %w", err)
	}
	s := &Server{svc: svc, name: name, who: who, token: hex.EncodeToString(b[:]), mux: http.NewServeMux()}
	s.routes()
	return s, nil
}

// Listen binds 127.0.0.1 on addrPort ("0" for a free port) and returns the
// listener and the URL to open, holding the token.
func (s *Server) Listen(port string) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return nil, "", fmt.Errorf("failed to listen on 127.0.0.1:%s: %w", port, err)
	}
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	s.port = p
	s.host = "127.0.0.1:" + p
	s.origin = "http://" + s.host
	return ln, s.origin + "/?token=" + url.QueryEscape(s.token), nil
}

// Serve answers on ln until ctx ends, then shuts down.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("failed to serve: %w", err)
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			return fmt.Errorf("failed to shut down: %w", err)
		}
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("failed to serve: %w", err)
		}
		return nil
	}
}

// ServeHTTP refuses what is not from this page's own origin (403) or does
// not carry the token (401), then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if why := s.foreign(r); why != "" {
		http.Error(w, "planq: "+why, http.StatusForbidden)
		return
	}
	if q := r.URL.Query().Get("token"); q != "" && s.tokenIs(q) {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	} else if c, err := r.Cookie(cookieName); err != nil || !s.tokenIs(c.Value) {
		http.Error(w, "planq: this page needs the token 'planq ui' printed: open the URL it printed", http.StatusUnauthorized)
		return
	}
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mux.ServeHTTP(w, r)
}

func (s *Server) tokenIs(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// foreign says why a request comes from elsewhere, "" when it is the
// page's own: a Host other than 127.0.0.1 or localhost at this port (a
// DNS rebinding), or an Origin or fetch site other than this page's; and,
// for a request that may change something (not GET or HEAD), without an
// Origin, a Referer of another origin.
//
// A POST with neither Origin nor Referer is taken: browsers send Origin
// with every POST (a page whose referrer policy hides it sends "null",
// which is refused), so such a request comes from a program that was
// given the token, not from a page; and the cookie is SameSite=Strict, so
// no other site's page sends it. A GET is not held to its Referer: a link
// followed to the page carries the linking page's, and a GET changes
// nothing and its answer is not readable by another origin.
func (s *Server) foreign(r *http.Request) string {
	if s.host != "" && r.Host != s.host && r.Host != "localhost:"+s.port {
		return fmt.Sprintf("host %q is not this page's", r.Host)
	}
	if o := r.Header.Get("Origin"); o != "" && !s.ownOrigin(o) {
		return fmt.Sprintf("requests from %s are refused", o)
	}
	if ref := r.Header.Get("Referer"); r.Header.Get("Origin") == "" && ref != "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		u, err := url.Parse(ref)
		if err != nil || !s.ownOrigin(u.Scheme+"://"+u.Host) {
			return "requests from other pages are refused (Referer " + strconv.Quote(ref) + ")"
		}
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return "requests from other sites are refused"
	}
	return ""
}

// ownOrigin reports whether origin is this page's: 127.0.0.1 or localhost
// at its port.
func (s *Server) ownOrigin(origin string) bool {
	return origin == s.origin || origin == "http://localhost:"+s.port
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.Handle("GET /assets/", http.FileServerFS(assets))
	const api = "/api/learnings/{project}"
	s.mux.HandleFunc("GET "+api+"/proposals", s.project(s.listProposals))
	s.mux.HandleFunc("GET "+api+"/proposals/{id}", s.project(s.showProposal))
	s.mux.HandleFunc("POST "+api+"/proposals/{id}/apply", s.project(s.applyProposal))
	s.mux.HandleFunc("POST "+api+"/proposals/{id}/dismiss", s.project(s.dismissProposal))
	s.mux.HandleFunc("GET "+api+"/entries", s.project(s.entries))
	s.mux.HandleFunc("GET "+api+"/promotion", s.project(s.promotion))
	s.mux.HandleFunc("POST "+api+"/agents/{agent}/promote", s.project(s.promote))
	s.mux.HandleFunc("GET "+api+"/status", s.project(s.status))
	s.mux.HandleFunc("GET "+api+"/articles/{slug}", s.project(s.showArticle))
	s.mux.HandleFunc("POST "+api+"/articles/{slug}/edit", s.project(s.editArticle))
	s.mux.HandleFunc("POST "+api+"/articles/{slug}/resolve", s.project(s.resolveArticle))
}

// project answers 404 for another project's path.
func (s *Server) project(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if name := r.PathValue("project"); name != s.name {
			writeError(w, http.StatusNotFound, fmt.Errorf("no project %q here; this page serves %s", name, s.name))
			return
		}
		h(w, r)
	}
}

// projectPath is the API's root for this project.
func (s *Server) projectPath() string {
	return "/api/learnings/" + url.PathEscape(s.name)
}

// Run serves the review page of svc's project on 127.0.0.1:port ("0": a
// free port) until ctx ends, telling listening its URL (with the token)
// once it answers. who is the name decisions are recorded under.
func Run(ctx context.Context, svc *session.Project, who, port string, listening func(url string)) error {
	s, err := New(ctx, svc, who)
	if err != nil {
		return err
	}
	ln, url, err := s.Listen(port)
	if err != nil {
		return err
	}
	listening(url)
	return s.Serve(ctx, ln)
}
