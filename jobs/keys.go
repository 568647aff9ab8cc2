package jobs

import "fmt"

// SheetURI is where a sheet's page image is served (relative to the API).
func SheetURI(id string) string { return "/v1/sheets/" + id + "/image" }

// SheetKey is the blob key prefix of a drawing page's images: KEY.png,
// KEY-thumb.png, KEY.dzi with KEY_files/ tiles, KEY-words.json.
func SheetKey(orgID, drawingID string, page int) string {
	return fmt.Sprintf("sheets/%s/%s/%d", orgID, drawingID, page)
}
