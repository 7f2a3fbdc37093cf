package target

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestUpstreamRoundRobinsOverTwoInstances(t *testing.T) {
	// Two instances told apart by the size of their fixed answer.
	one, two := start(t, "--body", "5", "--products", "2"), start(t, "--body", "7", "--products", "2")
	balancer := start(t, "--upstream", one.URL+","+two.URL)

	var sizes []int
	for range 6 {
		a := get(t, balancer.URL+"/")
		if a.status != http.StatusOK {
			t.Fatalf("GET / through the balancer = %d %s", a.status, a.body)
		}
		sizes = append(sizes, len(a.body))
	}
	for i, size := range sizes {
		if want := []int{5, 7}[i%2]; size != want {
			t.Fatalf("answers came from instances %v, want 5 and 7 in turn", sizes)
		}
	}
	// Path, query and body pass through.
	if p := decodePage(t, get(t, balancer.URL+"/products?page=3")); p.Page != 3 || p.Products[0].ID != 5 {
		t.Fatalf("page 3 through the balancer = %+v", p)
	}
	if posted := do(t, http.MethodPost, balancer.URL+"/payload/binary", "application/octet-stream", make([]byte, 70000)); string(posted.body) != `{"receivedBytes":70000}` {
		t.Fatalf("POST through the balancer = %d %s", posted.status, posted.body)
	}
	// The balancer's /metrics is its own: 4 requests to each instance, none to /metrics.
	metrics := string(get(t, balancer.URL+"/metrics").body)
	for _, u := range []string{one.URL, two.URL} {
		if want := `versus_target_upstream_requests_total{upstream="` + u + `"} 4`; !strings.Contains(metrics, want) {
			t.Errorf("balancer /metrics has no %s", want)
		}
	}
	if !strings.Contains(metrics, "go_gc_duration_seconds") {
		t.Error("balancer /metrics has no Go collector")
	}
}

func TestUpstreamThatDoesNotAnswerIs502NamingIt(t *testing.T) {
	live := start(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	balancer := start(t, "--upstream", live.URL+", "+deadURL)

	if a := get(t, balancer.URL+"/"); a.status != http.StatusOK {
		t.Fatalf("first request (the live instance) = %d", a.status)
	}
	wantContains(t, errorOf(t, get(t, balancer.URL+"/"), http.StatusBadGateway), "upstream "+deadURL, "did not answer")
	if metrics := string(get(t, balancer.URL+"/metrics").body); !strings.Contains(metrics, `versus_target_upstream_errors_total{upstream="`+deadURL+`"} 1`) {
		t.Errorf("the failure is not counted:\n%s", metrics)
	}
}
