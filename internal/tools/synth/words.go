package synth

import "fmt"

// variant is one kind of sheet: a sheet-number prefix, what its plans show,
// and which symbol tags its legends draw from.
type variant struct {
	Prefix   string
	PlanWord string
	Tags     []string
	Schedule string
}

var variants = map[string][]variant{
	"E": {
		{"E", "POWER PLAN", []string{"E", "T", "FA"}, "E"},
		{"E", "LIGHTING PLAN", []string{"E", "FA"}, "E"},
		{"EP", "POWER PLAN", []string{"E", "T"}, "E"},
		{"EL", "LIGHTING PLAN", []string{"E", "FA"}, "E"},
		{"E", "ELECTRICAL PLAN", []string{"E", "FA", "T"}, "E"},
	},
	"A": {
		{"A", "REFLECTED CEILING PLAN", []string{"A"}, "A"},
		{"AF", "FINISH PLAN", []string{"A"}, "A"},
		{"A", "LIFE SAFETY PLAN", []string{"A", "FA"}, "A"},
	},
	"M": {
		{"M", "MECHANICAL PLAN", []string{"M"}, "M"},
		{"M", "HVAC PLAN", []string{"M"}, "M"},
		{"MH", "HVAC PLAN", []string{"M"}, "M"},
	},
	"P": {
		{"P", "PLUMBING PLAN", []string{"P"}, "P"},
		{"PL", "PLUMBING PLAN", []string{"P"}, "P"},
	},
	"FP": {
		{"FP", "FIRE PROTECTION PLAN", []string{"FP", "FA"}, "FP"},
		{"FP", "SPRINKLER PLAN", []string{"FP"}, "FP"},
		{"FA", "FIRE ALARM PLAN", []string{"FA", "FP"}, "FP"},
	},
	"T": {
		{"T", "TECHNOLOGY PLAN", []string{"T", "E"}, "E"},
		{"T", "TELECOMMUNICATIONS PLAN", []string{"T"}, "E"},
	},
	"S": {
		{"S", "FOUNDATION PLAN", []string{"S"}, "S"},
		{"S", "FRAMING PLAN", []string{"S"}, "S"},
	},
}

// disciplineOrder is the order sheets cycle through; a seed shuffles it.
var disciplineOrder = []string{"E", "A", "M", "P", "FP", "T", "S"}

// numberStyles are the sheet-number forms seen on real sets.
var numberStyles = []func(prefix string, level, seq int, r *rng) string{
	func(p string, l, s int, _ *rng) string { return fmt.Sprintf("%s-%d%02d", p, l, s) },
	func(p string, l, s int, _ *rng) string { return fmt.Sprintf("%s%d%02d", p, l, s) },  // A101
	func(p string, l, s int, r *rng) string {
		return fmt.Sprintf("%s%d%02d%s", p, l, s, pick(r, []string{"A", "B"}))
	}, // E201A
	func(p string, l, s int, _ *rng) string { return fmt.Sprintf("%s%d.%d", p, l, s) },    // S3.1
	func(p string, l, s int, _ *rng) string { return fmt.Sprintf("%s-%d.%02d", p, l, s) }, // FP-2.01
	func(p string, l, s int, _ *rng) string { return fmt.Sprintf("%s%d.%02d", p, l, s) },  // P1.02
}

var floorNames = []string{"", "FIRST", "SECOND", "THIRD", "FOURTH"}

var projects = []struct{ Name, Address string }{
	{"RIVERSIDE MEDICAL OFFICE BUILDING", "1420 RIVERSIDE DRIVE, SPRINGFIELD"},
	{"NORTHGATE ELEMENTARY SCHOOL ADDITION", "88 NORTHGATE ROAD, FAIRVIEW"},
	{"HARBOR POINT COMMUNITY CENTER", "300 HARBOR POINT BLVD, BAYSIDE"},
	{"CEDAR HILLS BRANCH LIBRARY", "2115 CEDAR HILLS AVENUE, MAPLETON"},
	{"MERIDIAN TECH OFFICE RENOVATION", "740 MERIDIAN PARKWAY, SUITE 200"},
	{"LAKEVIEW FIRE STATION NO. 4", "16 LAKEVIEW COURT, EASTON"},
	{"WESTFIELD DENTAL CLINIC", "5230 WESTFIELD STREET, GRANTVILLE"},
	{"OAK VALLEY SENIOR HOUSING", "901 OAK VALLEY LANE, MILLBROOK"},
}

var firms = []struct{ Name, Line string }{
	{"HALVERSON + PIKE ENGINEERS", "MEP CONSULTING ENGINEERS"},
	{"NORTHLINE ARCHITECTS", "ARCHITECTURE  PLANNING  INTERIORS"},
	{"BRIGHTWATER DESIGN GROUP", "ARCHITECTS AND ENGINEERS"},
	{"STONEBRIDGE ENGINEERING", "STRUCTURAL  MECHANICAL  ELECTRICAL"},
	{"ALDER & KEMP ASSOCIATES", "ARCHITECTURE AND INTERIORS"},
}

