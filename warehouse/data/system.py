"""Application settings, documents, notifications, integration runs and the audit trail."""

from __future__ import annotations

from datetime import date, timedelta

from .world import AS_OF, START, World, at, days_between, weighted

SETTINGS = (
    ("default_timezone", "America/Chicago", "Timezone for schedules"),
    ("work_order_prefix", "WO-", "Prefix of work order numbers"),
    ("overtime_threshold_hours", "8", "Daily hours before overtime"),
    ("inspection_report_logo", "logo.png", "Logo printed on reports"),
    ("invoice_due_reminder_days", "7", "Days before due date to remind"),
    ("require_safety_before_work", "true", "Block work until the safety check is done"),
)
EMAILS = (
    ("work_order_scheduled", "Your service visit is scheduled"),
    ("inspection_report", "Inspection report for {asset}"),
    ("invoice_sent", "Invoice {number} from Switchboard Lifting"),
    ("payment_received", "Thank you for your payment"),
)
NOTIFICATION_TYPES = (
    ("wo_assigned", "Work order assigned"),
    ("wo_completed", "Work order completed"),
    ("action_item_due", "Action item due"),
    ("time_to_approve", "Time entries to approve"),
    ("cert_expiring", "Certification expiring"),
)
DOCUMENTS = {
    "Policy": ("Safety Policy", "Drug and Alcohol Policy", "Vehicle Use Policy"),
    "Procedure": ("Crane Inspection Procedure", "Load Test Procedure", "Lockout/Tagout Procedure"),
    "Form": ("Lift Plan Form", "Incident Report Form", "Time Sheet Form"),
}


def generate_system(w: World) -> None:
    rng = w.rng("system")
    w.add(
        "companyProfile",
        name="Switchboard Lifting Services",
        timezone="America/Chicago",
        currency="USD",
    )
    for key, value, description in SETTINGS:
        w.add("appSetting", settingKey=key, value=value, description=description)
    for name, subject in EMAILS:
        w.add(
            "emailTemplate",
            name=name,
            subject=subject,
            body=f"Hello,\n\n{subject}.\n\nSwitchboard Lifting",
        )
    kinds = {
        code: w.add("notificationType", code=code, name=name) for code, name in NOTIFICATION_TYPES
    }
    for category, titles in DOCUMENTS.items():
        category_id = w.add("documentCategory", name=category)
        for title in titles:
            w.add(
                "document",
                documentCategoryId=category_id,
                title=title,
                fileName=title.lower().replace(" ", "-").replace("/", "-") + ".pdf",
                version=rng.randint(1, 5),
                publishedOn=days_between(rng, date(2022, 1, 1), date(2026, 9, 30)),
            )
    day = START
    while day <= AS_OF:
        for system, hour in (("accounting", 2), ("payroll", 3)):
            started = at(day, hour)
            w.add(
                "integrationSyncLog",
                system=system,
                startedAt=started,
                finishedAt=started + timedelta(minutes=rng.randint(1, 25)),
                recordsSynced=rng.randint(0, 400),
                status=weighted(rng, (("success", 96), ("failed", 4))),
            )
        day += timedelta(days=1)
    staff = {u["employeeId"]: u["id"] for u in w.rows["user"] if u["employeeId"]}
    staff_users = list(staff.values())
    crews = {c["workOrderId"]: c["id"] for c in w.rows["crew"]}
    leads = {m["crewId"]: m["employeeId"] for m in w.rows["employeeCrew"] if m["isLead"]}
    for order in w.rows["workOrder"]:
        lead = leads.get(crews.get(order["id"], 0))
        if lead in staff:
            w.add(
                "notification",
                workOrderId=order["id"],
                userId=staff[lead],
                notificationTypeId=kinds["wo_assigned"],
                title=f"{order['workOrderNumber']} assigned to your crew",
                sentAt=order["createdAt"] + timedelta(hours=1),
                readAt=order["createdAt"] + timedelta(hours=3) if rng.random() < 0.8 else None,
            )
        w.add(
            "auditLog",
            userId=order["createdByUserId"],
            entityTable="workOrder",
            entityId=order["id"],
            action="create",
            changedAt=order["createdAt"],
        )
        if order["completedAt"]:
            w.add(
                "auditLog",
                userId=rng.choice(staff_users),
                entityTable="workOrder",
                entityId=order["id"],
                action="update",
                changedAt=order["completedAt"],
            )
    for user in staff_users:
        if rng.random() < 0.1:
            w.add(
                "savedReport",
                userId=user,
                name=rng.choice(("Open work orders", "Overtime this month", "Failed inspections")),
                reportType=rng.choice(("table", "chart")),
                isShared=rng.random() < 0.3,
            )
