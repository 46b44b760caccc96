"""Inspections of customer assets: questions, answers, action items, signatures, reports."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from . import words
from .catalog import TYPE_TEMPLATES
from .world import AS_OF, Row, World, add_months, at, group_by, money, weighted

INSPECTED_BY = ("Inspection", "Certification", "Load Test")
CERTIFYING = ("INS-CR-ANN", "INS-OH-PER", "INS-HST", "INS-LT")
DEFICIENCY_KEYWORDS = (
    ("wire rope", "WR-01"),
    ("hook", "HK-01"),
    ("brake", "BR-01"),
    ("load moment", "LMI-01"),
    ("anti-two-block", "A2B-01"),
    ("hydraulic", "HYD-01"),
    ("leak", "HYD-01"),
    ("label", "LBL-01"),
    ("chart", "LBL-01"),
    ("plate", "LBL-01"),
    ("marking", "LBL-01"),
    ("crack", "COR-01"),
    ("weld", "COR-01"),
    ("sheave", "WR-01"),
    ("outrigger", "COR-01"),
    ("tire", "TIR-01"),
    ("chain", "CHN-01"),
    ("limit switch", "LS-01"),
    ("guardrail", "GRD-01"),
    ("fork", "FRK-01"),
    ("horn", "HRN-01"),
)
FINDINGS = {
    "WR-01": "Broken wires found near the drum end; replace rope.",
    "HK-01": "Hook throat opening beyond 5% of original; replace hook.",
    "BR-01": "Brake slips under test load; reline brake.",
    "LMI-01": "LMI display shows fault code; recalibrate.",
    "A2B-01": "Anti-two-block switch does not stop hoist.",
    "HYD-01": "Hydraulic leak at cylinder seal.",
    "LBL-01": "Capacity label missing or illegible.",
    "COR-01": "Surface cracks and corrosion at weld toe.",
    "TIR-01": "Tire chunking beyond wear limit.",
    "CHN-01": "Load chain elongation over limit.",
    "LS-01": "Limit switch does not trip.",
    "GRD-01": "Gate latch bent, does not close.",
    "FRK-01": "Fork heel worn more than 10%.",
    "HRN-01": "Horn inoperative.",
    "OTH-01": "Deficiency noted, see photos.",
}


ANSWER_STATUS = {"completed": "completed", "in_progress": "in_progress", "on_hold": "in_progress"}


class Inspector:
    """Carries out inspections: asks every checklist question, answers, raises findings."""

    def __init__(self, w: World, rng: random.Random) -> None:
        self.w, self.rng = w, rng
        sections = group_by(w.rows["inspectionTemplateSection"], "inspectionTemplateId")
        questions_of = group_by(w.rows["inspectionTemplateQuestion"], "inspectionTemplateSectionId")
        # template id -> [(section name, template question)] in checklist order
        self.checklists = {
            template_id: [(s["name"], q) for s in parts for q in questions_of[s["id"]]]
            for template_id, parts in sections.items()
        }
        self.config = {c["inspectionTemplateId"]: c for c in w.rows["inspectionConfiguration"]}
        self.codes = {d["code"]: d["id"] for d in w.rows["deficiencyCode"]}
        self.technicians = [e["id"] for e in w.rows["employee"] if e["isTechnician"]]

    def inspect(
        self, order: Row, asset: Row, asset_type: Row, template: Row, inspector: int
    ) -> None:
        w, rng = self.w, self.rng
        status = ANSWER_STATUS.get(order["status"], order["status"])
        status = status if status in ("completed", "in_progress", "cancelled") else "scheduled"
        started = order["startedAt"] if status in ("completed", "in_progress") else None
        done = order["completedAt"] if status == "completed" else None
        inspection = w.add(
            "inspection",
            workOrderId=order["id"],
            inspectionTemplateId=template["id"],
            assetId=asset["id"],
            inspectorId=inspector,
            status=status,
            result=None,
            startedAt=started,
            completedAt=done,
            nextInspectionDue=None,
            notes=rng.choice(words.NOTE_PHRASES) if rng.random() < 0.25 else None,
            createdAt=order["createdAt"],
            updatedAt=done or started or order["createdAt"],
        )
        if status == "cancelled":
            return
        checklist = self.checklists[template["id"]]
        # Open inspections have half their questions answered; old machines fail more.
        answered = len(checklist) if done else len(checklist) // 2
        worn = 0.02 if asset["yearManufactured"] < 2006 else 0.0
        failures: list[bool] = []
        for number, (section, question) in enumerate(checklist, start=1):
            asked = w.add(
                "inspectionQuestion",
                inspectionId=inspection,
                inspectionTemplateQuestionId=question["id"],
                sectionName=section,
                text=question["text"],
                sortOrder=number,
            )
            if started is not None and number <= answered:
                answer_time = started + timedelta(minutes=4 * number)
                if self._answer(inspection, asked, question, inspector, answer_time, worn):
                    failures.append(question["isCritical"])
        if done is not None:
            result = "fail" if any(failures) else "conditional" if failures else "pass"
            row = w.row("inspection", inspection)
            row["result"] = result
            row["nextInspectionDue"] = add_months(
                done.date(), asset_type["inspectionIntervalMonths"]
            )
            self._close(inspection, order, asset, template, inspector, done, result)

    def _answer(
        self, inspection: int, asked: int, question: Row, inspector: int, at_: datetime, worn: float
    ) -> bool:
        """Record one answer; True when it failed."""
        rng = self.rng
        numeric = None
        if question["answerType"] == "numeric":
            numeric = money(rng.uniform(1, 60))
            answer, action = str(numeric), False
        else:
            roll = rng.random()
            answer = "fail" if roll < 0.022 + worn else "n/a" if roll > 0.98 else "pass"
            # A passed item is sometimes still flagged, to watch wear before it fails.
            action = answer == "fail" or (answer == "pass" and rng.random() < 0.01)
        code = _deficiency(question["text"])
        answer_id = self.w.add(
            "inspectionQuestionAnswer",
            inspectionId=inspection,
            questionId=asked,
            answeredById=inspector,
            answer=answer,
            numericValue=numeric,
            comment=FINDINGS[code] if action else None,
            isActionItem=action,
            answeredAt=at_,
        )
        if action:
            self._action_item(answer_id, code, question["isCritical"], at_)
        return answer == "fail"

    def _action_item(self, answer: int, code: str, critical: bool, found: datetime) -> None:
        w, rng = self.w, self.rng
        found_day = found.date()
        due = found_day + timedelta(days=rng.randint(7, 60))
        resolved = None
        if due < AS_OF and rng.random() < 0.8:
            days = rng.randint(2, (due - found_day).days + 20)
            resolved = at(found_day + timedelta(days=days), 15)
            resolved = resolved if resolved.date() <= AS_OF else None
        status = "resolved" if resolved else weighted(rng, (("open", 70), ("in_progress", 30)))
        severity = (("critical", 40), ("high", 60)) if critical else (("low", 40), ("medium", 60))
        w.add(
            "inspectionActionItem",
            inspectionQuestionAnswerId=answer,
            deficiencyCodeId=self.codes[code],
            assignedToId=rng.choice(self.technicians) if rng.random() < 0.7 else None,
            description=FINDINGS[code],
            priority=weighted(rng, severity),
            status=status,
            dueOn=due,
            resolvedAt=resolved,
            createdAt=found,
            updatedAt=resolved or found,
        )
        for n in range(rng.randint(1, 2) if rng.random() < 0.6 else 0):
            w.add(
                "inspectionQAAttachment",
                inspectionQuestionAnswerId=answer,
                fileName=f"finding-{answer}-{n + 1}.jpg",
                contentType="image/jpeg",
                sizeBytes=rng.randint(300_000, 5_000_000),
                createdAt=found,
            )

    def _close(
        self,
        inspection: int,
        order: Row,
        asset: Row,
        template: Row,
        inspector: int,
        done: datetime,
        result: str,
    ) -> None:
        """Signatures, the report and, for a pass, the asset's certificate."""
        w, rng = self.w, self.rng
        w.add(
            "inspectionSignature",
            inspectionId=inspection,
            employeeId=inspector,
            signedAt=done,
            createdAt=done,
        )
        if self.config[template["id"]]["requiresCustomerSignature"] and rng.random() < 0.85:
            signer = (
                order["siteContactName"]
                or f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}"
            )
            w.add(
                "inspectionCustomerSignature",
                inspectionId=inspection,
                signerName=signer,
                signerTitle=rng.choice(words.CONTACT_TITLES),
                signedAt=done,
                createdAt=done,
            )
        w.add(
            "inspectionReport",
            inspectionId=inspection,
            fileName=f"inspection-{inspection}.pdf",
            generatedAt=done + timedelta(minutes=30),
            emailedAt=done + timedelta(hours=2) if rng.random() < 0.9 else None,
            createdAt=done,
        )
        if result == "pass" and template["code"] in CERTIFYING:
            w.add(
                "assetCertification",
                assetId=asset["id"],
                inspectionId=inspection,
                certifiedById=inspector,
                certificateNumber=f"CERT-{inspection:06d}",
                certifiedOn=done.date(),
                expiresOn=add_months(done.date(), 12),
                createdAt=done,
            )


