"""Customers with their locations, contacts, settings, contracts and plans."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

from . import words
from .world import (
    AS_OF,
    START,
    World,
    add_months,
    at,
    days_between,
    money,
    phone,
    sample_upto,
    weighted,
)

CUSTOMERS = 320
CUSTOMER_TYPES = (("Industrial", 50), ("Commercial", 30), ("Municipal", 10), ("Utility", 10))
INDUSTRIES = words.words(
    "Construction, Manufacturing, Oil & Gas, Ports & Shipping, Warehousing & Logistics, "
    "Utilities, Mining, Steel Fabrication, Aerospace, Food Processing"
)
PAYMENT_TERMS = (
    ("Due on Receipt", 0),
    ("Net 15", 15),
    ("Net 30", 30),
    ("Net 45", 45),
    ("Net 60", 60),
)
TAGS = (
    ("Key Account", "#1f77b4"),
    ("Union Site", "#ff7f0e"),
    ("Safety Orientation Required", "#d62728"),
    ("Night Work", "#9467bd"),
    ("Credit Hold", "#8c564b"),
    ("Government", "#2ca02c"),
    ("Rush", "#e377c2"),
    ("Warranty", "#7f7f7f"),
)
LOCATIONS_PER_CUSTOMER = ((1, 30), (2, 25), (3, 18), (4, 12), (5, 8), (6, 4), (8, 3))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower().split(" inc")[0])[:24]


def generate_customers(w: World) -> None:
    rng = w.rng("customers")
    naming = w.rng("location-names")  # its own stream: names never shift other data
    types = [(w.add("customerType", name=n), share) for n, share in CUSTOMER_TYPES]
    industries = [w.add("industry", name=n) for n in INDUSTRIES]
    terms = [(w.add("paymentTerm", name=n, days=d), d) for n, d in PAYMENT_TERMS]
    branches = [b for b in w.rows["branch"] if b["isActive"]]
    areas = {
        b["id"]: [
            w.add("serviceArea", branchId=b["id"], name=f"{b['name']} {part}")
            for part in ("Metro", "North", "South")
        ]
        for b in branches
    }
    sales = [e for e in w.rows["employee"] if e["employeeRoleId"] == _role(w, "SALES")]
    tags = [w.add("tag", name=n, color=c) for n, c in TAGS]
    work_time = {r["code"]: r["id"] for r in w.rows["workTimeType"]}
    names: set[str] = set()
    for number in range(1, CUSTOMERS + 1):
        name = ""
        while not name or name in names:
            name = (
                f"{rng.choice(words.COMPANY_PREFIXES)} {rng.choice(words.COMPANY_CORES)} "
                f"{rng.choice(words.COMPANY_SUFFIXES)}"
            )
        names.add(name)
        branch = weighted(rng, [(b, 3 if b["code"] in ("HOU", "DAL") else 2) for b in branches])
        state, city_names = words.BRANCH_CITIES[branch["code"]]
        since = days_between(rng, date(2008, 1, 1), date(2026, 9, 30))
        active = rng.random() < 0.92
        created = at(max(since, date(2024, 10, 1)), 10)
        manager = rng.choice([e for e in sales if e["branchId"] == branch["id"]] or sales)
        slug = _slug(name)
        customer = w.add(
            "customer",
            customerNumber=f"C{number:05d}",
            name=name,
            customerTypeId=weighted(rng, types),
            industryId=rng.choice(industries),
            paymentTermId=weighted(rng, [(t, 40 if d == 30 else 15) for t, d in terms]),
            accountManagerId=manager["id"],
            email=f"ap@{slug}.example",
            phone=phone(rng),
            billingAddress=_street(rng),
            billingCity=city_names[0] if rng.random() < 0.5 else rng.choice(city_names),
            billingState=state,
            customerSince=since,
            isTaxExempt=rng.random() < 0.08,
            isActive=active,
            createdAt=created,
        )
        locations: list[int] = []
        for index in range(weighted(rng, LOCATIONS_PER_CUSTOMER)):
            city, name = _location_name(naming, city_names, locations, w)
            locations.append(
                w.add(
                    "customerLocation",
                    customerId=customer,
                    serviceAreaId=rng.choice(areas[branch["id"]]),
                    name=name,
                    address=_street(rng),
                    city=city,
                    state=state,
                    postalCode=f"{rng.randint(10000, 99999)}",
                    accessInstructions=rng.choice(words.NOTE_PHRASES)
                    if rng.random() < 0.4
                    else None,
                    isPrimary=index == 0,
                    isActive=active and rng.random() < 0.95,
                    createdAt=created,
                )
            )
        for index in range(rng.randint(2, 5)):
            first, last = rng.choice(words.FIRST_NAMES), rng.choice(words.LAST_NAMES)
            w.add(
                "customerContact",
                customerId=customer,
                customerLocationId=rng.choice(locations) if rng.random() < 0.6 else None,
                firstName=first,
                lastName=last,
                email=f"{first}.{last}@{slug}.example".lower(),
                phone=phone(rng),
                title=rng.choice(words.CONTACT_TITLES),
                isPrimary=index == 0,
                isActive=active and rng.random() < 0.9,
                createdAt=created,
            )
        w.add(
            "customerBillingConfiguration",
            customerId=customer,
            invoiceFrequency=weighted(rng, [("per_work_order", 70), ("monthly", 30)]),
            requiresPoNumber=rng.random() < 0.35,
            emailInvoices=rng.random() < 0.85,
            discountPercent=money(rng.choice((0, 0, 0, 2.5, 5, 10))),
            createdAt=created,
        )
        if rng.random() < 0.4:
            base = rng.uniform(95, 140)
            for code, factor in (("REG", 1.0), ("OT", 1.5), ("TRV", 0.8)):
                w.add(
                    "customerRate",
                    customerId=customer,
                    workTimeTypeId=work_time[code],
                    hourlyRate=money(base * factor),
                    createdAt=created,
                )
        for tag in sample_upto(rng, tags, 0, 2):
            w.add("customerTag", customerId=customer, tagId=tag)
    for location in w.rows["customerLocation"]:
        for dow in range(1, 7 if rng.random() < 0.3 else 6):
            w.add(
                "customerLocationHours",
                customerLocationId=location["id"],
                dayOfWeek=dow,
                opensAt=rng.choice(("06:00", "07:00", "08:00")),
                closesAt=rng.choice(("15:30", "17:00", "18:00")),
            )
        if rng.random() < 0.3:
            w.add(
                "customerLocationAttachment",
                customerLocationId=location["id"],
                fileName=f"site-map-{location['id']}.pdf",
                contentType="application/pdf",
                sizeBytes=rng.randint(80_000, 4_000_000),
                uploadedAt=location["createdAt"],
            )


def generate_customer_agreements(w: World) -> None:
    """Contracts, maintenance plans and account notes (need templates and users)."""
    rng = w.rng("customer-agreements")
    templates = [t for t in w.rows["serviceTemplate"] if t["isActive"]]
    staff_users = [u for u in w.rows["user"] if u["employeeId"] is not None]
    for customer in w.rows["customer"]:
        if rng.random() < 0.45:
            start = days_between(rng, date(2024, 1, 1), date(2026, 6, 30))
            end = add_months(start, 12) - timedelta(days=1)
            status = "expired" if end < AS_OF else "active"
            if rng.random() < 0.05:
                status = "cancelled"
            contract = w.add(
                "customerContract",
                customerId=customer["id"],
                contractNumber=f"SA-{len(w.rows['customerContract']) + 1:05d}",
                startDate=start,
                endDate=end,
                annualValue=money(rng.uniform(8_000, 180_000)),
                status=status,
                autoRenew=rng.random() < 0.6,
                createdAt=at(max(start - timedelta(days=20), date(2024, 10, 1)), 14),
            )
            for template in sample_upto(rng, templates, 1, 3):
                w.add(
                    "contractServiceTemplate",
                    customerContractId=contract,
                    serviceTemplateId=template["id"],
                    visitsPerYear=rng.choice((1, 2, 4, 12)),
                )
        for _ in range(rng.randint(0, 3)):
            w.add(
                "customerNote",
                customerId=customer["id"],
                authorUserId=rng.choice(staff_users)["id"],
                body=rng.choice(words.NOTE_PHRASES),
                createdAt=at(days_between(rng, START, AS_OF), rng.randint(8, 17)),
            )
    for location in w.rows["customerLocation"]:
        if rng.random() < 0.25:
            months = rng.choice((1, 3, 6, 12))
            w.add(
                "maintenancePlan",
                customerLocationId=location["id"],
                serviceTemplateId=rng.choice(templates)["id"],
                frequencyMonths=months,
                nextDueOn=add_months(days_between(rng, AS_OF, date(2027, 3, 31)), 0),
                isActive=location["isActive"],
            )


def _location_name(
    rng: random.Random, cities: tuple[str, ...], siblings: list[int], w: World
) -> tuple[str, str]:
    """A city and a site name no other location of the same customer has."""
    taken = {w.row("customerLocation", sibling)["name"] for sibling in siblings}
    while True:
        city = rng.choice(cities)
        name = f"{city} {rng.choice(words.LOCATION_KINDS)}"
        if name not in taken:
            return city, name


def _street(rng: random.Random) -> str:
    return f"{rng.randint(100, 19999)} {rng.choice(words.STREETS)} {rng.choice(words.STREET_TYPES)}"


def _role(w: World, code: str) -> int:
    return next(r["id"] for r in w.rows["employeeRole"] if r["code"] == code)
