package s3

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/versus/agents/go/internal/workload"
)

// newClient is an S3 client for the plan. Credentials come from the SDK's default chain on the
// agent's machine (environment, AWS_PROFILE or the profile setting, the shared files, the
// machine's role), or none with anonymous. The SDK does not retry: one operation is one request,
// so its time is one request's time and a failed request counts as an error.
func newClient(ctx context.Context, p *plan) (*s3.Client, string, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(p.Region),
		config.WithRetryMaxAttempts(1),
		config.WithHTTPClient(awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
			// Every operation in flight keeps its connection between operations.
			t.MaxIdleConnsPerHost = max(p.Concurrency, t.MaxIdleConnsPerHost)
		})),
	}
	if p.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(p.Profile))
	}
	if p.Anonymous {
		opts = append(opts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, "", &workload.PermanentError{Err: fmt.Errorf("loading the AWS configuration of the agent's machine: %w", err)}
	}
	source := "anonymous (unsigned requests)"
	if !p.Anonymous {
		// Retrieved once up front: no credentials is said before any operation, and the run's
		// environment names where they came from (never the keys).
		creds, err := cfg.Credentials.Retrieve(ctx)
		if err != nil {
			return nil, "", &workload.PermanentError{Err: fmt.Errorf("no AWS credentials on the agent's machine (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or AWS_PROFILE in the agent's environment, or give anonymous: true for an endpoint that takes unsigned requests): %w", err)}
		}
		source = creds.Source
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if p.Endpoint != "" {
			o.BaseEndpoint = aws.String(strings.TrimRight(p.Endpoint, "/"))
		}
		o.UsePathStyle = p.PathStyle
	})
	return client, source, nil
}

// permanentCodes are S3 error codes another attempt would meet again: the credentials, the
// bucket or the request itself is wrong.
var permanentCodes = map[string]bool{
	"AccessDenied": true, "AllAccessDisabled": true, "AccountProblem": true, "InvalidAccessKeyId": true,
	"SignatureDoesNotMatch": true, "ExpiredToken": true, "InvalidToken": true, "TokenRefreshRequired": true,
	"AuthorizationHeaderMalformed": true, "InvalidRequest": true, "InvalidArgument": true,
	"NoSuchBucket": true, "InvalidBucketName": true, "PermanentRedirect": true, "EntityTooLarge": true,
	"InvalidObjectState": true, "NotImplemented": true,
}

// s3Error words an operation's failure as S3 said it ("AccessDenied: Access Denied (HTTP 403)"),
// and says whether it is permanent.
func s3Error(err error) (string, bool) {
	var api smithy.APIError
	if !errors.As(err, &api) {
		if errors.Is(err, context.DeadlineExceeded) {
			return "timed out", false
		}
		return err.Error(), false
	}
	msg := api.ErrorCode()
	if m := api.ErrorMessage(); m != "" {
		msg += ": " + m
	}
	status := 0
	var resp *awshttp.ResponseError
	if errors.As(err, &resp) {
		status = resp.HTTPStatusCode()
		msg += fmt.Sprintf(" (HTTP %d)", status)
	}
	return msg, permanentCodes[api.ErrorCode()] || status == 401 || status == 403
}
