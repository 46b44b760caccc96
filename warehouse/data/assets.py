"""The equipment catalogue, parts, and the customers' cranes, forklifts, lifts and hoists."""

from __future__ import annotations

import math
import random
from datetime import date

from .outline import fields, names, parse_outline
from .world import SETUP_AT, START, World, at, days_between, money, one_decimal, weighted

# category -> (asset type, inspection interval in months)
ASSET_TYPES = {
    "Cranes": (
        ("Mobile Crane", 12),
        ("Crawler Crane", 12),
        ("Tower Crane", 6),
        ("Overhead Bridge Crane", 12),
        ("Gantry Crane", 12),
        ("Jib Crane", 12),
        ("Knuckle Boom Crane", 12),
    ),
    "Forklifts": (
        ("Electric Forklift", 12),
        ("Propane Forklift", 12),
        ("Rough Terrain Forklift", 12),
        ("Reach Truck", 12),
        ("Telehandler", 12),
    ),
    "Aerial Work Platforms": (("Scissor Lift", 12), ("Boom Lift", 12)),
    "Hoists": (("Electric Chain Hoist", 12), ("Wire Rope Hoist", 12)),
    "Rigging": (("Spreader Beam", 12), ("Below-the-Hook Lifter", 12)),
}
CATEGORY_WEIGHTS = {
    "Cranes": 45,
    "Forklifts": 35,
    "Aerial Work Platforms": 8,
    "Hoists": 9,
    "Rigging": 3,
}
UNIT_PREFIX = {
    "Cranes": "CR",
    "Forklifts": "FL",
    "Aerial Work Platforms": "AL",
    "Hoists": "HS",
    "Rigging": "RG",
}
# manufacturer; country / asset type: model number capacity-in-tons, ...
MODELS = parse_outline("""
Liebherr; Germany
  Mobile Crane: LTM 1100-5.2 100, LTM 1250-5.1 250
  Crawler Crane: LR 1300 300
  Tower Crane: 280 EC-H 12
Manitowoc; USA
  Crawler Crane: MLC300 300, 2250 300
Grove; USA
  Mobile Crane: GMK5250L 250, RT890E 90, TMS9000-2 100
Tadano; Japan
  Mobile Crane: GR-1000XL 100, ATF 220G-5 220
Terex; USA
  Mobile Crane: RT 90 90
  Tower Crane: CTT 332 16
Link-Belt; USA
  Crawler Crane: 298 Series 5 200
  Mobile Crane: RTC-8090 II 90
Konecranes; Finland
  Overhead Bridge Crane: CXT 10 10, SMARTON 32 32
  Gantry Crane: CXT Gantry 20 20
  Wire Rope Hoist: CXT Hoist 5 5
Demag; Germany
  Overhead Bridge Crane: EKKE 16 16
  Wire Rope Hoist: DMR 10 10
  Electric Chain Hoist: DC-Pro 2 2
Gorbel; USA
  Jib Crane: FS300 1, WC500 2
  Gantry Crane: AG3000 3
Palfinger; Austria
  Knuckle Boom Crane: PK 23.001 SLD 9
Fassi; Italy
  Knuckle Boom Crane: F275A 10
Toyota; Japan
  Propane Forklift: 8FGU25 2.5
  Electric Forklift: 8FBE20U 2
Hyster; USA
  Propane Forklift: H50FT 2.3
  Electric Forklift: E60XN 2.7
Yale; USA
  Electric Forklift: ERP050VT 2.3
  Reach Truck: NR045EA 2
Crown; USA
  Reach Truck: RR 5700 2
  Electric Forklift: FC 5200 2.3
Caterpillar; USA
  Propane Forklift: GP25N 2.5
  Telehandler: TH408D 3.6
Sellick; Canada
  Rough Terrain Forklift: SD-100 4.5
JLG; USA
  Telehandler: 1055 4.5
  Boom Lift: 600S 0.2
  Scissor Lift: 1930ES 0.2
Genie; USA
  Scissor Lift: GS-2669 0.3
  Boom Lift: S-65 0.2
  Telehandler: GTH-5519 2.5
Columbus McKinnon; USA
  Electric Chain Hoist: Lodestar 2
Kito; Japan
  Electric Chain Hoist: ER2 3
Caldwell; USA
  Spreader Beam: Model 20 10
  Below-the-Hook Lifter: Model 64 5
""")
PART_MAKERS = (("Bridon", "UK"), ("Parker", "USA"), ("Eaton", "USA"), ("Crosby", "USA"))
PARTS = parse_outline("""
Wire Rope
  Hoist Rope 3/4in x 500ft
  Boom Hoist Rope 5/8in
  Wire Rope Clip Set
Hydraulics
  Hydraulic Hose Assembly
  Boom Cylinder Seal Kit
  Hydraulic Pump
  Hydraulic Filter Element
Brakes
  Hoist Brake Pad Set
  Brake Coil 230V
  Brake Disc
Electrical
  Pendant Control Station
  Limit Switch
  Contactor 40A
  Festoon Cable 25ft
Hooks & Latches
  Hook Latch Kit
  Swivel Hook 5t
  Hook Block Bearing
Forklift Components
  Mast Chain
  Fork Pair 48in
  Propane Regulator
  Traction Battery 36V
  Solid Tire 18x7
Filters & Fluids
  Engine Oil Filter
  Air Filter
  Hydraulic Oil 5gal
Load Chains
  Load Chain 7.1mm
  Chain Guide
  Chain Container
""")