var initials = []string{"JMK", "RPL", "ADS", "TLW", "KBH", "MNO", "CJR", "EFG", "SLT", "DWB"}

var roomNames = []string{
	"OFFICE", "OFFICE", "OFFICE", "CONFERENCE", "STORAGE", "BREAK ROOM", "OPEN OFFICE", "RECEPTION",
	"LOBBY", "MECHANICAL", "ELECTRICAL", "JANITOR", "TOILET", "WOMEN", "MEN", "COPY/WORK", "IT ROOM",
	"TRAINING", "EXAM", "WAITING", "LAB", "CLASSROOM", "STAFF LOUNGE", "FILE ROOM", "KITCHEN", "TELECOM",
	"WORKROOM", "LOCKERS", "NURSE", "LIBRARY",
}

var textOnlyEntries = [][2]string{
	{"AFF", "ABOVE FINISHED FLOOR"}, {"EC", "ELECTRICAL CONTRACTOR"}, {"NIC", "NOT IN CONTRACT"},
	{"ETR", "EXISTING TO REMAIN"}, {"GC", "GENERAL CONTRACTOR"}, {"TYP", "TYPICAL"},
	{"UON", "UNLESS OTHERWISE NOTED"}, {"(E)", "EXISTING"}, {"(N)", "NEW"}, {"MC", "MECHANICAL CONTRACTOR"},
	{"OFCI", "OWNER FURNISHED, CONTRACTOR INSTALLED"}, {"CLG", "CEILING"}, {"WG", "WIRE GUARD"},
	{"FBO", "FURNISHED BY OWNER"}, {"NL", "NIGHT LIGHT, UNSWITCHED"}, {"VIF", "VERIFY IN FIELD"},
}

var generalNotes = []string{
	"ALL WORK SHALL COMPLY WITH THE APPLICABLE EDITIONS OF THE BUILDING CODE AND LOCAL AMENDMENTS.",
	"CONTRACTOR SHALL VERIFY ALL EXISTING CONDITIONS AND DIMENSIONS IN THE FIELD PRIOR TO STARTING WORK.",
	"DO NOT SCALE DRAWINGS. WRITTEN DIMENSIONS TAKE PRECEDENCE.",
	"COORDINATE ALL WORK WITH OTHER TRADES PRIOR TO INSTALLATION.",
	"PROVIDE FIRESTOPPING AT ALL PENETRATIONS OF RATED ASSEMBLIES.",
	"REFER TO ARCHITECTURAL DRAWINGS FOR EXACT LOCATIONS OF DOORS, WALLS AND CEILINGS.",
	"ALL DEVICES SHALL BE MOUNTED AT HEIGHTS INDICATED UNLESS OTHERWISE NOTED.",
	"PATCH AND REPAIR ALL SURFACES DAMAGED BY THE WORK TO MATCH ADJACENT FINISHES.",
	"SUBMIT SHOP DRAWINGS FOR REVIEW PRIOR TO FABRICATION.",
	"MAINTAIN REQUIRED CLEARANCES IN FRONT OF ALL EQUIPMENT.",
	"ALL PENETRATIONS THROUGH EXTERIOR WALLS SHALL BE SEALED WEATHERTIGHT.",
	"LABEL ALL EQUIPMENT WITH ENGRAVED NAMEPLATES.",
	"CONTRACTOR SHALL OBTAIN AND PAY FOR ALL REQUIRED PERMITS AND INSPECTIONS.",
	"PROVIDE ACCESS PANELS WHERE REQUIRED FOR SERVICE OF CONCEALED EQUIPMENT.",
	"CLEAN ALL WORK AREAS DAILY AND REMOVE DEBRIS FROM THE SITE.",
}

var keyedNotes = []string{
	"PROVIDE DEDICATED CIRCUIT FOR EQUIPMENT. COORDINATE FINAL LOCATION WITH OWNER.",
	"MOUNT DEVICE ABOVE COUNTER AT 44 INCHES TO CENTER.",
	"EXTEND EXISTING SERVICE TO NEW LOCATION.",
	"PROVIDE ACCESS DOOR IN CEILING FOR SERVICE.",
	"ROUTE ABOVE CEILING TO NEAREST MAIN.",
	"CAP AND ABANDON IN PLACE.",
	"RELOCATE EXISTING DEVICE TO NEW WALL.",
	"CONNECT TO BUILDING MANAGEMENT SYSTEM.",
	"PROVIDE SEISMIC BRACING PER DETAIL.",
	"COORDINATE WITH CASEWORK SHOP DRAWINGS.",
}

// scales are printed drawing scales and their points per foot.
type scaleDef struct {
	Text string
	PPF  float64
}

var scales = []scaleDef{
	{"1/4\" = 1'-0\"", 18}, {"3/16\" = 1'-0\"", 13.5}, {"1/8\" = 1'-0\"", 9}, {"3/32\" = 1'-0\"", 6.75},
}

