"""Branches, roles, employees and everything kept about them; application users."""

from __future__ import annotations

import random
from datetime import date, timedelta

from . import words
from .world import (
    AS_OF,
    END,
    SETUP_AT,
    START,
    World,
    add_months,
    at,
    days_between,
    money,
    one_decimal,
    phone,
    sample_upto,
    weighted,
)

BRANCHES = (
    ("Houston", "HOU", "Houston", "TX", True),
    ("Dallas", "DAL", "Dallas", "TX", True),
    ("Phoenix", "PHX", "Phoenix", "AZ", True),
    ("Denver", "DEN", "Denver", "CO", True),
    ("Atlanta", "ATL", "Atlanta", "GA", True),
    ("Chicago", "CHI", "Chicago", "IL", True),
    ("Tulsa", "TUL", "Tulsa", "OK", False),
)
DEPARTMENTS = (
    ("Field Operations", "FOPS"),
    ("Inspection Services", "INSP"),
    ("Dispatch", "DISP"),
    ("Sales", "SALES"),
    ("Finance", "FIN"),
    ("Safety & Compliance", "SAFE"),
    ("Administration", "ADMIN"),
)
YESTERDAY = AS_OF - timedelta(days=1)
# code, name, field role, department code, share of the headcount
ROLES = (
    ("TECH", "Crane Technician", True, "FOPS", 30),
    ("FLTECH", "Forklift Technician", True, "FOPS", 14),
    ("INSP", "Certified Inspector", True, "INSP", 16),
    ("LEAD", "Crew Lead", True, "FOPS", 8),
    ("RIG", "Rigger", True, "FOPS", 6),
    ("OPR", "Crane Operator", True, "FOPS", 5),
    ("SUP", "Field Supervisor", True, "FOPS", 5),
    ("DISP", "Dispatcher", False, "DISP", 4),
    ("SALES", "Account Manager", False, "SALES", 4),
    ("ADMIN", "Office Administrator", False, "ADMIN", 4),
    ("FIN", "Billing Specialist", False, "FIN", 2),
    ("SAFE", "Safety Coordinator", False, "SAFE", 1),
    ("MGR", "Branch Manager", False, "ADMIN", 1),
)
TECHNICIAN_ROLES = {"TECH", "FLTECH", "INSP", "LEAD", "RIG", "OPR"}
EMPLOYEES = 420

# code, name, overtime, billable, pay multiplier
WORK_TIME_TYPES = (
    ("REG", "Regular", False, True, 1.0),
    ("OT", "Overtime", True, True, 1.5),
    ("DT", "Double Time", True, True, 2.0),
    ("TRV", "Travel", False, True, 1.0),
    ("STBY", "Standby", False, True, 1.0),
    ("SHOP", "Shop Time", False, False, 1.0),
    ("TRN", "Training", False, False, 1.0),
    ("HOL", "Holiday", False, False, 1.0),
    ("ONCALL", "On-Call Overtime", True, True, 1.5),
)
FIELD_TIME_TYPES = ("REG", "OT", "DT", "TRV", "STBY", "SHOP", "TRN", "HOL", "ONCALL")
OFFICE_TIME_TYPES = ("REG", "OT", "TRN", "HOL")

