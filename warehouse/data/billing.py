"""Quotes, invoices, payments and customer feedback."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

from . import words
from .world import AS_OF, START, Row, World, at, days_between, group_by, money, weighted

# Billed per hour on top of the flat service prices: premium time and travel.
HOURLY_RATES = {"OT": 172.5, "DT": 230.0, "TRV": 95.0, "STBY": 85.0, "ONCALL": 172.5}
QUOTES = 1500


Line = tuple[str, str, Decimal, Decimal]  # kind, description, quantity, unit price


class _Pricing:
    """Prices the lines of a work order's invoice from the rows made before."""

    def __init__(self, w: World) -> None:
        self.time_types = {t["id"]: t for t in w.rows["workTimeType"]}
        self.negotiated = {
            (r["customerId"], r["workTimeTypeId"]): r["hourlyRate"] for r in w.rows["customerRate"]
        }
        self.services_of = group_by(w.rows["service"], "workOrderId")
        self.parts_of = group_by(w.rows["workOrderPart"], "workOrderId")
        self.time_of = group_by((t for t in w.rows["workTime"] if t["workOrderId"]), "workOrderId")
        self.template_name = {t["id"]: t["name"] for t in w.rows["serviceTemplate"]}
        self.part_name = {p["id"]: p["name"] for p in w.rows["part"]}

    def lines(self, order: Row, customer: Row) -> list[Line]:
        lines: list[Line] = []
        for service in self.services_of.get(order["id"], []):
            lines.append(
                (
                    "service",
                    self.template_name[service["serviceTemplateId"]],
                    Decimal(1),
                    service["price"],
                )
            )
        for part in self.parts_of.get(order["id"], []):
            name = self.part_name[part["partId"]]
            lines.append(("part", name, Decimal(part["quantity"]), part["unitPrice"]))
        return lines + self._labor(order, customer)

    def _labor(self, order: Row, customer: Row) -> list[Line]:
        """Premium and travel time, billed per hour (at the customer's rate where agreed)."""
        hours: dict[int, Decimal] = {}
        for entry in self.time_of.get(order["id"], []):
            if self.time_types[entry["workTimeTypeId"]]["code"] in HOURLY_RATES:
                hours[entry["workTimeTypeId"]] = (
                    hours.get(entry["workTimeTypeId"], Decimal(0)) + entry["hours"]
                )
        lines: list[Line] = []
        for type_id, total_hours in sorted(hours.items()):
            kind = self.time_types[type_id]
            rate = self.negotiated.get((customer["id"], type_id)) or money(
                HOURLY_RATES[kind["code"]]
            )
            lines.append(("labor", f"{kind['name']} labor", total_hours, rate))
        return lines


def generate_billing(w: World) -> None:
    rng = w.rng("billing")
    customers = {c["id"]: c for c in w.rows["customer"]}
    terms = {t["id"]: t["days"] for t in w.rows["paymentTerm"]}
    tax = {t["state"]: t["rate"] for t in w.rows["taxRate"]}
    billable_types = {t["id"] for t in w.rows["workOrderType"] if t["isBillable"]}
    state_of = {loc["id"]: loc["state"] for loc in w.rows["customerLocation"]}
    pricing = _Pricing(w)
    for order in w.rows["workOrder"]:
        if order["status"] != "completed" or order["workOrderTypeId"] not in billable_types:
            continue
        issued = order["completedAt"].date() + timedelta(days=rng.randint(1, 5))
        if issued > AS_OF:
            continue
        customer = customers[order["customerId"]]
        lines = pricing.lines(order, customer)
        subtotal = sum((money(float(q * p)) for _, _, q, p in lines), Decimal(0))
        rate = Decimal(0) if customer["isTaxExempt"] else tax[state_of[order["customerLocationId"]]]
        tax_amount = money(float(subtotal * rate))
        due = issued + timedelta(days=terms[customer["paymentTermId"]])
        paid_on = issued + timedelta(days=rng.randint(0, terms[customer["paymentTermId"]] + 30))
        paid = rng.random() < 0.93 and paid_on <= AS_OF
        status = "paid" if paid else "overdue" if due < AS_OF else "sent"
        if rng.random() < 0.01:
            status, paid = "void", False
        invoice = w.add(
            "invoice",
            workOrderId=order["id"],
            customerId=customer["id"],
            invoiceNumber=f"INV-{len(w.rows['invoice']) + 1:06d}",
            status=status,
            issuedOn=issued,
            dueOn=due,
            subtotal=subtotal,
            taxAmount=tax_amount,
            total=subtotal + tax_amount,
            createdAt=at(issued, 9),
        )
        for kind_name, description, quantity, unit in lines:
            w.add(
                "invoiceLine",
                invoiceId=invoice,
                lineType=kind_name,
                description=description,
                quantity=quantity,
                unitPrice=unit,
                amount=money(float(quantity * unit)),
                createdAt=at(issued, 9),
            )
        if paid:
            w.add(
                "payment",
                invoiceId=invoice,
                paidOn=paid_on,
                amount=subtotal + tax_amount,
                method=weighted(rng, (("ach", 50), ("check", 30), ("card", 15), ("wire", 5))),
                referenceNumber=f"REF{rng.randint(100000, 999999)}",
                createdAt=at(paid_on, 16),
            )
        _feedback(w, rng, order)
    _quotes(w)


def _feedback(w: World, rng: random.Random, order: Row) -> None:
    """Some customers rate a billed work order a few days after it was completed."""
    if rng.random() < 0.3:
        submitted = order["completedAt"] + timedelta(days=rng.randint(1, 5))
        if submitted.date() <= AS_OF:
            rating = weighted(rng, ((5, 45), (4, 30), (3, 12), (2, 8), (1, 5)))
            w.add(
                "customerFeedback",
                workOrderId=order["id"],
                rating=rating,
                comment=rng.choice(words.FEEDBACK_COMMENTS) if rng.random() < 0.6 else None,
                submittedAt=submitted,
                createdAt=submitted,
            )


def _quotes(w: World) -> None:
    rng = w.rng("quotes")
    locations = [loc for loc in w.rows["customerLocation"] if loc["isActive"]]
    templates = [t for t in w.rows["serviceTemplate"] if t["isActive"]]
    orders_at = group_by(w.rows["workOrder"], "customerLocationId")
    for number in range(1, QUOTES + 1):
        location = rng.choice(locations)
        issued = days_between(rng, START, AS_OF)
        valid_until = issued + timedelta(days=30)
        status = weighted(rng, (("accepted", 45), ("declined", 25), ("sent", 30)))
        if status == "sent" and valid_until < AS_OF:
            status = "expired"
        later = [o for o in orders_at.get(location["id"], []) if o["createdAt"].date() > issued]
        order = later[0]["id"] if status == "accepted" and later else None
        quote = w.add(
            "quote",
            customerLocationId=location["id"],
            customerId=location["customerId"],
            workOrderId=order,
            quoteNumber=f"Q-{number:05d}",
            status=status,
            issuedOn=issued,
            validUntil=valid_until,
            total=Decimal(0),
            createdAt=at(issued, 10),
        )
        total = Decimal(0)
        for template in rng.sample(templates, rng.randint(1, 3)):
            quantity = Decimal(rng.randint(1, 4))
            amount = money(float(quantity * template["defaultPrice"]))
            total += amount
            w.add(
                "quoteLine",
                quoteId=quote,
                serviceTemplateId=template["id"],
                description=template["name"],
                quantity=quantity,
                unitPrice=template["defaultPrice"],
                amount=amount,
                createdAt=at(issued, 10),
            )
        w.row("quote", quote)["total"] = total
