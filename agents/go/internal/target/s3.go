package target

import (
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/prometheus/client_golang/prometheus"
)

// newS3 is the --s3 answer: gofakes3's S3 API over objects in memory (path-style), behind the
// fixed --s3-delay every request waits and, with --s3-access-key, a check of the access key the
// request was signed with (gofakes3 checks none).
func newS3(o Options, registry *prometheus.Registry) http.Handler {
	backend := s3mem.New()
	for _, name := range o.S3Buckets {
		// A fresh backend refuses a bucket only when it exists already: a name given twice.
		_ = backend.CreateBucket(name)
	}
	api := gofakes3.New(backend, gofakes3.WithAutoBucket(len(o.S3Buckets) == 0)).Server()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "versus_target_s3_requests_total", Help: "S3 requests received, by HTTP method."}, []string{"method"})
	received := prometheus.NewCounter(prometheus.CounterOpts{Name: "versus_target_s3_received_bytes_total", Help: "Bytes of S3 request bodies received (objects put, as sent: gzipped ones gzipped)."})
	registry.MustRegister(requests, received)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.WithLabelValues(r.Method).Inc()
		if o.S3Delay > 0 {
			timer := time.NewTimer(o.S3Delay)
			select {
			case <-timer.C:
			case <-r.Context().Done():
				timer.Stop()
				return
			}
		}
		if o.S3AccessKey != "" {
			if code, message := checkAccessKey(r, o.S3AccessKey); code != "" {
				writeS3Error(w, http.StatusForbidden, code, message)
				return
			}
		}
		r.Body = &countingBody{ReadCloser: r.Body, add: func(n int) { received.Add(float64(n)) }}
		api.ServeHTTP(w, r)
	})
}

// checkAccessKey is the S3 error of a request not signed with the access key ID want ("" when
// it is): the key is read from the SigV4 Authorization header or a presigned URL's credential.
func checkAccessKey(r *http.Request, want string) (code, message string) {
	credential := r.URL.Query().Get("X-Amz-Credential")
	if auth := r.Header.Get("Authorization"); auth != "" {
		_, after, _ := strings.Cut(auth, "Credential=")
		credential, _, _ = strings.Cut(after, ",")
	}
	if credential == "" {
		return "AccessDenied", "Anonymous access is forbidden: this target was started with --s3-access-key."
	}
	if key, _, _ := strings.Cut(credential, "/"); key != want {
		return "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."
	}
	return "", ""
}

// writeS3Error answers as S3 does: the status and an XML <Error> with its code and message.
func writeS3Error(w http.ResponseWriter, status int, code, message string) {
	body, _ := xml.Marshal(struct {
		XMLName xml.Name `xml:"Error"`
		Code    string   `xml:"Code"`
		Message string   `xml:"Message"`
	}{Code: code, Message: message})
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = w.Write(append([]byte(xml.Header), body...))
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	add func(int)
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.add(n)
	return n, err
}