CERTIFICATIONS = (
    ("NCCCO Mobile Crane Operator", "NCCCO", 60, True),
    ("NCCCO Tower Crane Operator", "NCCCO", 60, True),
    ("NCCCO Rigger Level I", "NCCCO", 60, True),
    ("NCCCO Signal Person", "NCCCO", 60, True),
    ("NCCCO Crane Inspector", "NCCCO", 60, True),
    ("OSHA 10-Hour Construction", "OSHA", 0, False),
    ("OSHA 30-Hour Construction", "OSHA", 0, False),
    ("Forklift Operator Evaluator", "OSHA", 36, False),
    ("First Aid / CPR / AED", "American Red Cross", 24, False),
    ("Aerial Lift Operator", "IPAF", 60, False),
)
SKILLS = words.words(
    "Hydraulics, Electrical Troubleshooting, Wire Rope Inspection, Load Testing, Welding, "
    "Rigging, PLC Controls, Brake Systems, Engine Diagnostics, Forklift Mast Repair, Runway "
    "Alignment, Hoist Overhaul, Non-Destructive Testing, Technical Writing"
)
TRAINING_COURSES = (
    ("Crane Load Chart Interpretation", 8.0, True),
    ("Fall Protection Refresher", 4.0, True),
    ("Lockout/Tagout", 4.0, True),
    ("Hydraulic Systems Fundamentals", 16.0, False),
    ("Overhead Crane Inspection ASME B30.2", 12.0, False),
    ("Forklift Inspection OSHA 1910.178", 8.0, False),
    ("Defensive Driving", 4.0, True),
    ("Confined Space Awareness", 2.0, False),
    ("Hazard Communication", 2.0, True),
    ("Customer Service in the Field", 3.0, False),
)
TIME_OFF_TYPES = (("Vacation", True), ("Sick Leave", True), ("Personal", True), ("Unpaid", False))
USER_ROLES = (
    ("Administrator", True),
    ("Dispatcher", True),
    ("Supervisor", True),
    ("Technician", True),
    ("Office", True),
    ("Customer Portal", False),
)
PERMISSIONS = (
    ("workorder.view", "View work orders"),
    ("workorder.edit", "Create and edit work orders"),
    ("workorder.dispatch", "Dispatch crews"),
    ("inspection.perform", "Perform inspections"),
    ("inspection.approve", "Approve inspection reports"),
    ("time.submit", "Submit work time"),
    ("time.approve", "Approve work time"),
    ("invoice.view", "View invoices"),
    ("invoice.edit", "Create invoices"),
    ("customer.edit", "Edit customers"),
    ("report.view", "View reports"),
    ("admin.settings", "Change settings"),
)
ROLE_PERMISSIONS = {
    "Administrator": [p for p, _ in PERMISSIONS],
    "Dispatcher": ["workorder.view", "workorder.edit", "workorder.dispatch", "report.view"],
    "Supervisor": ["workorder.view", "workorder.edit", "inspection.approve", "time.approve"],
    "Technician": ["workorder.view", "inspection.perform", "time.submit"],
    "Office": ["workorder.view", "invoice.view", "invoice.edit", "customer.edit", "report.view"],
    "Customer Portal": ["workorder.view", "invoice.view"],
}
TRUCKS = (
    ("Ford", "F-550 Service Body"),
    ("Ford", "F-350 Super Duty"),
    ("Ram", "5500 Crane Truck"),
    ("Chevrolet", "Silverado 3500HD"),
    ("Freightliner", "M2 106 Boom Truck"),
)
EQUIPMENT = (
    "Dillon Load Cell 50t",
    "Dillon Load Cell 20t",
    "Water Bag Test Weight Set",
    "Crosby Shackle Kit",
    "Wire Rope Gauge Set",
    "Ultrasonic Thickness Gauge",
    "Hydraulic Pressure Test Kit",
    "Laser Runway Alignment Kit",
    "Torque Wrench Set",
    "Megohmmeter",
)
TOOLBOX_TOPICS = (
    "Working near overhead power lines",
    "Hand signals for crane operations",
    "Heat stress prevention",
    "Proper use of tag lines",
    "Forklift pedestrian safety",
    "Ladder safety",
    "Cold weather work",
    "Lockout/tagout refresher",
    "Inspecting slings before use",
    "Driving the service truck safely",
)


def generate_staff(w: World) -> None:
    rng = w.rng("staff")
    for name, code, city, state, active in BRANCHES:
        w.add("branch", name=name, code=code, city=city, state=state, isActive=active)
    departments = {code: w.add("department", name=n, code=code) for n, code in DEPARTMENTS}
    roles = {}
    for code, name, field, _, _ in ROLES:
        description = f"{name} ({'field' if field else 'office'} role)"
        roles[code] = w.add(
            "employeeRole", name=name, code=code, isFieldRole=field, description=description
        )
    _work_time_types(w, roles)
    _employees(w, rng, roles, departments)
    _employee_records(w)
    _fleet(w)


