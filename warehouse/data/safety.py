"""Safety checks crews do before work, the hazards they find, and safety incidents."""

from __future__ import annotations

import random
from datetime import timedelta

from . import words
from .world import AS_OF, START, Row, World, at, days_between, group_by, weighted


def generate_safety(w: World) -> None:
    rng = w.rng("safety")
    kind_of = {t["id"]: t["name"] for t in w.rows["workOrderType"]}
    active = {t["id"]: t for t in w.rows["safetyTemplate"] if t["isActive"]}
    required = group_by(
        (r for r in w.rows["safetyTemplateWorkOrderType"] if r["safetyTemplateId"] in active),
        "workOrderTypeId",
    )
    questions_of = group_by(w.rows["safetyTemplateQuestion"], "safetyTemplateId")
    config = {c["safetyTemplateId"]: c for c in w.rows["safetyConfiguration"]}
    hazards = [h["id"] for h in w.rows["hazardType"]]
    crews = {c["workOrderId"]: c["id"] for c in w.rows["crew"]}
    members_of = group_by(w.rows["employeeCrew"], "crewId")
    for order in w.rows["workOrder"]:
        if order["startedAt"] is None or order["id"] not in crews:
            continue
        crew = crews[order["id"]]
        members = members_of[crew]
        lead = next(m for m in members if m["isLead"])["employeeId"]
        performed = order["startedAt"] - timedelta(minutes=15)
        for link in required.get(order["workOrderTypeId"], []):
            template_id = link["safetyTemplateId"]
            safety = w.add(
                "safety",
                workOrderId=order["id"],
                safetyTemplateId=template_id,
                crewId=crew,
                completedById=lead,
                performedAt=performed,
                hasHazards=False,
                isPassed=True,
                notes=None,
                createdAt=performed,
            )
            critical_hazard = any_hazard = False
            for question in questions_of[template_id]:
                roll = rng.random()
                answer = "no" if roll < 0.04 else "n/a" if roll > 0.97 else "yes"
                hazard = answer == "no"
                any_hazard |= hazard
                critical_hazard |= hazard and question["isCritical"]
                w.add(
                    "safetyAnswer",
                    safetyId=safety,
                    safetyTemplateQuestionId=question["id"],
                    answer=answer,
                    isHazard=hazard,
                    comment="Corrected before work started." if hazard else None,
                )
            row = w.row("safety", safety)
            row["hasHazards"], row["isPassed"] = any_hazard, not critical_hazard
            if any_hazard:
                row["notes"] = "Hazards identified and mitigated; see hazard list."
                for hazard_type in rng.sample(hazards, rng.randint(1, 2)):
                    w.add(
                        "safetyHazard",
                        safetyId=safety,
                        hazardTypeId=hazard_type,
                        mitigation="Barricaded the area and briefed the crew.",
                        createdAt=performed,
                    )
            signers = members if config[template_id]["requiresAllCrewSignatures"] else members[:1]
            for member in signers:
                w.add(
                    "safetySignature",
                    safetyId=safety,
                    employeeId=member["employeeId"],
                    signedAt=performed,
                    createdAt=performed,
                )
            if rng.random() < 0.1:
                w.add(
                    "safetyAttachment",
                    safetyId=safety,
                    fileName=f"safety-{safety}.jpg",
                    contentType="image/jpeg",
                    createdAt=performed,
                )
        if kind_of[order["workOrderTypeId"]] == "Emergency Call" and rng.random() < 0.03:
            _incident(w, rng, order, [m["employeeId"] for m in members])
    for _ in range(45):
        employee = rng.choice([e for e in w.rows["employee"] if e["isTechnician"]])
        _incident(w, rng, None, [employee["id"]])
    incidents = sorted(w.rows["incident"], key=lambda r: r["occurredAt"])
    for number, incident in enumerate(incidents, start=1):
        incident["incidentNumber"] = f"INC-{number:04d}"


def _incident(w: World, rng: random.Random, order: Row | None, people: list[int]) -> None:
    types = {t["name"]: t["id"] for t in w.rows["incidentType"]}
    kind = weighted(
        rng,
        (
            ("Near Miss", 40),
            ("First Aid Injury", 25),
            ("Recordable Injury", 8),
            ("Property Damage", 17),
            ("Vehicle Accident", 7),
            ("Environmental Spill", 3),
        ),
    )
    when = (
        order["startedAt"] + timedelta(hours=1)
        if order
        else at(days_between(rng, START, AS_OF), rng.randint(7, 17))
    )
    recordable = kind == "Recordable Injury"
    incident = w.add(
        "incident",
        workOrderId=order["id"] if order else None,
        employeeId=rng.choice(people),
        incidentTypeId=types[kind],
        incidentNumber="",
        occurredAt=when,
        severity="serious" if recordable else weighted(rng, (("minor", 75), ("moderate", 25))),
        isRecordable=recordable,
        lostTimeDays=rng.randint(1, 15) if recordable and rng.random() < 0.6 else 0,
        description=rng.choice(words.INCIDENT_DESCRIPTIONS),
        createdAt=when + timedelta(hours=2),
    )
    for _ in range(rng.randint(0, 2)):
        w.add(
            "incidentWitness",
            incidentId=incident,
            name=f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}",
            phone=f"({rng.randint(201, 989)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
            statement="Saw the event from about twenty feet away.",
            createdAt=when + timedelta(hours=3),
        )
    owner = _safety_owner(w)
    for _ in range(rng.randint(1, 2)):
        due = when.date() + timedelta(days=rng.randint(7, 45))
        w.add(
            "correctiveAction",
            incidentId=incident,
            ownerId=owner,
            description="Review procedure with all crews at the next toolbox talk.",
            dueOn=due,
            completedOn=due - timedelta(days=rng.randint(0, 6)) if due < AS_OF else None,
            createdAt=when + timedelta(days=1),
        )


def _safety_owner(w: World) -> int:
    """The first safety coordinator, or the first manager if there is none."""
    role_of = {r["code"]: r["id"] for r in w.rows["employeeRole"]}
    for code in ("SAFE", "MGR"):
        owners = [e["id"] for e in w.rows["employee"] if e["employeeRoleId"] == role_of[code]]
        if owners:
            return owners[0]
    raise ValueError("no employee can own corrective actions")
