"""The company's catalogue of services and its inspection and safety checklists.

Written as outlines (see outline.py). In checklists `*` marks a critical pass/fail
question, `-` an ordinary one and `#` a measured value.
"""

from __future__ import annotations

from .outline import Node, parse_outline

# category / code; name; hours; price; work order types that propose it / task steps
SERVICES = parse_outline("""
Inspection Services
  INSP-CRANE; Crane Annual Inspection; 4; 650; Inspection, Certification
    Review previous report
    Inspect structure and wire rope
    Function test safety devices
  INSP-OH; Overhead Crane Periodic Inspection; 3; 480; Inspection
    Inspect runway and end trucks
    Inspect hoist and hook
    Test limit switches
  INSP-FL; Forklift Annual Inspection; 1.5; 185; Inspection
    Inspect forks and mast
    Check hydraulics
    Test brakes and horn
  INSP-AWP; Aerial Lift Annual Inspection; 1.5; 210; Inspection
    Inspect platform and guardrails
    Test emergency lowering
  INSP-HST; Hoist Inspection; 1; 150; Inspection
    Inspect load chain
    Test brake and limits
  INSP-LEG; Legacy Crane Inspection; 3; 400;
    Inspect crane
Testing & Certification
  LT-CRANE; Crane Load Test; 6; 1450; Load Test, Certification
    Prepare test weights
    Perform 125% load test
    Issue load test certificate
  LT-HOIST; Hoist Load Test; 2; 420; Load Test
    Rig test load
    Perform load test
Preventive Maintenance
  PM-CRANE; Crane Preventive Maintenance; 5; 780; Preventive Maintenance
    Lubricate wire rope and sheaves
    Change hydraulic filters
    Adjust brakes
    Check fluid levels
  PM-FL; Forklift Preventive Maintenance; 2; 260; Preventive Maintenance
    Change engine oil
    Lubricate mast
    Check tire wear
Repair
  REP-ROPE; Wire Rope Replacement; 6; 1900; Repair
    Remove old rope
    Install and seat new rope
    Run in under load
  REP-BRAKE; Brake Repair; 3; 640; Repair, Emergency Call, Warranty
    Diagnose brake
    Replace brake components
    Test holding torque
  REP-HYD; Hydraulic Repair; 4; 920; Repair, Emergency Call, Warranty
    Locate leak
    Replace hose or seals
    Bleed and test system
  REP-ELEC; Electrical Troubleshooting; 3; 560; Repair, Emergency Call
    Check power supply
    Test controls and contactors
    Repair wiring
  REP-MAST; Forklift Mast Repair; 4; 880; Repair
    Inspect mast rollers
    Replace mast chains
    Adjust chain tension
Installation
  INST-JIB; Jib Crane Installation; 12; 4800; Installation
    Verify foundation
    Erect column and boom
    Commission and test
  INST-RWY; Runway Alignment; 8; 2600; Installation, Repair
    Survey runway
    Shim and align rails
    Record final survey
Training
  TRN-OPR; Operator Training Session; 4; 900; Training
    Classroom session
    Practical evaluation
Emergency
  EMERG; Emergency Call-Out; 3; 750; Emergency Call
    Make equipment safe
    Diagnose failure
""")

