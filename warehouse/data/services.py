"""Services planned and performed on work orders, with their tasks, signatures and photos."""

from __future__ import annotations

import random
from datetime import timedelta

from . import words
from .world import Row, World, group_by, money

OVERHEAD_TYPES = {"Overhead Bridge Crane", "Gantry Crane", "Jib Crane"}
REPAIRS = {
    "Cranes": ("REP-ROPE", "REP-BRAKE", "REP-HYD", "REP-ELEC", "INST-RWY"),
    "Forklifts": ("REP-MAST", "REP-HYD", "REP-BRAKE"),
}


def template_codes(
    rng: random.Random, kind: str, category: str | None, asset_type: str | None
) -> list[str]:
    """Service templates a work order of this kind performs on one asset (or none)."""
    if kind == "Inspection":
        if category == "Cranes":
            return ["INSP-OH" if asset_type in OVERHEAD_TYPES else "INSP-CRANE"]
        return [
            {"Forklifts": "INSP-FL", "Aerial Work Platforms": "INSP-AWP"}.get(
                category or "", "INSP-HST"
            )
        ]
    if kind == "Preventive Maintenance":
        return ["PM-FL" if category in ("Forklifts", "Aerial Work Platforms") else "PM-CRANE"]
    if kind in ("Repair", "Warranty"):
        return [rng.choice(REPAIRS.get(category or "", ("REP-ELEC", "REP-BRAKE")))]
    if kind == "Load Test":
        return ["LT-CRANE" if category == "Cranes" else "LT-HOIST"]
    if kind == "Certification":
        return ["INSP-CRANE", "LT-CRANE"] if category == "Cranes" else ["LT-HOIST"]
    if kind == "Emergency Call":
        return ["EMERG", rng.choice(REPAIRS.get(category or "", ("REP-ELEC",)))]
    if kind == "Installation":
        return [rng.choice(("INST-JIB", "INST-RWY"))]
    return ["TRN-OPR"]


def generate_services(w: World) -> None:
    rng = w.rng("services")
    templates = {t["code"]: t for t in w.rows["serviceTemplate"]}
    tasks_of = group_by(w.rows["serviceTemplateTask"], "serviceTemplateId")
    config = {c["serviceTemplateId"]: c for c in w.rows["serviceConfiguration"]}
    type_name = {t["id"]: t["name"] for t in w.rows["workOrderType"]}
    category_of_type = {
        t["id"]: (c["name"], t["name"])
        for t in w.rows["assetType"]
        for c in w.rows["assetCategory"]
        if c["id"] == t["assetCategoryId"]
    }
    assets_of = group_by(w.rows["workOrderAsset"], "workOrderId")
    crew_of = {c["workOrderId"]: c["id"] for c in w.rows["crew"]}
    members_of = group_by(w.rows["employeeCrew"], "crewId")
    technicians = [e["id"] for e in w.rows["employee"] if e["isTechnician"] and e["isActive"]]
    for order in w.rows["workOrder"]:
        kind = type_name[order["workOrderTypeId"]]
        assets: list[Row | None] = [
            w.row("asset", link["assetId"]) for link in assets_of.get(order["id"], [])
        ]
        planned: list[tuple[str, int | None]] = []
        for asset in assets or [None]:
            category, asset_type = category_of_type[asset["assetTypeId"]] if asset else (None, None)
            planned += [
                (code, asset["id"] if asset else None)
                for code in template_codes(rng, kind, category, asset_type)
            ]
        for code in dict.fromkeys(code for code, _ in planned):
            w.add(
                "serviceTemplateWorkOrder",
                workOrderId=order["id"],
                serviceTemplateId=templates[code]["id"],
                quantity=sum(1 for c, _ in planned if c == code),
                createdAt=order["createdAt"],
            )
        if order["status"] == "cancelled":
            continue
        crew = [m["employeeId"] for m in members_of.get(crew_of.get(order["id"], 0), [])]
        for code, asset_id in planned:
            template = templates[code]
            _service(
                w,
                rng,
                order,
                template,
                asset_id,
                crew or technicians,
                tasks_of[template["id"]],
                config[template["id"]],
            )


def _service(
    w: World,
    rng: random.Random,
    order: Row,
    template: Row,
    asset_id: int | None,
    crew: list[int],
    tasks: list[Row],
    config: Row,
) -> None:
    status = {"completed": "completed", "in_progress": "in_progress"}.get(
        order["status"], "pending"
    )
    done = order["completedAt"] if status == "completed" else None
    started = order["startedAt"] if status != "pending" else None
    service = w.add(
        "service",
        workOrderId=order["id"],
        serviceTemplateId=template["id"],
        assetId=asset_id,
        employeeId=rng.choice(crew),
        status=status,
        startedAt=started,
        completedAt=done,
        price=money(float(template["defaultPrice"]) * rng.uniform(0.9, 1.15)),
        notes=rng.choice(words.NOTE_PHRASES) if rng.random() < 0.2 else None,
        createdAt=order["createdAt"],
        updatedAt=done or order["createdAt"],
    )
    for task in tasks:
        finished = done is not None and (task["isRequired"] or rng.random() < 0.8)
        w.add(
            "serviceTask",
            serviceId=service,
            serviceTemplateTaskId=task["id"],
            isCompleted=finished,
            completedAt=done if finished else None,
            createdAt=order["createdAt"],
            updatedAt=done or order["createdAt"],
        )
    if done is None:
        return
    if config["requiresSignature"] and rng.random() < 0.85:
        signer = (
            order["siteContactName"]
            or f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}"
        )
        w.add(
            "serviceSignature", serviceId=service, signerName=signer, signedAt=done, createdAt=done
        )
    if config["requiresPhotos"]:
        for n in range(rng.randint(1, 3)):
            w.add(
                "serviceAttachment",
                serviceId=service,
                fileName=f"service-{service}-{n + 1}.jpg",
                contentType="image/jpeg",
                uploadedAt=done - timedelta(minutes=10 * (3 - n)),
                createdAt=done,
            )