def generate_asset_catalog(w: World) -> None:
    rng = w.rng("asset-catalog")
    _asset_models(w, _asset_types(w))
    parts = _parts(w, rng)
    for model in w.rows["assetModel"]:
        for part_id in rng.sample(parts, rng.randint(4, 8)):
            w.add("assetModelPart", assetModelId=model["id"], partId=part_id)
    _part_stock(w, rng, parts)


def _asset_types(w: World) -> dict[str, int]:
    """Categories and their asset types; the types' ids by name."""
    types: dict[str, int] = {}
    for category, members in ASSET_TYPES.items():
        category_id = w.add("assetCategory", name=category)
        for name, months in members:
            types[name] = w.add(
                "assetType", assetCategoryId=category_id, name=name, inspectionIntervalMonths=months
            )
    return types


def _asset_models(w: World, types: dict[str, int]) -> None:
    for maker in MODELS:
        name, country = fields(maker.text)
        maker_id = w.add("manufacturer", name=name, country=country)
        for line in maker.children:
            type_name, models = line.text.split(": ")
            for entry in names(models):
                model_number, capacity = entry.rsplit(" ", 1)
                w.add(
                    "assetModel",
                    manufacturerId=maker_id,
                    assetTypeId=types[type_name],
                    modelNumber=model_number,
                    capacityTons=money(float(capacity)),
                )


def _parts(w: World, rng: random.Random) -> list[int]:
    """Part makers, categories and parts; the parts' ids."""
    part_makers = [w.add("manufacturer", name=n, country=c) for n, c in PART_MAKERS]
    for group in PARTS:
        group_id = w.add("partCategory", name=group.text)
        for item in group.children:
            cost = math.exp(rng.uniform(math.log(8), math.log(1500)))  # many cheap, few dear
            w.add(
                "part",
                partCategoryId=group_id,
                manufacturerId=rng.choice(part_makers) if rng.random() < 0.7 else None,
                partNumber=f"P-{group_id:02d}{len(w.rows['part']) + 1:04d}",
                name=item.text,
                unitCost=money(cost),
                unitPrice=money(cost * rng.uniform(1.25, 1.6)),
                isActive=rng.random() < 0.95,
            )
    return [p["id"] for p in w.rows["part"]]


def _part_stock(w: World, rng: random.Random, parts: list[int]) -> None:
    """A warehouse and a van stock per branch, each holding a sample of the parts."""
    for branch in w.rows["branch"]:
        places = [w.add("stockLocation", branchId=branch["id"], name=f"{branch['name']} Warehouse")]
        places += [
            w.add("stockLocation", branchId=branch["id"], name=f"{branch['code']} Van Stock")
        ]
        for place in places:
            for part in rng.sample(parts, rng.randint(12, 24)):
                w.add(
                    "partStock",
                    partId=part,
                    stockLocationId=place,
                    quantityOnHand=rng.randint(0, 40),
                    reorderLevel=rng.choice((2, 4, 5, 10)),
                )


