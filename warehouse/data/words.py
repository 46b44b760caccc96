"""Small hand-made vocabularies the generator draws from (no external data needed)."""


def words(text: str) -> tuple[str, ...]:
    """Split a word list written as one string; commas separate when items have spaces."""
    return tuple(item.strip() for item in text.split("," if "," in text else None))


FIRST_NAMES = words(
    "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara "
    "Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy "
    "Matthew Betty Anthony Sandra Mark Margaret Donald Ashley Steven Kimberly Andrew Emily "
    "Paul Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa George Deborah "
    "Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Amy "
    "Jacob Kathleen Gary Angela Nicholas Shirley Eric Brenda Jonathan Emma Stephen Anna "
    "Larry Pamela Justin Nicole Scott Samantha Brandon Katherine Benjamin Christine Samuel "
    "Debra Gregory Rachel Alexander Carolyn Patrick Janet Frank Maria Raymond Olivia Jack "
    "Heather Dennis Helen Jerry Catherine Tyler Diane Aaron Julie Jose Victoria Adam Joyce "
    "Nathan Lauren Henry Kelly Zachary Christina Douglas Ruth Peter Joan Kyle Virginia Noah "
    "Judith Ethan Evelyn Jeremy Hannah Walter Andrea Christian Megan Keith Cheryl Roger "
    "Jacqueline Terry Madison Austin Teresa Sean Abigail Gerald Sophia Carl Martha Harold "
    "Sara Dylan Gloria Arthur Janice Lawrence Kathryn Jordan Ann Jesse Isabella Bryan Judy "
    "Billy Charlotte Bruce Julia Gabriel Grace Joe Amber Logan Alice Alan Denise Juan "
    "Danielle Wayne Marilyn Elijah Beverly Randy Natalie Roy Brittany Vincent Diana Ralph "
    "Theresa Eugene Kayla Russell Alexis Bobby Lori Mason Tiffany Philip Jane Louis"
)

LAST_NAMES = words(
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
    "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
    "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
    "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
    "Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes "
    "Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson "
    "Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James "
    "Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross "
    "Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson "
    "Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton "
    "Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis "
    "Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez "
    "McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman "
    "Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon"
)

COMPANY_PREFIXES = words(
    "Gulf Coast, Lone Star, Summit, Ironclad, Red River, Blue Ridge, Pioneer, Keystone, "
    "Granite, Frontier, Eagle, Atlas, Cornerstone, Sunbelt, Mesa, Rocky Mountain, Great, "
    "Plains, Liberty, Patriot, Cardinal, Titan, Vanguard, Northstar, Harbor, Canyon, "
    "Prairie, Magnolia, Peachtree, Lakeshore, Midway, Sterling, Crescent, Falcon, Heritage, "
    "Horizon, Apex, Benchmark, Cobalt, Copperline, Delta, Evergreen, Foundry Row, Gateway, "
    "Highline, Iron Horse, Juniper, Kingsway, Lighthouse, Meridian, Oakridge, Pinnacle, "
    "Quarry Hill, Riverside, Silverline, Trinity, Union, Westgate, Yellowstone"
)

COMPANY_CORES = words(
    "Steel, Logistics, Construction, Fabrication, Energy, Materials, Port Services, "
    "Distribution, Manufacturing, Builders, Precast, Concrete, Aggregates, Shipyard, Paper, "
    "Mill, Foods, Chemical, Metals, Lumber, Power, Water Authority, Aerospace, Warehousing, "
    "Rail Services"
)

COMPANY_SUFFIXES = ("Inc.", "LLC", "Co.", "Group", "Corp.", "Partners", "Holdings", "Ltd.")

STREETS = words(
    "Main Oak Industrial Commerce Harbor Railroad Mill Factory Depot Airport Refinery "
    "Market Cedar Pine Elm Maple Washington Lincoln Jefferson Madison Jackson Franklin "
    "Highland Lakeview Riverside Park Center Front Bridge Canal Quarry Foundry Dock Levee"
)
STREET_TYPES = ("St", "Ave", "Blvd", "Rd", "Dr", "Pkwy", "Way", "Ln")

# Cities served by each branch code, with their state.
BRANCH_CITIES = {
    "HOU": (
        "TX",
        words("Houston, Pasadena, Baytown, Sugar Land, Conroe, Beaumont, Galveston, Katy"),
    ),
    "DAL": ("TX", words("Dallas, Fort Worth, Arlington, Irving, Plano, Garland, Denton, Waco")),
    "PHX": ("AZ", words("Phoenix, Mesa, Tempe, Chandler, Glendale, Scottsdale, Tucson, Gilbert")),
    "DEN": ("CO", words("Denver, Aurora, Lakewood, Boulder, Greeley, Pueblo, Longmont, Golden")),
    "ATL": ("GA", words("Atlanta, Marietta, Savannah, Macon, Augusta, Columbus, Athens, Roswell")),
    "CHI": ("IL", words("Chicago, Joliet, Naperville, Aurora, Elgin, Waukegan, Cicero, Rockford")),
    "TUL": (
        "OK",
        words("Tulsa, Broken Arrow, Sapulpa, Owasso, Bixby, Jenks, Sand Springs, Claremore"),
    ),
}

LOCATION_KINDS = (
    "Plant",
    "Yard",
    "Warehouse",
    "Distribution Center",
    "Terminal",
    "Fabrication Shop",
    "Job Site",
    "Headquarters",
    "Maintenance Shop",
    "Rail Yard",
)

CONTACT_TITLES = (
    "Plant Manager",
    "Maintenance Manager",
    "Safety Manager",
    "Operations Manager",
    "Purchasing Agent",
    "Site Superintendent",
    "Facilities Manager",
    "Project Manager",
    "Accounts Payable",
    "Fleet Manager",
)

NOTE_PHRASES = (
    "Customer asked to schedule before the morning shift.",
    "Gate code changed, call site contact on arrival.",
    "Parking for the service truck is behind building B.",
    "Customer requested a copy of the inspection report by e-mail.",
    "Follow up on the quote for replacement hoist rope.",
    "Site requires hard hat, safety glasses and steel-toe boots.",
    "Operator reported intermittent fault on the pendant control.",
    "Customer is evaluating a service agreement for next year.",
    "Access to the crane runway requires a lift permit.",
    "Work area must be barricaded during load testing.",
    "Customer prefers invoices with the PO number on every line.",
    "Recommend replacing worn brake pads at next visit.",
)

WORK_TIME_NOTES = (
    "Travel to site",
    "Waiting for crane to be released by operations",
    "Completed load test",
    "Replaced hydraulic hose",
    "Weather delay",
    "Shop cleanup and truck restock",
    "Paperwork and report writing",
    "Rigging and setup",
)

FEEDBACK_COMMENTS = (
    "Great job, very professional crew.",
    "Technician explained every finding clearly.",
    "Arrived late but did thorough work.",
    "Quick turnaround on the repair, thank you.",
    "Report took too long to arrive.",
    "Crew left the work area clean.",
    "Had to reschedule twice, not happy.",
    "Excellent communication from dispatch.",
)

INCIDENT_DESCRIPTIONS = (
    "Dropped a shackle from the crane deck; nobody was below.",
    "Minor hand laceration while handling wire rope.",
    "Service truck backed into a bollard at the customer yard.",
    "Slip on an oily platform during forklift inspection.",
    "Load swung near a parked vehicle during a test lift.",
    "Pinch point injury while replacing a hoist hook.",
    "Near miss with overhead power line while positioning a boom.",
    "Strained back lifting test weights.",
)
