package tlsca

import (
	"os"
	"testing"

	cflog "github.com/cloudflare/cfssl/log"
)

func TestMain(m *testing.M) {
	// cfssl logs every key and signature at info level.
	cflog.Level = cflog.LevelWarning
	os.Exit(m.Run())
}
