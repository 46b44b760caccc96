"""Templates and lookups: work order types, services, inspection and safety checklists."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from .checklists import CHECKLISTS, INSPECTION_TEMPLATES, SAFETY_TEMPLATES, SERVICES, question
from .outline import fields, names
from .words import words
from .world import World, money, one_decimal

# name, billable
WORK_ORDER_TYPES = (
    ("Inspection", True),
    ("Preventive Maintenance", True),
    ("Repair", True),
    ("Load Test", True),
    ("Installation", True),
    ("Emergency Call", True),
    ("Certification", True),
    ("Warranty", False),
    ("Training", True),
)
# category -> (code, name, hours, price, work order types proposing it, task steps)
TYPE_TEMPLATES = {
    "Mobile Crane": "INS-CR-ANN",
    "Crawler Crane": "INS-CR-ANN",
    "Tower Crane": "INS-CR-ANN",
    "Knuckle Boom Crane": "INS-CR-ANN",
    "Overhead Bridge Crane": "INS-OH-PER",
    "Gantry Crane": "INS-OH-PER",
    "Jib Crane": "INS-OH-PER",
    "Electric Forklift": "INS-FL-ANN",
    "Propane Forklift": "INS-FL-ANN",
    "Rough Terrain Forklift": "INS-FL-ANN",
    "Reach Truck": "INS-FL-ANN",
    "Telehandler": "INS-FL-ANN",
    "Scissor Lift": "INS-AWP",
    "Boom Lift": "INS-AWP",
    "Electric Chain Hoist": "INS-HST",
    "Wire Rope Hoist": "INS-HST",
    "Spreader Beam": "INS-BTH",
    "Below-the-Hook Lifter": "INS-BTH",
}
DEFICIENCY_CODES = (
    ("WR-01", "Broken wires in wire rope exceed removal criteria", "high"),
    ("HK-01", "Hook throat opening or twist beyond limits", "high"),
    ("BR-01", "Brake lining worn or brake slipping", "high"),
    ("LMI-01", "Load moment indicator not functioning", "critical"),
    ("A2B-01", "Anti-two-block device inoperative", "critical"),
    ("HYD-01", "Hydraulic leak", "medium"),
    ("LBL-01", "Missing or illegible capacity label", "low"),
    ("COR-01", "Structural corrosion", "medium"),
    ("TIR-01", "Tire damage or excessive wear", "medium"),
    ("CHN-01", "Load chain elongation beyond limits", "high"),
    ("LS-01", "Limit switch inoperative", "high"),
    ("GRD-01", "Guardrail or gate damaged", "medium"),
    ("FRK-01", "Fork heel wear over 10%", "high"),
    ("HRN-01", "Horn or alarm inoperative", "low"),
    ("OTH-01", "Other deficiency", "low"),
)
HAZARD_TYPES = words(
    "Overhead Power Lines, Unstable Ground, High Winds, Pedestrian Traffic, Confined Space, "
    "Hot Work, Working at Height, Energized Equipment, Vehicle Traffic, Extreme Heat"
)
INCIDENT_TYPES = words(
    "Near Miss, First Aid Injury, Recordable Injury, Property Damage, Vehicle Accident, "
    "Environmental Spill"
)
EXPENSE_TYPES = ("Fuel", "Meals", "Lodging", "Parking & Tolls", "Equipment Rental", "Materials")
TAX_RATES = (
    ("TX", 0.0825),
    ("AZ", 0.086),
    ("CO", 0.079),
    ("GA", 0.07),
    ("IL", 0.1025),
    ("OK", 0.0895),
)
HOLIDAYS = (
    (date(2024, 11, 28), "Thanksgiving"),
    (date(2024, 12, 25), "Christmas Day"),
    (date(2025, 1, 1), "New Year's Day"),
    (date(2025, 5, 26), "Memorial Day"),
    (date(2025, 7, 4), "Independence Day"),
    (date(2025, 9, 1), "Labor Day"),
    (date(2025, 11, 27), "Thanksgiving"),
    (date(2025, 12, 25), "Christmas Day"),
    (date(2026, 1, 1), "New Year's Day"),
    (date(2026, 5, 25), "Memorial Day"),
    (date(2026, 7, 3), "Independence Day (observed)"),
    (date(2026, 9, 7), "Labor Day"),
)
CUSTOM_FIELDS = (
    ("Permit Number", "text", False),
    ("Customer Job Number", "text", False),
    ("Requires Escort", "boolean", False),
    ("Lift Plan Reference", "text", False),
)


def generate_catalog(w: World) -> None:
    types = {n: w.add("workOrderType", name=n, isBillable=b) for n, b in WORK_ORDER_TYPES}
    for category in SERVICES:
        category_id = w.add("serviceCategory", name=category.text)
        for service in category.children:
            code, name, hours, price, proposed_for = fields(service.text)
            steps = [step.text for step in service.children]
            template = w.add(
                "serviceTemplate",
                serviceCategoryId=category_id,
                code=code,
                name=name,
                description=f"{name}: " + "; ".join(steps).lower() + ".",
                estimatedHours=one_decimal(float(hours)),
                defaultPrice=money(float(price)),
                isActive=code != "INSP-LEG",
            )
            steps = ["Perform lockout/tagout", *steps, "Review findings with customer"]
            for order, step in enumerate(steps, start=1):
                w.add(
                    "serviceTemplateTask",
                    serviceTemplateId=template,
                    description=step,
                    sortOrder=order,
                    isRequired=step != "Review findings with customer",
                )
            w.add(
                "serviceConfiguration",
                serviceTemplateId=template,
                requiresSignature=category.text != "Training",
                requiresPhotos=category.text in ("Repair", "Installation"),
                requiresAsset=category.text not in ("Training", "Emergency"),
            )
            for type_name in names(proposed_for):
                w.add(
                    "workOrderTypeServiceTemplate",
                    workOrderTypeId=types[type_name],
                    serviceTemplateId=template,
                )
    for name in EXPENSE_TYPES:
        w.add("expenseType", name=name)
    for state, rate in TAX_RATES:
        w.add("taxRate", state=state, rate=Decimal(f"{rate:.4f}"))
    for day, name in HOLIDAYS:
        w.add("holiday", date=day, name=name)
    for name, kind, required in CUSTOM_FIELDS:
        w.add("workOrderCustomField", name=name, fieldType=kind, isRequired=required)
    _inspection_templates(w)
    _safety_templates(w, types)


def _inspection_templates(w: World) -> None:
    categories = {c["name"]: c["id"] for c in w.rows["assetCategory"]}
    templates = {}
    for code, name, category, active, checklist in INSPECTION_TEMPLATES:
        template = w.add(
            "inspectionTemplate",
            assetCategoryId=categories[category] if category else None,
            code=code,
            name=name,
            description=f"Checklist for {name.lower()}.",
            version=1 if code.endswith("V1") else 2,
            isActive=active,
        )
        templates[code] = template
        for order, section in enumerate(CHECKLISTS[checklist], start=1):
            section_id = w.add(
                "inspectionTemplateSection",
                inspectionTemplateId=template,
                name=section.text,
                sortOrder=order,
            )
            for q_order, line in enumerate(section.children, start=1):
                text, kind, critical = question(line)
                w.add(
                    "inspectionTemplateQuestion",
                    inspectionTemplateSectionId=section_id,
                    text=text,
                    answerType=kind,
                    isRequired=True,
                    isCritical=critical,
                    sortOrder=q_order,
                )
        w.add(
            "inspectionConfiguration",
            inspectionTemplateId=template,
            requiresCustomerSignature=category in ("Cranes", "Hoists", None),
            requiresPhotos=category == "Cranes",
            allowNotApplicable=True,
            passThresholdPercent=100 if category == "Cranes" else 90,
        )
    for asset_type in w.rows["assetType"]:
        w.add(
            "assetTypeInspectionTemplate",
            assetTypeId=asset_type["id"],
            inspectionTemplateId=templates[TYPE_TEMPLATES[asset_type["name"]]],
            isRequired=True,
        )
        if asset_type["name"] not in ("Scissor Lift", "Boom Lift"):
            w.add(
                "assetTypeInspectionTemplate",
                assetTypeId=asset_type["id"],
                inspectionTemplateId=templates["INS-LT"],
                isRequired=False,
            )
    for code, description, severity in DEFICIENCY_CODES:
        w.add("deficiencyCode", code=code, description=description, severity=severity)


def _safety_templates(w: World, types: dict[str, int]) -> None:
    for node in SAFETY_TEMPLATES:
        name, active, before_work, type_names = fields(node.text)
        template = w.add(
            "safetyTemplate", name=name, description=f"{name} checklist.", isActive=active == "yes"
        )
        for order, line in enumerate(node.children, start=1):
            text, _, critical = question(line)
            w.add(
                "safetyTemplateQuestion",
                safetyTemplateId=template,
                text=text,
                isCritical=critical,
                sortOrder=order,
            )
        w.add(
            "safetyConfiguration",
            safetyTemplateId=template,
            isRequiredBeforeWork=before_work == "yes",
            requiresAllCrewSignatures=name != "Job Hazard Analysis",
        )
        required_for = list(types) if type_names == "all" else names(type_names)
        for type_name in required_for:
            w.add(
                "safetyTemplateWorkOrderType",
                safetyTemplateId=template,
                workOrderTypeId=types[type_name],
            )
    for name in HAZARD_TYPES:
        w.add("hazardType", name=name)
    for name in INCIDENT_TYPES:
        w.add("incidentType", name=name)
