// Package options is the flag set of `versus-agent target` (and cmd/versus-target): a package of
// its own, without the server, so the agent's targets setting checks a target's flags as the
// target will read them.
package options

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// MaxPayload is the largest payload an endpoint sends or accepts (64 MiB).
const MaxPayload = 64 << 20

// Options are the target's flags: one set for `versus-agent target` and cmd/versus-target.
type Options struct {
	Addr       string
	Body       int           // bytes of the fixed answer at /
	Metrics    bool          // serve /metrics
	StallEvery time.Duration // hold every answer during a window once per this period (0: never)
	StallFor   time.Duration
	Burn       float64 // share of one core kept busy
	Workers    int     // requests answered at once; the rest wait (0: no limit)

	PayloadSize int // default size of the /payload answers

	Products      int           // products in one /products answer
	ProductsDelay time.Duration // the database-like wait of an uncached answer
	ProductsCPU   time.Duration // the busy loop of an uncached answer
	Cache         bool          // keep /products answers in memory
	CacheTTL      time.Duration // 0: keep them until the process exits

	Upstreams []*url.URL // balance over these instead of answering

	GRPCAddr   string // serve the gRPC payload service here too ("": no gRPC)
	PrintProto bool   // print the gRPC service's .proto and exit

	S3          bool          // serve the S3 API at Addr instead of the endpoints above
	S3Buckets   []string      // buckets made at start; given, no other bucket exists
	S3Delay     time.Duration // the fixed wait of every S3 request, as a network's
	S3AccessKey string        // given, requests must be signed with this access key ID
}

// bucketName is what S3 takes as a bucket name (lowercase letters, digits, dots and hyphens).
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// usageHeader opens the help text, before the flags.
const usageHeader = `Serves a system under test for Versus experiments on loopback: a fixed small answer at /,
payloads as binary or base64 JSON at /payload/binary and /payload/json, a product list at
/products (a database-like delay, optionally cached), Prometheus metrics at /metrics; or, with
--upstream, a round-robin load balancer over other targets. With --grpc-addr it also serves the
gRPC service versus.target.Payloads (Unary, Stream, Upload; reflection on; --print-proto shows
its .proto). With --s3 it serves the S3 API at --addr instead (path-style, objects in memory), and
/metrics. The first line on stdout is "listening on http://ADDR/", then, with --grpc-addr,
"listening for gRPC on ADDR".

flags:
`

// Parse reads the flags; the error names the flag that was wrong and what is valid.
func Parse(name string, args []string, stderr io.Writer) (Options, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [flags]\n\n%s", name, usageHeader)
		fs.PrintDefaults()
	}
	var o Options
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	fs.IntVar(&o.Body, "body", 13, "size in bytes of the fixed text answer at /")
	fs.BoolVar(&o.Metrics, "metrics", true, "serve the process's and Go's metrics (and the target's own) at /metrics")
	fs.DurationVar(&o.StallEvery, "stall-every", 0, "hold all answers (but /metrics) for --stall-for once per this period, as a GC pause or a lock would (0: never)")
	fs.DurationVar(&o.StallFor, "stall-for", time.Second, "how long each stall lasts")
	fs.IntVar(&o.Workers, "workers", 0, "answer at most this many requests (and gRPC calls) at once, as a server's worker pool (Tomcat's maxThreads); the rest wait for a free worker and the wait counts in their latency (0: no limit)")
	fs.Float64Var(&o.Burn, "burn", 0, "keep this share of one core busy (0 – 1), in 10 ms slices")
	fs.IntVar(&o.PayloadSize, "payload-size", 1<<20, "bytes of a /payload answer when the request gives no ?size= (0 – 64 MiB)")
	fs.IntVar(&o.Products, "products", 100, "products in a /products answer (1 – 100000)")
	fs.DurationVar(&o.ProductsDelay, "products-delay", 50*time.Millisecond, "how long an uncached /products answer waits, as on a database query")
	fs.DurationVar(&o.ProductsCPU, "products-cpu", 2*time.Millisecond, "how long an uncached /products answer keeps a core busy")
	fs.BoolVar(&o.Cache, "cache", false, "keep /products answers in memory (one per query string); hits skip the delay and the CPU")
	fs.DurationVar(&o.CacheTTL, "cache-ttl", 0, "how long a cached /products answer is kept (0: as long as the process runs)")
	fs.StringVar(&o.GRPCAddr, "grpc-addr", "", "also serve the gRPC payload service (versus.target.Payloads, reflection on) at this address, e.g. 127.0.0.1:0 (empty: no gRPC)")
	fs.BoolVar(&o.PrintProto, "print-proto", false, "print the gRPC payload service's .proto file and exit")
	fs.BoolVar(&o.S3, "s3", false, "serve the S3 API (path-style: http://ADDR/BUCKET/KEY; objects kept in memory) at --addr instead of /, /payload and /products; /metrics stays")
	buckets := fs.String("s3-bucket", "", "with --s3: comma-separated buckets made at start; given, any other bucket is NoSuchBucket (empty: a bucket is made when first written to)")
	fs.DurationVar(&o.S3Delay, "s3-delay", 0, "with --s3: how long every S3 request waits before it is handled, as a fixed network cost would (e.g. 20ms)")
	fs.StringVar(&o.S3AccessKey, "s3-access-key", "", "with --s3: answer only requests signed with this access key ID (InvalidAccessKeyId otherwise; unsigned: AccessDenied). The signature itself is not checked (empty: any request)")
	upstream := fs.String("upstream", "", "comma-separated base URLs of other targets: answer every request but /metrics by passing it to them in turn (round robin)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (every setting is a flag; see -h)", fs.Arg(0))
	}
	if err := o.parseUpstreams(*upstream); err != nil {
		return o, err
	}
	if err := o.parseS3(fs, *buckets); err != nil {
		return o, err
	}
	if len(o.Upstreams) > 0 {
		// The instances behind the balancer answer; these would change nothing and mislead.
		var ignored []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "body", "payload-size", "products", "products-delay", "products-cpu", "cache", "cache-ttl", "grpc-addr":
				ignored = append(ignored, "--"+f.Name)
			}
		})
		if len(ignored) > 0 {
			return o, fmt.Errorf("%s: with --upstream the targets behind the balancer answer; give these flags to them", strings.Join(ignored, ", "))
		}
	}
	return o, o.check()
}

