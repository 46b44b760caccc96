"""Crews sent to work orders, their trips and equipment, and every hour of work time."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import date, datetime, timedelta

from . import words
from .people import TECHNICIAN_ROLES
from .work import branch_of_location, work_days
from .world import AS_OF, END, START, Row, World, at, days_between, money, one_decimal

CREW_SIZE = {
    "Installation": (3, 4),
    "Load Test": (2, 3),
    "Certification": (1, 2),
    "Inspection": (1, 2),
    "Training": (1, 1),
}
FIRST_PAY_PERIOD = date(2024, 10, 28)
TOOL_EQUIPMENT = ("Dillon Load Cell 50t", "Water Bag Test Weight Set", "Crosby Shackle Kit")


class Timesheet:
    """Books work time: one entry per employee, work time type and stretch of hours."""

    def __init__(self, w: World, rng: random.Random) -> None:
        self.w, self.rng = w, rng
        self.types = {t["code"]: t["id"] for t in w.rows["workTimeType"]}
        self.holidays = {h["date"] for h in w.rows["holiday"]}

    def book(
        self,
        employee: Row,
        code: str,
        start: datetime,
        hours: float,
        approver: int,
        order: Row | None = None,
        crew: int | None = None,
    ) -> None:
        day = start.date()
        # Older time is approved; the last ten days mostly wait for their supervisor.
        approved = self.rng.random() < (0.98 if day <= AS_OF - timedelta(days=10) else 0.3)
        quarters = money(round(hours * 4) / 4 or 0.25)
        end = start + timedelta(hours=float(quarters))
        self.w.add(
            "workTime",
            workOrderId=order["id"] if order else None,
            employeeId=employee["id"],
            workTimeTypeId=self.types[code],
            crewId=crew,
            payrollPeriodId=(day - FIRST_PAY_PERIOD).days // 14 + 1,
            approvedByUserId=approver if approved else None,
            date=day,
            startTime=start,
            endTime=end,
            hours=quarters,
            notes=self.rng.choice(words.WORK_TIME_NOTES) if self.rng.random() < 0.15 else None,
            isApproved=approved,
            createdAt=end,
        )

    def segments(self, day: date, hours: float, on_call: bool) -> list[tuple[str, float]]:
        """How a day's hours on site split into work time types."""
        if day in self.holidays or day.weekday() == 6:
            return [("DT", hours)]
        if day.weekday() == 5:
            return [("OT", hours)]
        if on_call:
            return [("ONCALL", hours)]
        return [("REG", min(hours, 8.0))] + ([("OT", hours - 8.0)] if hours > 8 else [])


def generate_crews(w: World) -> None:
    rng = w.rng("crews")
    sheet = Timesheet(w, rng)
    branch_of = branch_of_location(w)
    role_code = {r["id"]: r["code"] for r in w.rows["employeeRole"]}
    field: dict[int, list[Row]] = {}
    for e in w.rows["employee"]:
        if role_code[e["employeeRoleId"]] in TECHNICIAN_ROLES:
            field.setdefault(e["branchId"], []).append(e)
    user_of = {u["employeeId"]: u["id"] for u in w.rows["user"] if u["employeeId"]}
    admin_role = next(r["id"] for r in w.rows["userRole"] if r["name"] == "Administrator")
    admins = [u["id"] for u in w.rows["user"] if u["userRoleId"] == admin_role]
    vehicles = _by_branch(v for v in w.rows["vehicle"] if v["isActive"])
    tools = _by_branch(e for e in w.rows["equipment"] if e["name"] in TOOL_EQUIPMENT)
    type_name = {t["id"]: t["name"] for t in w.rows["workOrderType"]}
    for order in w.rows["workOrder"]:
        if order["status"] == "cancelled":
            continue
        kind = type_name[order["workOrderTypeId"]]
        branch = branch_of[order["customerLocationId"]]
        first_day, last_day = order["scheduledStart"].date(), order["scheduledEnd"].date()
        eligible = [
            e
            for e in field[branch]
            if e["hireDate"] <= first_day and (e["terminationDate"] or END) > last_day
        ]
        size = rng.randint(*CREW_SIZE.get(kind, (1, 2)))
        members = rng.sample(eligible, min(len(eligible), size))
        if not members:
            continue
        leads = [m for m in members if role_code[m["employeeRoleId"]] == "LEAD"] or members[:1]
        crew = _crew(w, order, members, leads[0])
        if vehicles.get(branch) and rng.random() < 0.8:
            w.add("crewVehicle", crewId=crew, vehicleId=rng.choice(vehicles[branch]))
        if kind in ("Load Test", "Certification") and order["startedAt"]:
            for tool in rng.sample(tools[branch], rng.randint(1, 2)):
                _checkout(w, order, tool, leads[0])
        approver = user_of.get(order["supervisorId"]) or rng.choice(admins)
        _on_site(sheet, rng, order, crew, members, approver)
    _time_without_orders(sheet, rng, field, user_of, admins)


