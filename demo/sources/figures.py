"""Diagrams used in the manual: labelled boxes, arrows and captions in pixels."""

from typing import Any

BLUE = (196, 218, 245)
AMBER = (255, 226, 150)
GREEN = (194, 232, 194)
GREY = (218, 218, 218)
RED = (246, 196, 196)
TEAL = (190, 228, 226)


def box(x: int, y: int, w: int, h: int, label: str, fill: tuple[int, int, int]) -> dict:
    return {"x": x, "y": y, "w": w, "h": h, "label": label, "fill": fill}


FIGURES: dict[str, dict[str, Any]] = {
    # Work order statuses: the happy path on top, the side states below.
    "work_order_status_flow": {
        "width": 760,
        "height": 290,
        "boxes": [
            box(30, 60, 180, 58, "SCHEDULED", BLUE),
            box(290, 60, 180, 58, "IN PROGRESS", AMBER),
            box(550, 60, 180, 58, "COMPLETED", GREEN),
            box(30, 200, 180, 58, "CANCELLED", RED),
            box(290, 200, 180, 58, "ON HOLD", GREY),
        ],
        "arrows": [
            (210, 89, 290, 89),
            (470, 89, 550, 89),
            (120, 118, 120, 200),
            (355, 118, 355, 200),
            (405, 200, 405, 118),
        ],
        "labels": [(30, 20, "WORK ORDER STATUS FLOW")],
    },
    # Template side above, the inspection as performed below.
    "inspection_structure": {
        "width": 740,
        "height": 300,
        "boxes": [
            box(20, 50, 160, 60, "TEMPLATE", BLUE),
            box(290, 50, 160, 60, "SECTION", BLUE),
            box(560, 50, 160, 60, "QUESTION", BLUE),
            box(20, 200, 160, 60, "INSPECTION", AMBER),
            box(290, 200, 160, 60, "ANSWER", AMBER),
            box(560, 200, 160, 60, "ACTION\nITEM", RED),
        ],
        "arrows": [
            (180, 80, 290, 80),
            (450, 80, 560, 80),
            (100, 110, 100, 200),
            (640, 110, 640, 150, False),
            (640, 150, 370, 150, False),
            (370, 150, 370, 200),
            (180, 230, 290, 230),
            (450, 230, 560, 230),
        ],
        "labels": [(20, 18, "TEMPLATE SIDE"), (20, 272, "PERFORMED ON A WORK ORDER")],
    },
    # One crew day on site as recorded by dispatch and time entry.
    "dispatch_day": {
        "width": 820,
        "height": 200,
        "boxes": [
            box(20, 60, 130, 60, "DISPATCHED", BLUE),
            box(182, 60, 130, 60, "ARRIVED", TEAL),
            box(344, 60, 130, 60, "SAFETY\nCHECK", AMBER),
            box(506, 60, 130, 60, "WORK", GREEN),
            box(668, 60, 130, 60, "DEPARTED", GREY),
        ],
        "arrows": [
            (150, 90, 182, 90),
            (312, 90, 344, 90),
            (474, 90, 506, 90),
            (636, 90, 668, 90),
        ],
        "labels": [
            (20, 20, "ONE CREW DAY ON SITE"),
            (20, 140, "TRAVEL BOOKED AS TRV"),
            (344, 166, "15 MIN BEFORE START"),
            (506, 140, "REG / OT / DT / ONCALL"),
        ],
    },
}
