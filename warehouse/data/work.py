"""Work orders over the two years, with their assets, history, notes, parts and expenses."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

from . import words
from .world import (
    AS_OF,
    END,
    START,
    Row,
    World,
    at,
    group_by,
    money,
    one_decimal,
    weighted,
)

WORK_ORDERS = 7200
PRIORITIES = (("low", 20), ("normal", 60), ("high", 20))
# type -> (share, estimated hours range, assets per order range)
TYPE_PROFILE = {
    "Inspection": (38, (2, 8), (1, 4)),
    "Preventive Maintenance": (18, (2, 8), (1, 2)),
    "Repair": (20, (2, 10), (1, 1)),
    "Load Test": (7, (4, 10), (1, 1)),
    "Installation": (3, (16, 40), (0, 1)),
    "Emergency Call": (6, (2, 6), (1, 1)),
    "Certification": (4, (4, 8), (1, 2)),
    "Warranty": (2, (2, 6), (1, 1)),
    "Training": (2, (4, 8), (0, 0)),
}


def branch_of_location(w: World) -> dict[int, int]:
    area_branch = {a["id"]: a["branchId"] for a in w.rows["serviceArea"]}
    return {loc["id"]: area_branch[loc["serviceAreaId"]] for loc in w.rows["customerLocation"]}


def work_days(order: Row) -> list[date]:
    """The days a started work order had crews on site (up to AS_OF for open ones)."""
    if order["startedAt"] is None:
        return []
    last = (order["completedAt"] or order["scheduledEnd"]).date()
    first = order["startedAt"].date()
    last = min(last, AS_OF)
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def generate_work_orders(w: World) -> None:
    rng = w.rng("work-orders")
    types = {t["name"]: t["id"] for t in w.rows["workOrderType"]}
    locations = [loc for loc in w.rows["customerLocation"] if loc["isActive"]]
    customer_weight = {
        c["id"]: min(rng.paretovariate(1.3), 25) * (1 if c["isActive"] else 0.3)
        for c in w.rows["customer"]
    }
    location_weights = [customer_weight[loc["customerId"]] for loc in locations]
    assets_at = group_by((a for a in w.rows["asset"] if a["isActive"]), "customerLocationId")
    contacts_of = group_by(w.rows["customerContact"], "customerId")
    branch_of = branch_of_location(w)
    supervisors = _by_branch(w, "SUP")
    dispatchers = _dispatcher_users(w)
    days = sorted(_work_day(rng) for _ in range(WORK_ORDERS))
    profiles = [(name, share) for name, (share, _, _) in TYPE_PROFILE.items()]
    for number, day in enumerate(days, start=1):
        location = rng.choices(locations, weights=location_weights)[0]
        type_name = weighted(rng, profiles)
        _, _, (fewest, most) = TYPE_PROFILE[type_name]
        on_site = assets_at.get(location["id"], [])
        assets = rng.sample(on_site, min(len(on_site), rng.randint(fewest, most)))
        if not assets and fewest > 0:
            type_name = "Training"  # nothing on site to work on: train the operators instead
        emergency = type_name == "Emergency Call"
        start, end, hours = _schedule(rng, day, type_name, len(assets))
        status = _status(rng, day)
        started, completed = _progress(rng, status, start, end)
        lead_time = (
            timedelta(hours=rng.randint(1, 5)) if emergency else timedelta(days=rng.randint(2, 35))
        )
        created = min(start - lead_time, at(AS_OF, 8))  # nothing is entered after "today"
        branch = branch_of[location["id"]]
        contact = rng.choice(contacts_of[location["customerId"]]) if rng.random() < 0.7 else None
        order = w.add(
            "workOrder",
            customerId=location["customerId"],
            customerLocationId=location["id"],
            workOrderTypeId=types[type_name],
            supervisorId=rng.choice(supervisors[branch]) if rng.random() < 0.8 else None,
            createdByUserId=rng.choice(dispatchers.get(branch) or dispatchers[0]),
            workOrderNumber=f"WO-{number:06d}",
            title=_title(type_name, assets, location),
            description=rng.choice(words.NOTE_PHRASES),
            status=status,
            priority="urgent" if emergency else weighted(rng, PRIORITIES),
            isEmergency=emergency,
            scheduledStart=start,
            scheduledEnd=end,
            startedAt=started,
            completedAt=completed,
            estimatedHours=one_decimal(hours),
            poNumber=f"PO-{rng.randint(10000, 99999)}" if rng.random() < 0.45 else None,
            siteContactName=f"{contact['firstName']} {contact['lastName']}" if contact else None,
            siteContactPhone=contact["phone"] if contact else None,
            createdAt=created,
            updatedAt=completed or started or created,
        )
        for asset in assets:
            w.add("workOrderAsset", workOrderId=order, assetId=asset["id"])
    _order_side_data(w)


def _schedule(
    rng: random.Random, day: date, kind: str, assets: int
) -> tuple[datetime, datetime, float]:
    """Start, end and estimated hours; a third of emergencies come in the afternoon."""
    _, (low, high), _ = TYPE_PROFILE[kind]
    hours = rng.uniform(low, high) * (1 + 0.3 * max(assets - 1, 0))
    afternoon = kind == "Emergency Call" and rng.random() < 0.4
    start = at(day, rng.randint(13, 20) if afternoon else rng.randint(6, 10))
    if hours <= 10:
        return start, start + timedelta(hours=hours), hours
    return start, at(day + timedelta(days=int(hours // 9)), 16), hours  # a multi-day job


def _progress(
    rng: random.Random, status: str, start: datetime, end: datetime
) -> tuple[datetime | None, datetime | None]:
    """When the crew actually started and finished, as far as the status says."""
    started = None
    if status not in ("scheduled", "cancelled"):
        started = start + timedelta(minutes=rng.randint(-20, 90))
    completed = end + timedelta(minutes=rng.randint(-60, 180)) if status == "completed" else None
    return started, completed


def _status(rng: random.Random, day: date) -> str:
    if day > AS_OF:
        return "scheduled"
    if day >= AS_OF - timedelta(days=2):
        return weighted(rng, (("in_progress", 70), ("scheduled", 30)))
    if rng.random() < 0.05:
        return "cancelled"
    if day >= AS_OF - timedelta(days=60) and rng.random() < 0.06:
        return "on_hold"
    return "completed"


def _work_day(rng: random.Random) -> date:
    while True:
        day = START + timedelta(days=rng.randint(0, (END - START).days))
        if day.weekday() < 5 or rng.random() < 0.12:
            return day


def _title(type_name: str, assets: list[Row], location: Row) -> str:
    if len(assets) == 1:
        return f"{type_name} - {assets[0]['name']}"
    if assets:
        return f"{type_name} of {len(assets)} assets at {location['name']}"
    return f"{type_name} at {location['name']}"


def _by_branch(w: World, role_code: str) -> dict[int, list[int]]:
    role = next(r["id"] for r in w.rows["employeeRole"] if r["code"] == role_code)
    people: dict[int, list[int]] = {}
    for e in w.rows["employee"]:
        if e["employeeRoleId"] == role and e["isActive"]:
            people.setdefault(e["branchId"], []).append(e["id"])
    return people


def _dispatcher_users(w: World) -> dict[int, list[int]]:
    by_employee = {u["employeeId"]: u["id"] for u in w.rows["user"] if u["employeeId"]}
    result: dict[int, list[int]] = {0: []}
    for branch, people in _by_branch(w, "DISP").items():
        result[branch] = [by_employee[e] for e in people if e in by_employee]
        result[0] += result[branch]
    return result


def _order_side_data(w: World) -> None:
    rng = w.rng("work-order-side")
    staff_users = [u["id"] for u in w.rows["user"] if u["employeeId"]]
    tags = [t["id"] for t in w.rows["tag"]]
    fields = {f["name"]: f["id"] for f in w.rows["workOrderCustomField"]}
    parts_for_model = group_by(w.rows["assetModelPart"], "assetModelId")
    part_price = {p["id"]: p["unitPrice"] for p in w.rows["part"]}
    assets_of = group_by(w.rows["workOrderAsset"], "workOrderId")
    type_name = {t["id"]: t["name"] for t in w.rows["workOrderType"]}
    expense_types = [e["id"] for e in w.rows["expenseType"]]
    technicians = [e["id"] for e in w.rows["employee"] if e["isTechnician"]]
    for order in w.rows["workOrder"]:
        oid, status = order["id"], order["status"]
        _history(w, rng, order, staff_users)
        for _ in range(weighted(rng, ((0, 35), (1, 45), (2, 20)))):
            w.add(
                "workOrderNote",
                workOrderId=oid,
                authorUserId=rng.choice(staff_users),
                body=rng.choice(words.NOTE_PHRASES),
                isInternal=rng.random() < 0.5,
                createdAt=order["createdAt"] + timedelta(hours=rng.randint(1, 48)),
            )
        if rng.random() < 0.2:
            w.add("workOrderTag", workOrderId=oid, tagId=rng.choice(tags))
        if rng.random() < 0.3:
            name = rng.choice(list(fields))
            value = (
                "yes"
                if name == "Requires Escort"
                else f"{name[:3].upper()}-{rng.randint(1000, 9999)}"
            )
            w.add(
                "workOrderCustomFieldValue",
                workOrderId=oid,
                workOrderCustomFieldId=fields[name],
                value=value,
                createdAt=order["createdAt"],
            )
        if status != "completed":
            continue
        done: datetime = order["completedAt"]
        _photos_and_sign_off(w, rng, order)
        kind = type_name[order["workOrderTypeId"]]
        if kind in ("Repair", "Preventive Maintenance", "Emergency Call", "Warranty"):
            for link in assets_of.get(oid, []):
                model = w.row("asset", link["assetId"])["assetModelId"]
                for part in rng.sample(parts_for_model[model], rng.randint(1, 3)):
                    w.add(
                        "workOrderPart",
                        workOrderId=oid,
                        partId=part["partId"],
                        quantity=rng.randint(1, 4),
                        unitPrice=part_price[part["partId"]],
                        createdAt=done,
                    )
        if rng.random() < 0.25:
            for _ in range(rng.randint(1, 2)):
                amount = rng.uniform(12, 420)
                w.add(
                    "workOrderExpense",
                    workOrderId=oid,
                    employeeId=rng.choice(technicians),
                    expenseTypeId=rng.choice(expense_types),
                    incurredOn=done.date(),
                    amount=money(amount),
                    description=f"{order['workOrderNumber']} expense",
                    isReimbursable=rng.random() < 0.7,
                    createdAt=done,
                )


def _photos_and_sign_off(w: World, rng: random.Random, order: Row) -> None:
    """What a completed work order may carry: photos, and the customer's signature."""
    oid, done = order["id"], order["completedAt"]
    for n in range(rng.randint(0, 2) if rng.random() < 0.4 else 0):
        w.add(
            "workOrderAttachment",
            workOrderId=oid,
            fileName=f"{order['workOrderNumber'].lower()}-photo-{n + 1}.jpg",
            contentType="image/jpeg",
            sizeBytes=rng.randint(200_000, 6_000_000),
            uploadedAt=done,
            createdAt=done,
        )
    if rng.random() < 0.7:
        signer = (
            order["siteContactName"]
            or f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}"
        )
        w.add(
            "workOrderSignature",
            workOrderId=oid,
            signerName=signer,
            signerTitle=rng.choice(words.CONTACT_TITLES),
            signedAt=done,
            createdAt=done,
        )


def _history(w: World, rng: random.Random, order: Row, users: list[int]) -> None:
    steps: list[tuple[str | None, str, Any]] = [(None, "scheduled", order["createdAt"])]
    if order["startedAt"]:
        steps.append(("scheduled", "in_progress", order["startedAt"]))
    if order["status"] == "completed":
        steps.append(("in_progress", "completed", order["completedAt"]))
    elif order["status"] == "on_hold":
        steps.append(("in_progress", "on_hold", order["startedAt"] + timedelta(hours=3)))
    elif order["status"] == "cancelled":
        halfway = order["createdAt"] + (order["scheduledStart"] - order["createdAt"]) / 2
        steps.append(("scheduled", "cancelled", halfway))
    for before, after, when in steps:
        w.add(
            "workOrderStatusHistory",
            workOrderId=order["id"],
            changedByUserId=rng.choice(users),
            fromStatus=before,
            toStatus=after,
            changedAt=when,
        )