def generate_inspections(w: World) -> None:
    rng = w.rng("inspections")
    inspector = Inspector(w, rng)
    templates = {t["code"]: t for t in w.rows["inspectionTemplate"]}
    type_row = {t["id"]: t for t in w.rows["assetType"]}
    kind_of = {t["id"]: t["name"] for t in w.rows["workOrderType"]}
    assets_of = group_by(w.rows["workOrderAsset"], "workOrderId")
    crew_of = {c["workOrderId"]: c["id"] for c in w.rows["crew"]}
    members_of = group_by(w.rows["employeeCrew"], "crewId")
    for order in w.rows["workOrder"]:
        kind = kind_of[order["workOrderTypeId"]]
        if kind not in INSPECTED_BY or order["id"] not in assets_of:
            continue
        crew = [m["employeeId"] for m in members_of.get(crew_of.get(order["id"], 0), [])]
        used = []
        for link in assets_of[order["id"]]:
            asset = w.row("asset", link["assetId"])
            asset_type = type_row[asset["assetTypeId"]]
            code = "INS-LT" if kind == "Load Test" else TYPE_TEMPLATES[asset_type["name"]]
            used.append(templates[code]["id"])
            who = rng.choice(crew or inspector.technicians)
            inspector.inspect(order, asset, asset_type, templates[code], who)
        for template_id in dict.fromkeys(used):
            w.add(
                "inspectionTemplateWorkOrder",
                workOrderId=order["id"],
                inspectionTemplateId=template_id,
                createdAt=order["createdAt"],
            )


def _deficiency(question: str) -> str:
    text = question.lower()
    return next((code for word, code in DEFICIENCY_KEYWORDS if word in text), "OTH-01")