CHECKLISTS = {
    node.text: node.children
    for node in parse_outline("""
crane
  Structure
    * Boom and jib free of cracks, bends and corrosion
    - Welds and bolted connections secure
    - Outriggers and pads in good condition
  Hoist and Wire Rope
    * Wire rope free of broken wires, kinks and crushing
    * Hook and latch free of deformation and cracks
    * Hoist brake holds rated load
    - Sheaves and drums free of excessive wear
  Controls and Safety Devices
    * Load moment indicator functional
    * Anti-two-block device functional
    - Limit switches operate correctly
    - Load chart legible and in cab
  Operational Test
    - All motions operate smoothly
    # Hook throat opening (mm)
overhead
  Runway and Bridge
    - Runway rails aligned and secure
    - End trucks and wheels free of wear
    * Bridge girder free of cracks
  Hoist
    * Wire rope or load chain free of wear
    * Hook and latch free of deformation
    * Hoist brake holds rated load
  Controls
    - Pendant pushbuttons labelled and functional
    * Upper limit switch stops the hook
    - Warning horn and lights work
forklift
  Mast and Forks
    * Forks free of cracks and heel wear under 10%
    - Mast chains lubricated and adjusted
    - Carriage and load backrest secure
  Hydraulics
    - No hydraulic leaks
    * Lift and tilt cylinders hold load
  Safety Equipment
    - Horn and backup alarm work
    * Seat belt and overhead guard intact
    - Data plate legible
  Power and Drive
    * Service and parking brakes effective
    - Tires in serviceable condition
    - Battery or LPG system free of damage
    # Fork heel thickness (mm)
forklift-daily
  Walkaround
    - No visible leaks under the truck
    * Forks and chains undamaged
    - Tires and wheels undamaged
  Function Check
    - Horn works
    * Brakes stop the truck
    - Lift and tilt operate smoothly
aerial
  Platform
    * Guardrails and gate secure
    * Platform overload sensing works
  Chassis
    - Tires and wheels undamaged
    - No hydraulic leaks
    * Tilt alarm functional
  Emergency Systems
    * Emergency lowering works
    * Emergency stop buttons work
hoist
  Load Path
    * Load chain or rope free of wear and elongation
    * Hook latch present and working
    # Chain elongation (%)
  Mechanics and Controls
    * Brake holds rated load
    * Upper and lower limit switches work
    - Pendant controls labelled and functional
    - Trolley wheels and beam in good condition
rigging
  Structure
    * Structural members free of deformation
    * Welds free of cracks
  Markings and Hardware
    - Rated capacity marking legible
    * Shackles and pins secure
load-test
  Preparation
    - Test weights verified and documented
    # Test load (tons)
  Test
    * Load held 10 minutes without drift
    * Brake holds 125% of rated load
    * No deformation after test
""")
}
CHECKLISTS["crane-v1"] = CHECKLISTS["crane"][:2]

# code, name, asset category (None: any), active, checklist
INSPECTION_TEMPLATES = (
    ("INS-CR-ANN", "Annual Crane Inspection (ASME B30.5)", "Cranes", True, "crane"),
    ("INS-OH-PER", "Periodic Overhead Crane Inspection (ASME B30.2)", "Cranes", True, "overhead"),
    ("INS-FL-ANN", "Forklift Annual Inspection (OSHA 1910.178)", "Forklifts", True, "forklift"),
    ("INS-FL-DAY", "Forklift Daily Pre-Use Check", "Forklifts", True, "forklift-daily"),
    (
        "INS-AWP",
        "Aerial Work Platform Annual Inspection (ANSI A92)",
        "Aerial Work Platforms",
        True,
        "aerial",
    ),
    ("INS-HST", "Hoist Periodic Inspection (ASME B30.16)", "Hoists", True, "hoist"),
    ("INS-BTH", "Below-the-Hook Device Inspection (ASME B30.20)", "Rigging", True, "rigging"),
    ("INS-LT", "Load Test Certification", None, True, "load-test"),
    ("INS-CR-V1", "Crane Inspection (retired version)", "Cranes", False, "crane-v1"),
)

# name; active; required before work; work order types ("all") / questions
SAFETY_TEMPLATES = parse_outline("""
Job Hazard Analysis; yes; yes; all
  * Work area barricaded
  * PPE worn by all crew members
  * Overhead hazards identified
  - Ground conditions acceptable
  - Emergency exits and muster point known
  - Customer site orientation completed
Lift Plan Review; yes; yes; Load Test, Installation
  * Load weight verified
  * Rigging inspected and rated
  * Swing radius clear
  * Signal person designated
  * Wind speed within limits
Lockout/Tagout Verification; yes; yes; Repair, Preventive Maintenance, Emergency Call, Warranty
  * Energy sources identified
  * Locks and tags applied
  * Zero energy state verified
  - Crew briefed on isolation points
Forklift Pre-Operation Walkaround; no; no;
  - Area clear of pedestrians
  - Forks lowered when parked
""")


def question(node: Node) -> tuple[str, str, bool]:
    """(text, answer type, critical) of a checklist line."""
    marker, text = node.text[0], node.text[1:].strip()
    return text, "numeric" if marker == "#" else "pass_fail", marker == "*"