def _work_time_types(w: World, roles: dict[str, int]) -> None:
    types = {}
    for code, name, overtime, billable, multiplier in WORK_TIME_TYPES:
        types[code] = w.add(
            "workTimeType",
            name=name,
            code=code,
            isOvertime=overtime,
            isBillable=billable,
            payMultiplier=money(multiplier),
        )
    field_roles = {code for code, _, field, _, _ in ROLES if field}
    for role_code, role_id in roles.items():
        allowed = FIELD_TIME_TYPES if role_code in field_roles else OFFICE_TIME_TYPES
        for code in allowed:
            w.add(
                "employeeRoleWorkTimeType",
                employeeRoleId=role_id,
                workTimeTypeId=types[code],
                isDefault=code == "REG",
            )
    # Bi-weekly pay periods starting on the Monday before the data begins.
    start = date(2024, 10, 28)
    while start <= END:
        end = start + timedelta(days=13)
        w.add(
            "payrollPeriod",
            startDate=start,
            endDate=end,
            payDate=end + timedelta(days=5),
            isClosed=end + timedelta(days=5) <= AS_OF,
        )
        start += timedelta(days=14)


def _employees(w: World, rng: random.Random, roles: dict[str, int], depts: dict[str, int]) -> None:
    role_weights = [(r, share) for r, *_, share in ROLES if r != "MGR"]
    role_depts = {code: dept for code, _, _, dept, _ in ROLES}
    branches = [b for b in w.rows["branch"] if b["isActive"]]
    plan: list[tuple[str, int]] = [("MGR", b["id"]) for b in w.rows["branch"]]
    # Every branch gets supervisors and dispatchers first, then the rest at random.
    plan += [("SUP", b["id"]) for b in branches for _ in range(3)]
    plan += [("DISP", b["id"]) for b in branches for _ in range(2)]
    while len(plan) < EMPLOYEES:
        branch = weighted(
            rng, [(b["id"], 3 if b["code"] in ("HOU", "DAL") else 2) for b in branches]
        )
        plan.append((weighted(rng, role_weights), branch))
    used_names: set[tuple[str, str]] = set()
    managers: dict[int, int] = {}
    supervisors: dict[int, list[int]] = {}
    for number, (role, branch_id) in enumerate(plan, start=1):
        first, last = rng.choice(words.FIRST_NAMES), rng.choice(words.LAST_NAMES)
        while (first, last) in used_names:
            first, last = rng.choice(words.FIRST_NAMES), rng.choice(words.LAST_NAMES)
        used_names.add((first, last))
        hired = days_between(rng, date(2006, 1, 1), date(2026, 8, 31))
        terminated = None
        if role not in ("MGR", "SUP", "DISP") and rng.random() < 0.12:
            terminated = days_between(
                rng, max(hired + timedelta(days=90), START), date(2026, 9, 30)
            )
        branch_active = w.row("branch", branch_id)["isActive"]
        if not branch_active and terminated is None:
            terminated = date(2024, 12, 31)
        if role == "MGR":
            boss = None
        elif role == "SUP" or role_depts[role] != "FOPS":
            boss = managers[branch_id]
        else:
            boss = rng.choice(supervisors.get(branch_id) or [managers[branch_id]])
        base_rate = {"MGR": 58, "SUP": 46, "INSP": 41, "LEAD": 40, "TECH": 36}.get(role, 31)
        employee_id = w.add(
            "employee",
            employeeNumber=f"E{number:05d}",
            firstName=first,
            lastName=last,
            email=f"{first}.{last}{number}@switchboard-lifting.example".lower(),
            phone=phone(rng),
            homeAddress=(
                f"{rng.randint(100, 9899)} {rng.choice(words.STREETS)} "
                f"{rng.choice(words.STREET_TYPES)}"
            ),
            dateOfBirth=days_between(rng, date(1962, 1, 1), date(2003, 12, 31)),
            employeeRoleId=roles[role],
            branchId=branch_id,
            departmentId=depts[role_depts[role]],
            supervisorId=boss,
            employmentType=weighted(rng, [("full_time", 90), ("part_time", 5), ("contractor", 5)]),
            hireDate=hired,
            terminationDate=terminated,
            hourlyRate=money(base_rate + rng.uniform(-3, 9)),
            isTechnician=role in TECHNICIAN_ROLES,
            isActive=terminated is None,
            createdAt=at(max(hired, SETUP_AT.date()), 9),  # older staff were migrated
        )
        if role == "MGR":
            managers[branch_id] = employee_id
        if role == "SUP":
            supervisors.setdefault(branch_id, []).append(employee_id)


