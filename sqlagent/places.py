"""Places said another way than the data stores them: states in full, countries by other
names or by their people's adjective."""

# A state named in full matches the two-letter code columns hold ("Arizona" -> AZ).
US_STATES = {
    "alabama": "al", "alaska": "ak", "arizona": "az", "arkansas": "ar", "california": "ca",
    "colorado": "co", "connecticut": "ct", "delaware": "de", "florida": "fl", "georgia": "ga",
    "hawaii": "hi", "idaho": "id", "illinois": "il", "indiana": "in", "iowa": "ia",
    "kansas": "ks", "kentucky": "ky", "louisiana": "la", "maine": "me", "maryland": "md",
    "massachusetts": "ma", "michigan": "mi", "minnesota": "mn", "mississippi": "ms",
    "missouri": "mo", "montana": "mt", "nebraska": "ne", "nevada": "nv", "ohio": "oh",
    "oklahoma": "ok", "oregon": "or", "pennsylvania": "pa", "tennessee": "tn", "texas": "tx",
    "utah": "ut", "vermont": "vt", "virginia": "va", "washington": "wa", "wisconsin": "wi",
    "wyoming": "wy",
    "new york": "ny", "new jersey": "nj", "new mexico": "nm", "new hampshire": "nh",
    "north carolina": "nc", "south carolina": "sc", "north dakota": "nd", "south dakota": "sd",
    "west virginia": "wv", "rhode island": "ri",
}  # fmt: skip

# Countries said by another of their usual names than the one stored ("the US": 'USA').
COUNTRY_NAMES = (
    ("us", "usa", "united states", "united states of america"),
    ("uk", "united kingdom", "great britain", "britain"),
    ("uae", "united arab emirates"),
)

# A country said by its people's adjective ("Italian airports", "British artists") where the
# data stores the country's name; the adjective itself, when stored, is linked first.
DEMONYMS = {
    "american": ("usa", "united states", "us"), "british": ("uk", "united kingdom"),
    "english": ("england",), "scottish": ("scotland",), "welsh": ("wales",),
    "irish": ("ireland",), "french": ("france",), "german": ("germany",),
    "italian": ("italy",), "spanish": ("spain",), "portuguese": ("portugal",),
    "dutch": ("netherlands", "the netherlands", "holland"), "belgian": ("belgium",),
    "swiss": ("switzerland",), "austrian": ("austria",), "swedish": ("sweden",),
    "norwegian": ("norway",), "danish": ("denmark",), "finnish": ("finland",),
    "icelandic": ("iceland",), "polish": ("poland",), "czech": ("czech republic", "czechia"),
    "hungarian": ("hungary",), "romanian": ("romania",), "greek": ("greece",),
    "turkish": ("turkey",), "russian": ("russia",), "ukrainian": ("ukraine",),
    "croatian": ("croatia",), "serbian": ("serbia",), "canadian": ("canada",),
    "mexican": ("mexico",), "cuban": ("cuba",), "jamaican": ("jamaica",),
    "brazilian": ("brazil",), "argentine": ("argentina",), "argentinian": ("argentina",),
    "chilean": ("chile",), "colombian": ("colombia",), "peruvian": ("peru",),
    "venezuelan": ("venezuela",), "uruguayan": ("uruguay",), "australian": ("australia",),
    "chinese": ("china",), "japanese": ("japan",), "korean": ("korea", "south korea"),
    "indian": ("india",), "pakistani": ("pakistan",), "thai": ("thailand",),
    "vietnamese": ("vietnam",), "indonesian": ("indonesia",), "malaysian": ("malaysia",),
    "filipino": ("philippines",), "singaporean": ("singapore",), "israeli": ("israel",),
    "iranian": ("iran",), "egyptian": ("egypt",), "nigerian": ("nigeria",),
    "kenyan": ("kenya",), "saudi": ("saudi arabia",),
}  # fmt: skip