def _by_branch(rows: Iterable[Row]) -> dict[int, list[int]]:
    ids: dict[int, list[int]] = {}
    for row in rows:
        ids.setdefault(row["branchId"], []).append(row["id"])
    return ids


def _crew(w: World, order: Row, members: list[Row], lead: Row) -> int:
    crew = w.add(
        "crew",
        workOrderId=order["id"],
        createdByUserId=order["createdByUserId"],
        name=f"Crew {order['workOrderNumber']}",
        createdAt=order["createdAt"],
    )
    assigned = order["createdAt"] + timedelta(hours=1)
    for member in members:
        w.add(
            "employeeCrew",
            crewId=crew,
            employeeId=member["id"],
            isLead=member is lead,
            assignedAt=assigned,
            createdAt=assigned,
        )
    return crew


def _checkout(w: World, order: Row, tool: int, lead: Row) -> None:
    taken = order["startedAt"] - timedelta(hours=1)
    w.add(
        "equipmentCheckout",
        workOrderId=order["id"],
        equipmentId=tool,
        employeeId=lead["id"],
        checkedOutAt=taken,
        returnedAt=order["completedAt"] + timedelta(hours=2) if order["completedAt"] else None,
        createdAt=taken,
    )


def _on_site(
    sheet: Timesheet, rng: random.Random, order: Row, crew: int, members: list[Row], approver: int
) -> None:
    """Each day on site: the crew's trip there and every member's hours."""
    days = work_days(order)
    per_day = min(max(float(order["estimatedHours"]) / max(len(days), 1), 1.5), 12.0)
    for index, day in enumerate(days):
        start: datetime = order["startedAt"] if index == 0 else at(day, 7)
        _dispatch(sheet.w, rng, order, crew, start, per_day)
        on_call = order["isEmergency"] and start.hour >= 13
        for member in members:
            hours = per_day * rng.uniform(0.85, 1.15)
            if index == 0 and rng.random() < 0.5:
                travel = rng.uniform(0.5, 2.5)
                sheet.book(
                    member, "TRV", start - timedelta(hours=travel), travel, approver, order, crew
                )
            clock = start
            for code, length in sheet.segments(day, hours, on_call):
                sheet.book(member, code, clock, length, approver, order, crew)
                clock += timedelta(hours=length)


def _dispatch(
    w: World, rng: random.Random, order: Row, crew: int, start: datetime, hours: float
) -> None:
    dispatched = start - timedelta(minutes=rng.randint(30, 120))
    w.add(
        "dispatch",
        workOrderId=order["id"],
        crewId=crew,
        dispatchedAt=dispatched,
        arrivedAt=start,
        departedAt=start + timedelta(hours=hours) if start.date() < AS_OF else None,
        travelMiles=one_decimal(rng.uniform(4, 140)),
        createdAt=dispatched,
    )


def _time_without_orders(
    sheet: Timesheet,
    rng: random.Random,
    field: dict[int, list[Row]],
    user_of: dict[int, int],
    admins: list[int],
) -> None:
    """Shop, training and holiday hours, which belong to no work order."""
    staff = [e for people in field.values() for e in people]
    for _ in range(3500):
        day = days_between(rng, START, AS_OF)
        if day.weekday() >= 5 or day in sheet.holidays:
            continue
        active = [e for e in rng.sample(staff, 8) if _employed(e, day)]
        if not active:
            continue
        employee = active[0]
        approver = user_of.get(employee["supervisorId"]) or rng.choice(admins)
        code = "SHOP" if rng.random() < 0.7 else "TRN"
        sheet.book(employee, code, at(day, 7), rng.uniform(2, 8), approver)
    for day in sorted(sheet.holidays):
        for employee in staff:
            if _employed(employee, day) and employee["employmentType"] == "full_time":
                approver = user_of.get(employee["supervisorId"]) or rng.choice(admins)
                sheet.book(employee, "HOL", at(day, 8), 8.0, approver)


def _employed(employee: Row, day: date) -> bool:
    return employee["hireDate"] <= day and (employee["terminationDate"] or END) > day