def _employee_records(w: World) -> None:
    rng = w.rng("employee-records")
    cert_types = [
        w.add(
            "certificationType",
            name=n,
            issuingBody=body,
            validityMonths=months,
            isRequiredForCraneWork=crane,
        )
        for n, body, months, crane in CERTIFICATIONS
    ]
    skills = [w.add("skill", name=s) for s in SKILLS]
    courses = [
        w.add("trainingCourse", name=n, durationHours=one_decimal(h), isMandatory=m)
        for n, h, m in TRAINING_COURSES
    ]
    time_off_types = [w.add("timeOffType", name=n, isPaid=p) for n, p in TIME_OFF_TYPES]
    for e in w.rows["employee"]:
        relation = rng.choice(("Spouse", "Parent", "Sibling", "Partner", "Friend"))
        family = e["lastName"] if relation != "Friend" else rng.choice(words.LAST_NAMES)
        w.add(
            "employeeEmergencyContact",
            employeeId=e["id"],
            name=f"{rng.choice(words.FIRST_NAMES)} {family}",
            phone=phone(rng),
            relationship=relation,
        )
        w.add(
            "employeeDocument",
            employeeId=e["id"],
            documentType="W-4",
            fileName=f"{e['employeeNumber']}-w4.pdf",
            uploadedAt=at(max(e["hireDate"], SETUP_AT.date()), 10),
        )
        if not e["isTechnician"]:
            continue
        for cert in sample_upto(rng, cert_types, 1, 4):
            months = w.row("certificationType", cert)["validityMonths"] or 120
            issued = days_between(rng, max(e["hireDate"], date(2019, 1, 1)), date(2026, 9, 30))
            w.add(
                "employeeCertification",
                employeeId=e["id"],
                certificationTypeId=cert,
                certificateNumber=f"C{rng.randint(100000, 999999)}",
                issuedOn=issued,
                expiresOn=add_months(issued, months),
            )
        for skill in sample_upto(rng, skills, 1, 5):
            w.add("employeeSkill", employeeId=e["id"], skillId=skill, level=rng.randint(1, 5))
    active = [e for e in w.rows["employee"] if e["isActive"]]
    for _ in range(900):
        e = rng.choice(active)
        course = rng.choice(courses)
        score = rng.randint(55, 100)
        w.add(
            "employeeTraining",
            employeeId=e["id"],
            trainingCourseId=course,
            completedOn=days_between(rng, START, YESTERDAY),
            score=score,
            isPassed=score >= 70,
        )
    for _ in range(700):
        e = rng.choice(active)
        first = days_between(rng, START, END)
        length = rng.randint(1, 10)
        w.add(
            "employeeTimeOff",
            employeeId=e["id"],
            timeOffTypeId=rng.choice(time_off_types),
            startDate=first,
            endDate=first + timedelta(days=length - 1),
            hours=money(length * 8),
            status=weighted(rng, [("approved", 80), ("requested", 12), ("denied", 8)]),
            createdAt=at(min(first - timedelta(days=rng.randint(3, 40)), AS_OF), 11),
        )