// suffix makes the short text drawn beside some instances: circuit
// numbers, switch legs, equipment tags.
func suffix(r *rng, tags []string) string {
	switch pick(r, tags) {
	case "E", "FA", "A":
		switch r.intn(4) {
		case 0:
			return pick(r, []string{"a", "b", "c"})
		case 1:
			return fmt.Sprintf("%s-%d", pick(r, []string{"LP1", "LP2", "H1"}), r.irange(1, 42))
		default:
			return fmt.Sprintf("%s-%d", pick(r, []string{"A", "B", "C", "L"}), r.irange(1, 42))
		}
	case "T":
		return fmt.Sprintf("D%d", r.irange(1, 24))
	case "M":
		return fmt.Sprintf("%s-%d", pick(r, []string{"CD", "RG", "EF", "VAV"}), r.irange(1, 12))
	case "P":
		return pick(r, []string{"CW", "HW", "3/4\"", "1\"", "2\""})
	case "FP":
		return pick(r, []string{"K5.6", "QR", "K8.0", "HT"})
	case "S":
		return pick(r, []string{"W10X33", "HSS6X6", "24\" DIA", "C-1"})
	}
	return fmt.Sprintf("A-%d", r.irange(1, 42))
}

// schedule makes a ruled table's title, header and rows.
func schedule(r *rng, kind string) (string, []string, [][]string) {
	n := r.irange(4, 8)
	var title string
	var head []string
	var row func(i int) []string
	switch kind {
	case "E":
		title, head = "LIGHT FIXTURE SCHEDULE", []string{"TYPE", "DESCRIPTION", "LAMPS", "VOLTS", "MOUNTING"}
		row = func(i int) []string {
			return []string{string(rune('A' + i)), pick(r, []string{"2X4 LED TROFFER", "6\" LED DOWNLIGHT", "4' LED STRIP", "LED WALL SCONCE", "LED EXIT SIGN", "2X2 LED FLAT PANEL"}),
				fmt.Sprintf("LED %dW", r.irange(2, 9)*5), pick(r, []string{"120", "277", "UNV"}), pick(r, []string{"RECESSED", "SURFACE", "PENDANT", "WALL"})}
		}
	case "M":
		title, head = "AIR DEVICE SCHEDULE", []string{"TAG", "TYPE", "SIZE", "CFM", "NECK"}
		row = func(i int) []string {
			return []string{fmt.Sprintf("%s-%d", pick(r, []string{"CD", "RG", "EG"}), i+1), pick(r, []string{"LOUVERED", "PERFORATED", "EGGCRATE", "SLOT"}),
				pick(r, []string{"24X24", "12X12", "24X12"}), fmt.Sprint(r.irange(2, 12) * 25), fmt.Sprintf("%d\" RD", r.irange(3, 7)*2)}
		}
	case "P":
		title, head = "PLUMBING FIXTURE SCHEDULE", []string{"TAG", "FIXTURE", "CW", "HW", "WASTE"}
		row = func(i int) []string {
			return []string{fmt.Sprintf("%s-%d", pick(r, []string{"WC", "LAV", "SK", "UR", "EWC"}), i+1), pick(r, []string{"WATER CLOSET", "LAVATORY", "SINK", "URINAL", "DRINKING FOUNTAIN", "MOP SINK"}),
				pick(r, []string{"1/2\"", "3/4\"", "1\""}), pick(r, []string{"1/2\"", "-"}), pick(r, []string{"2\"", "3\"", "4\""})}
		}
	case "FP":
		title, head = "SPRINKLER HEAD SCHEDULE", []string{"TYPE", "DESCRIPTION", "K-FACTOR", "TEMP", "FINISH"}
		row = func(i int) []string {
			return []string{fmt.Sprint(i + 1), pick(r, []string{"PENDENT, QUICK RESPONSE", "UPRIGHT, STANDARD", "SIDEWALL, HORIZONTAL", "CONCEALED PENDENT"}),
				pick(r, []string{"5.6", "8.0", "11.2"}), pick(r, []string{"155F", "200F"}), pick(r, []string{"WHITE", "CHROME", "BRASS"})}
		}
	case "S":
		title, head = "COLUMN SCHEDULE", []string{"MARK", "SIZE", "BASE PL", "ANCHORS", "REMARKS"}
		row = func(i int) []string {
			return []string{fmt.Sprintf("C%d", i+1), pick(r, []string{"W10X33", "W12X40", "HSS6X6X3/8", "HSS8X8X1/2"}),
				pick(r, []string{"3/4X12X12", "1X14X14", "1X16X16"}), pick(r, []string{"(4) 3/4\"", "(4) 1\""}), pick(r, []string{"-", "SEE DETAIL", "TYP"})}
		}
	default:
		title, head = "DOOR SCHEDULE", []string{"NO.", "WIDTH", "HEIGHT", "TYPE", "HARDWARE"}
		row = func(i int) []string {
			return []string{fmt.Sprint(101 + i), pick(r, []string{"3'-0\"", "3'-6\"", "6'-0\""}), pick(r, []string{"7'-0\"", "8'-0\""}),
				pick(r, []string{"A", "B", "C", "F"}), fmt.Sprintf("HW-%d", r.irange(1, 6))}
		}
	}
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = row(i)
	}
	return title, head, rows
}