// parseS3 checks the --s3 flags: the others need --s3, which answers instead of the balancer.
func (o *Options) parseS3(fs *flag.FlagSet, buckets string) error {
	for _, name := range strings.Split(buckets, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !bucketName.MatchString(name) {
			return fmt.Errorf("--s3-bucket: %q is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit)", name)
		}
		o.S3Buckets = append(o.S3Buckets, name)
	}
	if o.S3Delay < 0 {
		return fmt.Errorf("--s3-delay must not be negative (got %v)", o.S3Delay)
	}
	if o.S3 {
		if len(o.Upstreams) > 0 {
			return errors.New("--s3 cannot be given with --upstream: the target either serves S3 or balances over others")
		}
		return nil
	}
	var needS3 []string
	fs.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "s3-") {
			needS3 = append(needS3, "--"+f.Name)
		}
	})
	if len(needS3) > 0 {
		return fmt.Errorf("%s: only with --s3 (the target serves S3 only with it)", strings.Join(needS3, ", "))
	}
	return nil
}

func (o *Options) parseUpstreams(list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	for _, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--upstream: %q is not a base URL such as http://127.0.0.1:8081 (give http or https URLs separated by commas)", raw)
		}
		o.Upstreams = append(o.Upstreams, u)
	}
	return nil
}

func (o Options) check() error {
	var problems []error
	if o.Body < 0 {
		problems = append(problems, fmt.Errorf("--body must be 0 or more bytes (got %d)", o.Body))
	}
	if o.Workers < 0 {
		problems = append(problems, fmt.Errorf("--workers must be 0 (no limit) or more (got %d)", o.Workers))
	}
	if o.Burn < 0 || o.Burn > 1 {
		problems = append(problems, fmt.Errorf("--burn must be from 0 to 1 (got %g)", o.Burn))
	}
	if o.StallEvery < 0 || (o.StallEvery > 0 && (o.StallFor <= 0 || o.StallFor > o.StallEvery)) {
		problems = append(problems, fmt.Errorf("--stall-for must be more than 0 and at most --stall-every (got %v every %v)", o.StallFor, o.StallEvery))
	}
	if o.PayloadSize < 0 || o.PayloadSize > MaxPayload {
		problems = append(problems, fmt.Errorf("--payload-size must be from 0 to %d bytes (got %d)", MaxPayload, o.PayloadSize))
	}
	if o.Products < 1 || o.Products > 100000 {
		problems = append(problems, fmt.Errorf("--products must be from 1 to 100000 (got %d)", o.Products))
	}
	if o.ProductsDelay < 0 || o.ProductsCPU < 0 || o.CacheTTL < 0 {
		problems = append(problems, errors.New("--products-delay, --products-cpu and --cache-ttl must not be negative"))
	}
	return errors.Join(problems...)
}