def _fleet(w: World) -> None:
    rng = w.rng("fleet")
    field = [e for e in w.rows["employee"] if e["isTechnician"] and e["isActive"]]
    for number in range(1, 91):
        branch = rng.choice([b for b in w.rows["branch"] if b["isActive"]])
        make, model = rng.choice(TRUCKS)
        vehicle = w.add(
            "vehicle",
            branchId=branch["id"],
            unitNumber=f"T-{number:03d}",
            make=make,
            model=model,
            year=rng.randint(2014, 2026),
            licensePlate=f"{branch['state']}-{rng.randint(1000, 9999)}{rng.choice('ABCDEFGH')}",
            isActive=rng.random() < 0.93,
        )
        drivers = [e for e in field if e["branchId"] == branch["id"]]
        if drivers:
            driver = rng.choice(drivers)
            w.add(
                "vehicleAssignment",
                vehicleId=vehicle,
                employeeId=driver["id"],
                startDate=days_between(rng, date(2023, 1, 1), date(2026, 6, 30)),
                endDate=None,
            )
    for branch in w.rows["branch"]:
        for item in EQUIPMENT:
            w.add(
                "equipment",
                branchId=branch["id"],
                name=item,
                serialNumber=f"{branch['code']}-{len(w.rows['equipment']) + 1:04d}",
                calibrationDueOn=days_between(rng, date(2026, 1, 1), date(2027, 12, 31)),
                isActive=branch["isActive"],
            )
    for branch in (b for b in w.rows["branch"] if b["isActive"]):
        staff = [e for e in field if e["branchId"] == branch["id"]]
        day = START
        while day <= AS_OF:
            talk = w.add(
                "toolboxTalk",
                branchId=branch["id"],
                presenterId=rng.choice(staff)["id"],
                topic=rng.choice(TOOLBOX_TOPICS),
                heldOn=day,
                createdAt=at(day, 7),
            )
            for attendee in sample_upto(rng, staff, 4, 12):
                w.add("toolboxTalkAttendee", toolboxTalkId=talk, employeeId=attendee["id"])
            day += timedelta(days=28)


def generate_users(w: World) -> None:
    """Staff logins for most employees and portal logins for some customer contacts."""
    rng = w.rng("users")
    user_roles = {n: w.add("userRole", name=n, isStaff=s) for n, s in USER_ROLES}
    permissions = {c: w.add("permission", code=c, description=d) for c, d in PERMISSIONS}
    for role, codes in ROLE_PERMISSIONS.items():
        for code in codes:
            w.add("userRolePermission", userRoleId=user_roles[role], permissionId=permissions[code])
    role_codes = {r["id"]: r["code"] for r in w.rows["employeeRole"]}
    app_role = {"MGR": "Administrator", "SUP": "Supervisor", "DISP": "Dispatcher"}
    for e in w.rows["employee"]:
        code = role_codes[e["employeeRoleId"]]
        if code in TECHNICIAN_ROLES and rng.random() < 0.15:
            continue  # some technicians only use paper forms
        role = app_role.get(code) or ("Technician" if code in TECHNICIAN_ROLES else "Office")
        last_login = at(days_between(rng, date(2026, 6, 1), YESTERDAY), rng.randint(6, 18))
        w.add(
            "user",
            employeeId=e["id"],
            customerContactId=None,
            userRoleId=user_roles[role],
            username=e["email"].split("@")[0],
            email=e["email"],
            firstName=e["firstName"],
            lastName=e["lastName"],
            lastLoginAt=last_login if e["isActive"] else None,
            isActive=e["isActive"],
            createdAt=at(max(e["hireDate"], date(2024, 10, 1)), 9),
        )
    for contact in w.rows["customerContact"]:
        if rng.random() < 0.15:
            w.add(
                "user",
                employeeId=None,
                customerContactId=contact["id"],
                userRoleId=user_roles["Customer Portal"],
                username=f"portal{contact['id']}",
                email=contact["email"],
                firstName=contact["firstName"],
                lastName=contact["lastName"],
                lastLoginAt=at(days_between(rng, START, YESTERDAY), rng.randint(7, 20)),
                isActive=contact["isActive"],
                createdAt=contact["createdAt"],
            )
    for user in w.rows["user"]:
        if user["lastLoginAt"] is None:
            continue
        for _ in range(rng.randint(5, 35)):
            w.add(
                "userLogin",
                userId=user["id"],
                loggedInAt=at(days_between(rng, START, YESTERDAY), rng.randint(6, 20)),
                ipAddress=f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                userAgent=rng.choice(("Switchboard iOS 4.2", "Switchboard Android 4.1", "Chrome")),
                isSuccessful=rng.random() < 0.96,
            )
