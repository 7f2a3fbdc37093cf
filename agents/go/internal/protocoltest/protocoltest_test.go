package protocoltest

import (
	"reflect"
	"strings"
	"testing"
)

// The checks themselves, on shapes that are wrong in each way they look for.
func TestATypeThatDoesNotFitIsNamedField(t *testing.T) {
	doc := Load(t)
	schema, err := doc.RequestSchema("POST", "/api/v1/jobs/{id}/fail")
	if err != nil {
		t.Fatal(err)
	}
	type wrong struct {
		LeaseToken string `json:"leaseToken,omitempty"` // required, but left out when empty
		Retryable  string `json:"retryable"`            // a boolean in the schema
		Extra      string `json:"noSuchProperty"`       // no such property
		// error (required) is missing
	}
	problems := strings.Join(doc.CheckType(reflect.TypeOf(wrong{}), schema, Sends), "\n")
	for _, want := range []string{`body.leaseToken: the schema requires "leaseToken", but wrong.LeaseToken has omitempty`, `body.retryable: string holds a JSON string, but the schema's type is boolean`, `body.noSuchProperty: wrong.Extra sends "noSuchProperty", which the schema does not have`, `body.error: the schema requires "error", which wrong does not send`} {
		if !strings.Contains(problems, want) {
			t.Errorf("no %q in:\n%s", want, problems)
		}
	}

	type right struct {
		LeaseToken string `json:"leaseToken"`
		Error      string `json:"error"`
		Retryable  bool   `json:"retryable"`
	}
	if problems := doc.CheckType(reflect.TypeOf(right{}), schema, Sends); len(problems) > 0 {
		t.Errorf("problems with a fitting type: %v", problems)
	}
}

func TestABodyThatDoesNotFitIsNamed(t *testing.T) {
	doc := Load(t)
	err := doc.ValidateRequest("/api/v1/jobs/job1/fail", map[string]any{"leaseToken": "vlease_1", "retryable": "yes", "noSuchProperty": "x"})
	if err == nil {
		t.Fatal("a body missing error, with a string for retryable and an unknown property, passed")
	}
	for _, want := range []string{"'error'", "/retryable", "'noSuchProperty'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no %s in: %v", want, err)
		}
	}
	if err := doc.ValidateRequest("/api/v1/jobs/job1/fail", map[string]any{"leaseToken": "vlease_1", "error": "it broke"}); err != nil {
		t.Errorf("a fitting body: %v", err)
	}
	if err := doc.ValidateRequest("/api/v1/jobs/claim", map[string]any{"wait": 3}); err == nil {
		t.Error("claim takes no body, but one passed")
	}
	if err := doc.ValidateRequest("/api/v1/nowhere", map[string]any{}); err == nil {
		t.Error("a path the document does not have passed")
	}
}