def generate_assets(w: World) -> None:
    rng = w.rng("assets")
    category_of = {t["id"]: t["assetCategoryId"] for t in w.rows["assetType"]}
    category_name = {c["id"]: c["name"] for c in w.rows["assetCategory"]}
    type_name = {t["id"]: t["name"] for t in w.rows["assetType"]}
    makers = {m["id"]: m["name"] for m in w.rows["manufacturer"]}
    models_by_category: dict[str, list[dict]] = {}
    for model in w.rows["assetModel"]:
        models_by_category.setdefault(category_name[category_of[model["assetTypeId"]]], []).append(
            model
        )
    units: dict[tuple[int, str], int] = {}
    for location in w.rows["customerLocation"]:
        for _ in range(weighted(rng, ((1, 25), (2, 30), (3, 20), (4, 12), (5, 8), (7, 5)))):
            category = weighted(rng, list(CATEGORY_WEIGHTS.items()))
            model = rng.choice(models_by_category[category])
            year = rng.randint(1996, 2024)
            key = (location["customerId"], category)
            units[key] = units.get(key, 0) + 1
            status = weighted(rng, (("in_service", 86), ("out_of_service", 9), ("retired", 5)))
            commissioned = days_between(rng, date(year, 1, 1), date(year, 12, 31))
            commissioned = min(commissioned, date(2024, 10, 31))
            maker = makers[model["manufacturerId"]]
            serial = f"{maker[:3].upper()}{year % 100:02d}{len(w.rows['asset']) + 1:06d}"
            asset = w.add(
                "asset",
                customerId=location["customerId"],
                customerLocationId=location["id"],
                assetTypeId=model["assetTypeId"],
                manufacturerId=model["manufacturerId"],
                assetModelId=model["id"],
                name=f"{maker} {model['modelNumber']} {type_name[model['assetTypeId']]}",
                modelNumber=model["modelNumber"],
                serialNumber=serial,
                unitNumber=f"{UNIT_PREFIX[category]}-{units[key]:02d}"
                if rng.random() < 0.6
                else None,
                yearManufactured=year,
                capacityTons=model["capacityTons"],
                status=status,
                commissionedOn=commissioned,
                isActive=status != "retired",
                createdAt=location["createdAt"],
            )
            w.add(
                "assetStatusHistory",
                assetId=asset,
                status="in_service",
                changedAt=at(commissioned, 9),
                reason="Commissioned",
                createdAt=SETUP_AT,
            )
            if status != "in_service":
                changed = at(days_between(rng, START, date(2026, 10, 10)), 14)
                reason = "Failed inspection" if status == "out_of_service" else "Sold or scrapped"
                w.add(
                    "assetStatusHistory",
                    assetId=asset,
                    status=status,
                    changedAt=changed,
                    reason=reason,
                    createdAt=changed,
                )
            if rng.random() < 0.3:
                w.add(
                    "assetAttachment",
                    assetId=asset,
                    fileName=f"asset-{asset}-nameplate.jpg",
                    contentType="image/jpeg",
                    uploadedAt=location["createdAt"],
                )
    technicians = [e["id"] for e in w.rows["employee"] if e["isTechnician"]]
    for asset_row in w.rows["asset"]:
        if category_name[category_of[asset_row["assetTypeId"]]] not in ("Cranes", "Forklifts"):
            continue
        hours = rng.uniform(500, 15000)
        for quarter in range(rng.randint(0, 6)):
            hours += rng.uniform(100, 600)
            reading_day = date(2024 + (quarter + 4) // 4, ((quarter + 4) % 4) * 3 + 1, 15)
            w.add(
                "assetMeterReading",
                assetId=asset_row["id"],
                recordedById=rng.choice(technicians),
                readingDate=reading_day,
                hours=one_decimal(hours),
                createdAt=at(reading_day, 15),
            )
