package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/probe"
	"github.com/versus/agents/go/internal/protocoltest"
)

// The protocol as this client speaks it: each call's path, the type of the body it sends (nil:
// none) and the type it reads the answer into, for each success status it reads.
var protocol = []struct {
	call     Call
	path     string
	request  any
	status   string
	response any
}{
	{CallRegister, "/api/v1/agents/register", RegisterRequest{}, "201", RegisterResponse{}},
	{CallHeartbeat, "/api/v1/agents/heartbeat", HeartbeatRequest{}, "200", HeartbeatResponse{}},
	{CallClaim, "/api/v1/jobs/claim", nil, "200", ClaimResponse{}},
	{CallLease, "/api/v1/jobs/{id}/lease", LeaseRequest{}, "200", LeaseResponse{}},
	{CallReady, "/api/v1/jobs/{id}/ready", ReadyRequest{}, "200", ReadyResponse{}},
	{CallComplete, "/api/v1/jobs/{id}/complete", CompleteRequest{}, "201", CompleteResponse{}},
	{CallComplete, "/api/v1/jobs/{id}/complete", CompleteRequest{}, "200", CompleteResponse{}},
	{CallFail, "/api/v1/jobs/{id}/fail", FailRequest{}, "200", FailResponse{}},
	{CallRelease, "/api/v1/jobs/{id}/release", LeaseRequest{}, "200", ReleaseResponse{}},
}

// Every field the client sends is a property of the server's request schema, of a type it takes,
// and every property the schema requires is always sent; every field it reads from an answer is
// a property of the answer's schema, of a type that holds it. The schemas are docs/openapi.json,
// which the server's tests keep equal to what it serves; the values (enums, lengths) are checked
// on every body the agent sends in its tests (internal/fakeapi).
func TestTheProtocolTypesAreTheServersSchemas(t *testing.T) {
	doc := protocoltest.Load(t)
	for _, op := range protocol {
		t.Run(string(op.call)+" "+op.status, func(t *testing.T) {
			request, err := doc.RequestSchema("POST", op.path)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case op.request == nil && request != nil:
				t.Errorf("POST %s takes a body now; the client sends none", op.path)
			case op.request != nil && request == nil:
				t.Errorf("POST %s takes no body; the client sends %T", op.path, op.request)
			case op.request != nil:
				report(t, "sends", op.path, doc.CheckType(reflect.TypeOf(op.request), request, protocoltest.Sends))
			}
			response, err := doc.ResponseSchema("POST", op.path, op.status)
			if err != nil {
				t.Fatal(err)
			}
			report(t, "reads", op.path, doc.CheckType(reflect.TypeOf(op.response), response, protocoltest.Reads))
		})
	}
}

func TestEveryCallIsChecked(t *testing.T) {
	for call := range DefaultPolicies {
		found := false
		for _, op := range protocol {
			found = found || op.call == call
		}
		if !found {
			t.Errorf("%s: not in the protocol table of conformance_test.go", call)
		}
	}
}

// Claim asks for its long-poll with ?wait=<seconds>.
func TestClaimsWaitIsAQueryParameter(t *testing.T) {
	doc := protocoltest.Load(t)
	wait, err := doc.QueryParameter("POST", "/api/v1/jobs/claim", "wait")
	if err != nil {
		t.Fatal(err)
	}
	report(t, "sends", "/api/v1/jobs/claim?wait", doc.CheckType(reflect.TypeOf(0), wait, protocoltest.Sends))
}

// A refused call's body: code, message and details, as every error answer carries them.
func TestTheErrorBodyIsTheServersError(t *testing.T) {
	doc := protocoltest.Load(t)
	schema, err := doc.Component("Error")
	if err != nil {
		t.Fatal(err)
	}
	report(t, "reads", "errors", doc.CheckType(reflect.TypeOf(ErrorBody{}), schema, protocoltest.Reads))
}

func report(t *testing.T, verb, path string, problems []string) {
	t.Helper()
	if len(problems) > 0 {
		t.Errorf("what the client %s at %s does not match docs/openapi.json (the server's schemas):\n  %s", verb, path, strings.Join(problems, "\n  "))
	}
}

// The fields probes add (job.probes, run.warnings) are carried outside the protocol structs'
// tags (Job.UnmarshalJSON, Run.MarshalJSON), so the checks above hold against a document from
// before probes; this one checks them as soon as docs/openapi.json lists them.
func TestProbesAndWarningsAreTheServersSchemas(t *testing.T) {
	doc := protocoltest.Load(t)
	claim, err := doc.ResponseSchema("POST", "/api/v1/jobs/claim", "200")
	if err != nil {
		t.Fatal(err)
	}
	complete, err := doc.RequestSchema("POST", "/api/v1/jobs/{id}/complete")
	if err != nil {
		t.Fatal(err)
	}
	probes := doc.Property(claim, "job", "probes")
	warnings := doc.Property(complete, "run", "warnings")
	if probes == nil && warnings == nil {
		t.Skip("docs/openapi.json has neither job.probes nor run.warnings yet (the server's side of probes)")
	}
	if probes == nil || warnings == nil {
		t.Fatalf("docs/openapi.json has one of job.probes (%v) and run.warnings (%v) without the other", probes != nil, warnings != nil)
	}
	report(t, "reads", "/api/v1/jobs/claim job.probes", doc.CheckType(reflect.TypeOf([]probe.Spec{}), doc.Merged(probes), protocoltest.Reads))
	report(t, "sends", "/api/v1/jobs/{id}/complete run.warnings", doc.CheckType(reflect.TypeOf([]string{}), warnings, protocoltest.Sends))
}
