package blobs

import "fmt"

// SheetURI is where a sheet's page image is served (relative to the API).
func SheetURI(id string) string { return "/v1/sheets/" + id + "/image" }

// SheetKey is the blob key prefix of a drawing page's images: KEY.png,
// KEY-thumb.png, KEY.dzi with its tiles in the pack TilePack(KEY) (sheets
// ingested before packs have them as KEY_files/{level}/{col}_{row}.png),
// KEY-words.json and, for a PDF page, its marks as geometry
// (VectorsKey(KEY)).
func SheetKey(orgID, drawingID string, page int) string {
	return fmt.Sprintf("%s%d", DrawingKeyPrefix(orgID, drawingID), page)
}

// DrawingKeyPrefix is the blob key prefix of all of a drawing's page
// images (see SheetKey).
func DrawingKeyPrefix(orgID, drawingID string) string {
	return "sheets/" + orgID + "/" + drawingID + "/"
}

// VectorsKey is the blob key of a PDF page's marks (vision/vector's stored
// form), in the pixels of its image; sheet is SheetKey's.
func VectorsKey(sheet string) string { return sheet + "-vectors.bin" }

// BlockURI is where a block's image is served (relative to the API).
func BlockURI(id string) string { return "/v1/blocks/" + id + "/image" }

// BlockKey is the blob key prefix of a block's image (KEY.png) and words
// (KEY-words.json, boxes in block pixels).
func BlockKey(orgID, blockID string) string { return "blocks/" + orgID + "/" + blockID }

// FeatureKey is the blob key prefix of a legend entry's exemplar image
// (KEY.png: the symbol graphic cropped tightly, dark on white).
func FeatureKey(orgID, featureID string) string { return "features/" + orgID + "/" + featureID }

// TilePack is the name of the tile pack (tilepack) of the sheet images at
// key (see SheetKey).
func TilePack(key string) string { return key + "_tiles" }

// OverlayKey is the blob key prefix of an overlay's images (see
// OverlayImages): KEY.png, KEY-addition.png, KEY-deletion.png,
// KEY-aligned_a.png and KEY-aligned_b.png, all in the newer block's (B's)
// frame and size.
func OverlayKey(orgID, overlayID string) string { return "overlays/" + orgID + "/" + overlayID }

// OverlayImage is one of an overlay's stored images: the name of its route
// (GET /v1/overlays/{id}/{Name}) and its key's suffix after OverlayKey.
type OverlayImage struct{ Name, Suffix string }

// The images of an overlay.
var (
	// OverlayCombined: unchanged ink grey, removed red, added green (RGB)
	OverlayCombined = OverlayImage{"image", ".png"}
	// OverlayAddition: B's ink that A lacks, dark on white
	OverlayAddition = OverlayImage{"addition", "-addition.png"}
	// OverlayDeletion: A's ink that B lacks, moved into B's frame
	OverlayDeletion = OverlayImage{"deletion", "-deletion.png"}
	// OverlayAlignedA: A's block moved into B's frame; OverlayAlignedB: B
	OverlayAlignedA = OverlayImage{"aligned_a", "-aligned_a.png"}
	OverlayAlignedB = OverlayImage{"aligned_b", "-aligned_b.png"}
	// OverlayImages lists them, in the order the API documents them.
	OverlayImages = []OverlayImage{OverlayCombined, OverlayAddition, OverlayDeletion, OverlayAlignedA, OverlayAlignedB}
)

// OverlayURI is where the image img of overlay id is served (relative to
// the API).
func OverlayURI(id string, img OverlayImage) string { return "/v1/overlays/" + id + "/" + img.Name }

// DrawingBlobPrefixes lists the blob key prefixes of what drawings'
// ingestion, parses and comparisons stored: their page images, tiles and
// words; their blocks' images and words; their legend entries' exemplars;
// the images of the overlays of their blocks.
func DrawingBlobPrefixes(orgID string, drawingIDs, blockIDs, featureIDs, overlayIDs []string) []string {
	var out []string
	for _, id := range drawingIDs {
		out = append(out, DrawingKeyPrefix(orgID, id))
	}
	for _, id := range blockIDs {
		out = append(out, BlockKey(orgID, id)+".", BlockKey(orgID, id)+"-")
	}
	for _, id := range overlayIDs {
		out = append(out, OverlayKey(orgID, id)+".", OverlayKey(orgID, id)+"-")
	}
	return append(out, FeatureBlobPrefixes(orgID, featureIDs)...)
}

// FeatureBlobPrefixes lists the blob key prefixes of legend entries'
// exemplar images.
func FeatureBlobPrefixes(orgID string, featureIDs []string) []string {
	var out []string
	for _, id := range featureIDs {
		out = append(out, FeatureKey(orgID, id)+".")
	}
	return out
}
