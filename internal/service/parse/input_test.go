package parse

import (
	"testing"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
)

// REST bodies decode into Input; what GraphQL's types would refuse is
// reported by field.
func TestRESTBodies(t *testing.T) {
	for body, field := range map[string]string{
		`{"features":["symbols"],"sheet_id":"sht_1","options":{"symbols":{"exemplars":[{"label":"A","source":{"sheet_id":"sht_1","bounds":{"x_min":1,"y_min":1,"y_max":9}}}]}}}`: "options.symbols.exemplars[0].source.bounds.x_max",
		`{"features":["symbols"],"sheet_id":"sht_1","options":{"symbols":{"legend":[null]}}}`:                                                                                    "options.symbols.legend[0].label",
		`{"features":["symbols"],"sheet_id":"sht_1","options":{"symbols":{"exemplars":[null]}}}`:                                                                                 "options.symbols.exemplars[0]",
		`{"features":null,"sheet_id":"sht_1"}`: "features",
	} {
		var in Input
		if err := httpx.Decode([]byte(body), &in); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		err := in.missingCoordinates()
		if err == nil {
			_, err = check(in)
		}
		if e := apierr.From(err); e.Kind != apierr.Validation || len(e.Fields[field]) == 0 {
			t.Errorf("%s: %v, want an error on %s", body, err, field)
		}
	}
	var in Input
	if err := httpx.Decode([]byte(`{"features":["symbols"],"options":{"symbols":{"legend":[{"label":"A","colour":"red"}]}}}`), &in); err == nil {
		t.Error("an unknown field was accepted")
	}
}
