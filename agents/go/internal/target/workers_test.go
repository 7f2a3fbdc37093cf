package target

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// heldRequest is a POST /payload/binary whose body the test keeps open: the target answers it
// on a worker that stays busy until the test lets it finish.
type heldRequest struct {
	body *io.PipeWriter
	done chan error
}

func holdRequest(t *testing.T, base string) *heldRequest {
	t.Helper()
	reader, writer := io.Pipe()
	h := &heldRequest{body: writer, done: make(chan error, 1)}
	go func() {
		resp, err := http.Post(base+"/payload/binary", "application/octet-stream", reader)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		h.done <- err
	}()
	t.Cleanup(func() { _ = writer.Close() })
	if _, err := writer.Write([]byte("held")); err != nil { // the handler is reading: it holds a worker
		t.Fatal(err)
	}
	return h
}

// release lets the held request finish and waits for its answer.
func (h *heldRequest) release(t *testing.T) {
	t.Helper()
	_ = h.body.Close()
	if err := <-h.done; err != nil {
		t.Fatal(err)
	}
}

// gauges reads versus_target_workers_busy and versus_target_requests_waiting.
func gauges(t *testing.T, base string) (busy, waiting float64) {
	t.Helper()
	page := get(t, base+"/metrics").body
	return metricValue(t, page, "versus_target_workers_busy"), metricValue(t, page, "versus_target_requests_waiting")
}

// waitForGauges polls /metrics until the gauges read busy and waiting (a state the test holds,
// so polling only waits for goroutines to get there).
func waitForGauges(t *testing.T, base string, busy, waiting float64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, w := gauges(t, base)
		if b == busy && w == waiting {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics: %v workers busy and %v requests waiting, want %v and %v", b, w, busy, waiting)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// With --workers 1, a second request waits for the first to finish (counted as waiting, its
// answer after the first's); /metrics answers meanwhile.
func TestWorkersOneMakesTheSecondRequestWait(t *testing.T) {
	server := start(t, "--workers", "1", "--products-delay", "0s", "--products-cpu", "0s")
	first := holdRequest(t, server.URL)
	waitForGauges(t, server.URL, 1, 0)

	second := make(chan error, 1)
	go func() {
		resp, err := http.Get(server.URL + "/products")
		if err == nil {
			resp.Body.Close()
		}
		second <- err
	}()
	waitForGauges(t, server.URL, 1, 1)
	select {
	case err := <-second:
		t.Fatalf("the second request was answered (%v) while the only worker was busy", err)
	default:
	}
	first.release(t)
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	waitForGauges(t, server.URL, 0, 0)
}

// Without --workers every request is answered at once: two held requests are both busy.
func TestWithoutWorkersRequestsDoNotWait(t *testing.T) {
	server := start(t)
	a, b := holdRequest(t, server.URL), holdRequest(t, server.URL)
	waitForGauges(t, server.URL, 2, 0)
	a.release(t)
	b.release(t)
	waitForGauges(t, server.URL, 0, 0)
}

// gRPC calls share the pool: with one worker held by an HTTP request, a call waits.
func TestWorkersAreSharedWithGRPCCalls(t *testing.T) {
	target := startGRPC(t, "--workers", "1", "--payload-size", "10")
	held := holdRequest(t, target.url)
	waitForGauges(t, target.url, 1, 0)
	answered := make(chan error, 1)
	go func() {
		_, err := call(t, target.addr, "Unary", `{}`)
		answered <- err
	}()
	waitForGauges(t, target.url, 1, 1)
	held.release(t)
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
	waitForGauges(t, target.url, 0, 0)
}
