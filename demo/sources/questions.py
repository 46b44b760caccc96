# ruff: noqa: RUF001
"""Retrieval questions over the corpus.

Each question lists every document that answers it. `evidence` (not published) names, per
document, strings that must appear in that document's text; the build checks them, and
checks that every answer appears in at least one relevant document.
"""

TYPES = (
    "factual",
    "first_name_only",
    "section_scoped",
    "cross_document",
    "relationship",
    "manual",
    "policy",
    "multi_hop",
)

QUESTIONS: list[dict] = []


def q(question, kind, documents, sections=(), answers=(), evidence=None):
    entry = {"question": question, "relevant_documents": list(documents)}
    if sections:
        entry["relevant_sections"] = list(sections)
    if answers:
        entry["answers"] = list(answers)
    entry["type"] = kind
    if evidence:
        entry["evidence"] = evidence
    QUESTIONS.append(entry)


# --- factual ------------------------------------------------------------------------------
q(
    "Which company does Alexis Torres work for now?",
    "factual",
    ["alexis_torres.pdf"],
    ["Meridian Freight Systems - Staff Platform Engineer"],
    ["Meridian Freight Systems"],
)
q(
    "How much data did Project Atlas move to AWS?",
    "factual",
    ["alexis_torres.pdf", "sarah_chen.docx"],
    [
        "TechCorp - Cloud Infrastructure Lead",
        "TechCorp, San Francisco, CA",
    ],
    ["14 TB"],
    {
        "alexis_torres.pdf": ["14 TB", "Project Atlas"],
        "sarah_chen.docx": ["14 TB", "Project Atlas"],
    },
)
q(
    "When did Sarah Chen join TechCorp?",
    "factual",
    ["sarah_chen.docx"],
    ["TechCorp, San Francisco, CA"],
    ["August 2019"],
)
q(
    "What was Dana Whitfield's job at Sabine Ridge Refining?",
    "factual",
    ["dana_whitfield.pdf"],
    ["Sabine Ridge Refining - Safety Specialist"],
    ["Safety Specialist"],
)
q(
    "How many inspections a year does Marcus Bell perform?",
    "factual",
    ["marcus_bell.txt"],
    ["INSPECTION EXPERIENCE"],
    ["about 250 inspections a year"],
)
q(
    "By how much did Project Tidewater reduce the day-ahead forecast error?",
    "factual",
    ["alexis_torres.pdf", "will_patterson.docx"],
    [],
    ["7.9%", "4.6% MAPE"],
    {"alexis_torres.pdf": ["7.9%", "4.6%"], "will_patterson.docx": ["7.9%", "4.6%"]},
)
q(
    "Where did Priya Raman earn her master's degree?",
    "factual",
    ["priya_raman.html"],
    ["Education & Certifications"],
    ["M.S. Data Science, Rice University"],
)
q(
    "How large did Maria Delgado grow the Houston branch while she was branch manager?",
    "factual",
    ["maria_delgado.docx"],
    ["Switchboard Lifting Services, Houston, TX"],
    ["from 38 to 71 employees"],
)
q(
    "What is Grace Adeyemi's current job title?",
    "factual",
    ["grace_adeyemi.html"],
    ["Dispatch Supervisor – Switchboard Lifting Services, Atlanta, GA"],
    ["Dispatch Supervisor"],
)
q(
    "Which forklift models does the Kestrel retrofit kit support?",
    "factual",
    ["mark_owens.md"],
    ["Staff Robotics Software Engineer (January 2021 – present)"],
    ["Toyota 8FBE20U", "Crown FC 5200"],
)
q(
    "What availability did the RouteWise planning API reach in 2024?",
    "factual",
    ["daniel_reyes.md"],
    ["Meridian Freight Systems – Senior Site Reliability Engineer"],
    ["99.9%"],
)
q(
    "How many pallet moves did the 2023 Kestrel pilot complete?",
    "factual",
    ["kevin_mahoney.txt"],
    ["EMPLOYMENT"],
    ["41,000 autonomous pallet moves"],
)

# --- first name only ----------------------------------------------------------------------
q(
    "What does Alexis know about Kubernetes?",
    "first_name_only",
    ["alexis_torres.pdf"],
    ["Skills", "Certifications"],
    ["Kubernetes", "Certified Kubernetes Administrator (CKA)"],
)
q(
    "Kevin's certifications",
    "first_name_only",
    ["kevin_mahoney.txt"],
    ["CERTIFICATIONS"],
    [
        "Project Management Professional (PMP)",
        "Certified Scrum Product Owner (CSPO)",
        "AWS Certified Cloud Practitioner",
    ],
)
q(
    "What crane operator license does Bob hold?",
    "first_name_only",
    ["bob_kessler.md"],
    ["Licenses"],
    ["NCCCO Mobile Crane Operator (Telescopic Boom, Large)"],
)
q(
    "Where is Rosa based?",
    "first_name_only",
    ["rosa_jimenez.pdf", "nina_kowalski.txt", "forklift_safety.txt"],
    [],
    ["Phoenix"],
    {
        "rosa_jimenez.pdf": ["Phoenix, AZ"],
        "nina_kowalski.txt": ["Rosa Jimenez, crew lead at the Phoenix branch"],
        "forklift_safety.txt": ["Rosa Jimenez, Crew Lead, Forklift Service (Phoenix branch)"],
    },
)
q(
    "What does Alex work on?",
    "first_name_only",
    ["alex_romero.docx"],
    ["Switchboard Lifting Services – Senior Mobile Developer"],
    ["Switchboard Mobile 4.0", "dispatch board"],
)
q(
    "What did Will build for Project Lumen?",
    "first_name_only",
    ["will_patterson.docx", "sarah_chen.docx"],
    ["Senior Machine Learning Engineer, TechCorp", "Project Lumen (TechCorp)"],
    ["churn-risk model"],
    {
        "will_patterson.docx": ["churn-risk model", "Project Lumen"],
        "sarah_chen.docx": ["Will Patterson", "churn-risk model"],
    },
)
q(
    "Mark's patents",
    "first_name_only",
    ["mark_owens.md", "james_whitaker.html"],
    ["Talks and Patents"],
    ["reservation-based traffic control of mobile robots"],
    {
        "mark_owens.md": ["Patent application"],
        "james_whitaker.html": ["Mark Owens", "patent application"],
    },
)
q(
    "Which Sarah was the backend lead of the FHIR API project?",
    "first_name_only",
    ["sarah_okafor.pdf", "kevin_mahoney.txt", "daniel_reyes.md"],
    ["Project Harbor"],
    ["Sarah Okafor"],
    {
        "sarah_okafor.pdf": ["Backend lead of Project Harbor"],
        "kevin_mahoney.txt": ["backend lead Sarah Okafor"],
        "daniel_reyes.md": ["Sarah Okafor", "HL7 FHIR API"],
    },
)
q(
    "What is James's role at Switchboard Lifting Services?",
    "first_name_only",
    ["james_smith.md"],
    ["Switchboard Lifting Services – Lead Software Engineer"],
    ["Lead Software Engineer"],
)
q(
    "Dana's certifications",
    "first_name_only",
    ["dana_whitfield.pdf"],
    ["Certifications"],
    [
        "Construction Health and Safety Technician (CHST)",
        "NCCCO Signal Person",
        "OSHA 500 Trainer Course for Construction",
    ],
)
q(
    "What did Priya build with Maria?",
    "first_name_only",
    ["priya_raman.html", "maria_delgado.docx"],
    [],
    ["overtime dashboard"],
    {
        "priya_raman.html": ["overtime dashboard with Maria Delgado"],
        "maria_delgado.docx": ["With Priya Raman I built the weekly overtime dashboard"],
    },
)
q(
    "Grace's achievements",
    "first_name_only",
    ["grace_adeyemi.html"],
    ["Achievements"],
    ["Dispatcher of the Year", "Zero missed emergency call-outs"],
)
q(
    "Which programs does Nina use for drive tuning?",
    "first_name_only",
    ["nina_kowalski.txt"],
    ["Engineering Skills"],
    ["MATLAB and Simulink"],
)

# --- section scoped -----------------------------------------------------------------------
q(
    "Alexis skills section only",
    "section_scoped",
    ["alexis_torres.pdf"],
    ["Skills"],
    ["Python, Go, Bash, SQL", "Kubernetes, Docker, Helm, Argo CD", "Terraform, Packer"],
)
q(
    "Sarah Chen technical expertise section",
    "section_scoped",
    ["sarah_chen.docx"],
    ["Technical Expertise", "Languages", "Data Platforms", "Databases", "Cloud"],
    ["Apache Spark", "Snowflake", "Oracle Database", "Scala"],
)
q(
    "Kevin's industry experience",
    "section_scoped",
    ["kevin_mahoney.txt"],
    ["INDUSTRY EXPERIENCE"],
    ["Healthcare and health insurance (7 years)", "Robotics, warehousing and logistics (4 years)"],
)
q(
    "Show only the Core Competencies of James Smith",
    "section_scoped",
    ["james_smith.md"],
    ["Core Competencies"],
    ["Kubernetes (CKA certified)", "React Native and offline-first mobile design"],
)
q(
    "Education section of Will Patterson's resume",
    "section_scoped",
    ["will_patterson.docx"],
    ["Education"],
    ["B.S. Statistics, University of Washington, 2014"],
)
q(
    "Marcus Bell equipment expertise section",
    "section_scoped",
    ["marcus_bell.txt"],
    ["EQUIPMENT EXPERTISE"],
    ["Manitowoc MLC300", "Konecranes CXT", "Grove GMK5250L"],
)
q(
    "What's Sarah Okafor's background? Summary of qualifications only",
    "section_scoped",
    ["sarah_okafor.pdf"],
    ["Summary of Qualifications"],
    ["Ten years building backend services in Java and Python"],
)
q(
    "Maria Delgado's core competencies",
    "section_scoped",
    ["maria_delgado.docx"],
    ["Core Competencies"],
    ["Labor cost control", "Crane, hoist and forklift inspection programs"],
)
q(
    "Rosa technical skills section",
    "section_scoped",
    ["rosa_jimenez.pdf"],
    ["Technical Skills"],
    ["Propane (LPG) fuel systems and regulators", "10% limit"],
)
q(
    "Work history of Sarah Chen, nothing else",
    "section_scoped",
    ["sarah_chen.docx"],
    ["Work History", "TechCorp, San Francisco, CA", "Brightwater Health, Boston, MA"],
    ["Senior Data Engineer", "Data Analyst, then Data Engineer"],
)
q(
    "Only the certifications section of Daniel Reyes",
    "section_scoped",
    ["daniel_reyes.md"],
    ["Certifications"],
    [
        "Certified Kubernetes Administrator (CKA), 2019",
        "Microsoft Certified: Azure Administrator Associate, 2020",
    ],
)
q(
    "Priya Raman skills table",
    "section_scoped",
    ["priya_raman.html"],
    ["Skills"],
    ["Power BI, Looker, Tableau", "MariaDB, PostgreSQL, Snowflake"],
)

# --- cross document -----------------------------------------------------------------------
_python = [
    "alexis_torres.pdf",
    "sarah_chen.docx",
    "james_smith.md",
    "james_whitaker.html",
    "will_patterson.docx",
    "priya_raman.html",
    "mark_owens.md",
    "nina_kowalski.txt",
    "sarah_okafor.pdf",
    "daniel_reyes.md",
    "alex_romero.docx",
]
q(
    "All Python skills",
    "cross_document",
    _python,
    [
        "Skills",
        "Languages",
        "Core Competencies",
        "Skills & Tools",
        "Areas of Expertise",
        "Engineering Skills",
        "Technical Skills",
        "Expertise",
        "Tech Stack",
    ],
    [
        "Alexis Torres",
        "Sarah Chen",
        "James Smith",
        "James Whitaker",
        "Will Patterson",
        "Priya Raman",
        "Mark Owens",
        "Nina Kowalski",
        "Sarah Okafor",
        "Daniel Reyes",
        "Alex Romero",
    ],
    {name: ["Python"] for name in _python},
)
_k8s = [
    "alexis_torres.pdf",
    "james_smith.md",
    "james_whitaker.html",
    "sarah_okafor.pdf",
    "daniel_reyes.md",
]
q(
    "Who knows Kubernetes?",
    "cross_document",
    _k8s,
    [],
    ["Alexis Torres", "James Smith", "James Whitaker", "Sarah Okafor", "Daniel Reyes"],
    {name: ["Kubernetes"] for name in _k8s},
)
q(
    "Which people hold the Certified Kubernetes Administrator certification?",
    "cross_document",
    ["alexis_torres.pdf", "james_smith.md", "daniel_reyes.md"],
    ["Certifications"],
    ["Alexis Torres", "James Smith", "Daniel Reyes"],
    {
        n: ["Certified Kubernetes Administrator"]
        for n in ["alexis_torres.pdf", "james_smith.md", "daniel_reyes.md"]
    },
)
q(
    "Who has worked with Snowflake?",
    "cross_document",
    ["sarah_chen.docx", "will_patterson.docx", "priya_raman.html"],
    [],
    ["Sarah Chen", "Will Patterson", "Priya Raman"],
    {n: ["Snowflake"] for n in ["sarah_chen.docx", "will_patterson.docx", "priya_raman.html"]},
)
q(
    "Who holds an NCCCO certification?",
    "cross_document",
    ["maria_delgado.docx", "dana_whitfield.pdf", "marcus_bell.txt", "bob_kessler.md"],
    ["Certifications & Training", "Certifications", "CERTIFICATIONS", "Licenses"],
    ["Maria Delgado", "Dana Whitfield", "Marcus Bell", "Bob Kessler"],
    {
        "maria_delgado.docx": ["NCCCO Rigger Level I (2012"],
        "dana_whitfield.pdf": ["NCCCO Signal Person, 2020"],
        "marcus_bell.txt": ["NCCCO Crane Inspector (Mobile and Overhead)"],
        "bob_kessler.md": ["NCCCO Rigger Level I, 2019"],
    },
)
q(
    "Who has experience with Microsoft Azure?",
    "cross_document",
    ["sarah_okafor.pdf", "daniel_reyes.md"],
    [],
    ["Sarah Okafor", "Daniel Reyes"],
    {n: ["Microsoft Azure"] for n in ["sarah_okafor.pdf", "daniel_reyes.md"]},
)
q(
    "Which people studied at the University of Washington?",
    "cross_document",
    ["alexis_torres.pdf", "will_patterson.docx"],
    ["Education"],
    ["Alexis Torres", "Will Patterson"],
    {n: ["University of Washington"] for n in ["alexis_torres.pdf", "will_patterson.docx"]},
)
_houston = [
    "james_smith.md",
    "priya_raman.html",
    "maria_delgado.docx",
    "dana_whitfield.pdf",
    "bob_kessler.md",
    "alex_romero.docx",
]
q(
    "Which people are based in Houston?",
    "cross_document",
    _houston,
    [],
    ["James Smith", "Priya Raman", "Maria Delgado", "Dana Whitfield", "Bob Kessler", "Alex Romero"],
    {n: ["Houston, TX"] for n in _houston},
)
q(
    "Which people have used Terraform?",
    "cross_document",
    ["alexis_torres.pdf", "sarah_chen.docx", "james_smith.md", "daniel_reyes.md"],
    [],
    ["Alexis Torres", "Sarah Chen", "James Smith", "Daniel Reyes"],
    {
        n: ["Terraform"]
        for n in ["alexis_torres.pdf", "sarah_chen.docx", "james_smith.md", "daniel_reyes.md"]
    },
)
q(
    "Who speaks Spanish?",
    "cross_document",
    ["rosa_jimenez.pdf", "dana_whitfield.pdf"],
    [],
    ["Rosa Jimenez", "Dana Whitfield"],
    {
        "rosa_jimenez.pdf": ["English and Spanish (native)"],
        "dana_whitfield.pdf": ["bilingual safety training in English and Spanish"],
    },
)
q(
    "Which people are certified in First Aid / CPR / AED?",
    "cross_document",
    ["maria_delgado.docx", "dana_whitfield.pdf"],
    [],
    ["Maria Delgado", "Dana Whitfield"],
    {
        "maria_delgado.docx": ["First Aid / CPR / AED (current)"],
        "dana_whitfield.pdf": ["First Aid / CPR / AED Instructor"],
    },
)
q(
    "Which forklift brands appear across the resumes?",
    "cross_document",
    ["mark_owens.md", "rosa_jimenez.pdf"],
    [],
    ["Toyota", "Crown", "Hyster", "Yale", "Caterpillar"],
    {
        "mark_owens.md": ["Toyota 8FBE20U", "Crown FC 5200"],
        "rosa_jimenez.pdf": ["Toyota, Hyster, Yale, Crown and Caterpillar forklifts"],
    },
)

# --- relationship -------------------------------------------------------------------------
q(
    "Who worked with Alexis Torres at TechCorp?",
    "relationship",
    ["alexis_torres.pdf", "sarah_chen.docx", "james_smith.md"],
    [],
    ["Sarah Chen", "James Smith"],
    {
        "alexis_torres.pdf": ["Sarah Chen", "James Smith", "TechCorp"],
        "sarah_chen.docx": ["Alexis Torres", "TechCorp"],
        "james_smith.md": ["Alexis Torres", "TechCorp"],
    },
)
q(
    "Who did Alexis work with at Cedar Loop Analytics?",
    "relationship",
    ["alexis_torres.pdf", "will_patterson.docx"],
    [],
    ["Will Patterson"],
    {
        "alexis_torres.pdf": ["Will Patterson", "Cedar Loop Analytics"],
        "will_patterson.docx": ["Alexis Torres", "Cedar Loop Analytics"],
    },
)
q(
    "Who worked on Project Lumen?",
    "relationship",
    ["sarah_chen.docx", "will_patterson.docx", "priya_raman.html"],
    [],
    ["Sarah Chen", "Will Patterson", "Priya Raman"],
    {n: ["Project Lumen"] for n in ["sarah_chen.docx", "will_patterson.docx", "priya_raman.html"]},
)
q(
    "Who were Kevin Mahoney's colleagues on Project Harbor?",
    "relationship",
    ["kevin_mahoney.txt", "sarah_okafor.pdf", "daniel_reyes.md"],
    [],
    ["Sarah Okafor", "Daniel Reyes"],
    {
        "kevin_mahoney.txt": ["Sarah Okafor", "Daniel Reyes"],
        "sarah_okafor.pdf": ["Kevin Mahoney"],
        "daniel_reyes.md": ["Kevin Mahoney"],
    },
)
q(
    "Who worked on the Bayport Terminal crane rebuild?",
    "relationship",
    ["maria_delgado.docx", "marcus_bell.txt", "bob_kessler.md"],
    [],
    ["Maria Delgado", "Marcus Bell", "Bob Kessler"],
    {
        n: ["Bayport Terminal crane rebuild"]
        for n in ["maria_delgado.docx", "marcus_bell.txt", "bob_kessler.md"]
    },
)
q(
    "Whom did James Whitaker hire onto the RouteWise team?",
    "relationship",
    ["james_whitaker.html", "daniel_reyes.md", "alexis_torres.pdf"],
    [],
    ["Daniel Reyes", "Alexis Torres"],
    {
        "james_whitaker.html": ["Hired Daniel Reyes", "Alexis Torres"],
        "daniel_reyes.md": ["James Whitaker"],
        "alexis_torres.pdf": ["James Whitaker"],
    },
)
q(
    "Who did James Smith work with at Bayou Digital?",
    "relationship",
    ["james_smith.md", "alex_romero.docx"],
    [],
    ["Alex Romero"],
    {
        "james_smith.md": ["Alex Romero", "FleetPulse"],
        "alex_romero.docx": ["James Smith", "FleetPulse"],
    },
)
q(
    "Which colleagues of Mark Owens worked on Project Kestrel?",
    "relationship",
    ["mark_owens.md", "nina_kowalski.txt", "kevin_mahoney.txt"],
    [],
    ["Nina Kowalski", "Kevin Mahoney"],
    {
        "mark_owens.md": ["Nina Kowalski", "Kevin Mahoney"],
        "nina_kowalski.txt": ["Mark Owens", "Kevin Mahoney"],
        "kevin_mahoney.txt": ["Mark Owens", "Nina Kowalski"],
    },
)
q(
    "Who co-developed the Lift Plan Review checklist?",
    "relationship",
    ["dana_whitfield.pdf", "marcus_bell.txt", "crane_and_rigging_safety.html"],
    ["The Lift Plan Review"],
    ["Dana Whitfield", "Marcus Bell"],
    {
        "dana_whitfield.pdf": ["Lift Plan Review checklist with lead inspector Marcus Bell"],
        "marcus_bell.txt": ["Lift Plan Review checklist with Safety Coordinator Dana Whitfield"],
        "crane_and_rigging_safety.html": ["developed in 2020 by Marcus Bell and Dana Whitfield"],
    },
)
q(
    "Who did Sarah Chen work with at Brightwater Health?",
    "relationship",
    ["sarah_chen.docx", "kevin_mahoney.txt"],
    [],
    ["Kevin Mahoney"],
    {
        "sarah_chen.docx": ["Kevin Mahoney", "Brightwater Health"],
        "kevin_mahoney.txt": ["Sarah Chen", "Brightwater Health"],
    },
)
q(
    "Did Sarah Chen and Sarah Okafor overlap at Brightwater Health?",
    "relationship",
    ["sarah_chen.docx", "sarah_okafor.pdf"],
    [],
    ["July 2019", "September 2019"],
    {
        "sarah_chen.docx": ["June 2016 – July 2019"],
        "sarah_okafor.pdf": ["September 2019 - present"],
    },
)
q(
    "Who piloted the new dispatch board with Alex Romero?",
    "relationship",
    ["alex_romero.docx", "grace_adeyemi.html"],
    [],
    ["Grace Adeyemi"],
    {"alex_romero.docx": ["Grace Adeyemi"], "grace_adeyemi.html": ["Alex Romero"]},
)
q(
    "Which Switchboard Lifting Services employee worked with Halcyon Robotics"
    " on the Kestrel pilot?",
    "relationship",
    ["nina_kowalski.txt", "rosa_jimenez.pdf"],
    [],
    ["Rosa Jimenez"],
    {"nina_kowalski.txt": ["Rosa Jimenez"], "rosa_jimenez.pdf": ["Nina Kowalski", "Kestrel"]},
)

# --- manual -------------------------------------------------------------------------------
q(
    "What are the possible statuses of a work order?",
    "manual",
    ["work_orders.pdf"],
    ["Statuses"],
    ["Scheduled", "In Progress", "On Hold", "Completed", "Cancelled"],
)
q(
    "Can a work order that is already in progress be cancelled?",
    "manual",
    ["work_orders.pdf"],
    ["Cancelled"],
    ["Only a scheduled work order can be cancelled", "put the work order on hold instead"],
)
q(
    "Which inspection template is used for overhead bridge cranes?",
    "manual",
    ["inspections.docx", "assets_cranes_forklifts.txt"],
    ["Standard Templates", "Asset Categories and Types"],
    ["INS-OH-PER"],
    {
        "inspections.docx": ["Periodic Overhead Crane Inspection (ASME B30.2)", "Overhead bridge"],
        "assets_cranes_forklifts.txt": ["Overhead Bridge Crane", "INS-OH-PER"],
    },
)
q(
    "When is an inspection result Conditional instead of Fail?",
    "manual",
    ["inspections.docx"],
    ["Results"],
    ["one or more questions failed, none of them critical"],
)
q(
    "What does deficiency code A2B-01 mean?",
    "manual",
    ["inspections.docx", "crane_and_rigging_safety.html", "marcus_bell.txt"],
    ["Deficiency Codes"],
    ["Anti-two-block device inoperative"],
    {
        "inspections.docx": ["A2B-01", "Anti-two-block device inoperative"],
        "crane_and_rigging_safety.html": ["A2B-01", "anti-two-block"],
        "marcus_bell.txt": ["A2B-01 for an inoperative anti-two-block device"],
    },
)
q(
    "How often must a tower crane be inspected?",
    "manual",
    ["assets_cranes_forklifts.txt", "inspections.docx"],
    ["Asset Categories and Types", "Certificates and Next Due Date"],
    ["6 months"],
    {
        "assets_cranes_forklifts.txt": ["Tower Crane", "6 months"],
        "inspections.docx": ["6 months for tower cranes"],
    },
)
q(
    "What crew size does the dispatch board propose for a load test?",
    "manual",
    ["crews_and_dispatch.html"],
    ["Crew Size"],
    ["2 to 3"],
)
q(
    "Which work time types can office staff book?",
    "manual",
    ["time_entry.md", "overtime_policy.pdf"],
    ["Who Can Book Which Type", "Work Time Types"],
    ["Regular", "Overtime", "Training", "Holiday"],
    {
        "time_entry.md": ["can book Regular, Overtime, Training and Holiday only"],
        "overtime_policy.pdf": [
            "Office roles may book only Regular, Overtime, Training and Holiday"
        ],
    },
)
q(
    "What is the list rate per hour for Double Time on an invoice?",
    "manual",
    ["services_quotes_invoices.txt"],
    ["Invoice Lines"],
    ["230.00"],
)
q(
    "Who signs the Job Hazard Analysis?",
    "manual",
    [
        "signatures_and_attachments.docx",
        "safety_checks_and_incidents.pdf",
        "safety_program_policy.md",
    ],
    ["Kinds of Signature", "Safety Templates", "Signatures"],
    ["crew lead"],
    {
        "signatures_and_attachments.docx": ["Crew lead only for the Job Hazard Analysis"],
        "safety_checks_and_incidents.pdf": ["Job Hazard Analysis", "Crew lead"],
        "safety_program_policy.md": ["The crew lead signs the Job Hazard Analysis"],
    },
)
q(
    "How long is a quote valid?",
    "manual",
    ["services_quotes_invoices.txt"],
    ["Creating a Quote"],
    ["valid for 30 days from the issue date"],
)
q(
    "What company equipment is checked out for a load test?",
    "manual",
    ["crews_and_dispatch.html"],
    ["Test and Rigging Equipment"],
    ["load cells", "water bag test weight sets", "Crosby shackle kits"],
)
q(
    "Which payment terms can a customer have?",
    "manual",
    ["customers_and_locations.html"],
    ["Customer Fields"],
    ["Due on Receipt, Net 15, Net 30, Net 45 or Net 60"],
)
q(
    "What happens to an asset when its inspection fails?",
    "manual",
    ["assets_cranes_forklifts.txt", "inspections.docx"],
    ["Status", "Results"],
    ["Out of Service"],
    {
        "assets_cranes_forklifts.txt": ["changes the asset to Out of Service"],
        "inspections.docx": ["tagged out of service"],
    },
)
q(
    "How soon after an inspection is completed is the PDF report generated?",
    "manual",
    ["inspections.docx", "signatures_and_attachments.docx"],
    ["Reports", "Inspection Reports"],
    ["within 30 minutes"],
)
q(
    "Which safety checks does the app require before starting a Repair work order?",
    "manual",
    ["work_orders.pdf", "safety_checks_and_incidents.pdf", "safety_program_policy.md"],
    ["Work Order Types", "Safety Templates", "Required Checks by Work Order Type"],
    ["Job Hazard Analysis", "Lockout/Tagout Verification"],
    {
        "work_orders.pdf": ["Job Hazard Analysis, Lockout/Tagout Verification"],
        "safety_checks_and_incidents.pdf": [
            "Repair, Preventive Maintenance, Emergency Call, Warranty"
        ],
        "safety_program_policy.md": ["Repair, Preventive Maintenance, Emergency Call and Warranty"],
    },
)

# --- policy -------------------------------------------------------------------------------
q(
    "After how many hours on a weekday does overtime start?",
    "policy",
    ["overtime_policy.pdf", "time_entry.md"],
    ["Weekdays", "Job Time and the Automatic Split"],
    ["8 hours"],
    {
        "overtime_policy.pdf": ["the first 8 hours worked in a day are Regular"],
        "time_entry.md": ["Regular up to 8 hours"],
    },
)
q(
    "What pay multiplier applies to work on a Sunday?",
    "policy",
    ["overtime_policy.pdf", "time_entry.md"],
    ["Sundays and Company Holidays"],
    ["Double Time", "2.0"],
    {
        "overtime_policy.pdf": ["Double Time at 2.0 times the base rate"],
        "time_entry.md": ["Sunday and company holidays: every hour is Double Time"],
    },
)
q(
    "Who must approve a schedule of more than 12 hours in a day?",
    "policy",
    ["overtime_policy.pdf", "time_entry.md", "maria_delgado.docx", "grace_adeyemi.html"],
    ["Long Days and Long Weeks"],
    ["Director of Field Operations", "Maria Delgado"],
    {
        "overtime_policy.pdf": ["12 hours in a day", "Maria Delgado"],
        "time_entry.md": ["days over 12 hours", "Director of Field Operations"],
        "maria_delgado.docx": ["I review every request for more than 12 hours of work in a day"],
        "grace_adeyemi.html": [
            "past 12 hours in a day so the Director of Field Operations can approve"
        ],
    },
)
q(
    "What is the wind speed limit for mobile crane lifts?",
    "policy",
    ["crane_and_rigging_safety.html", "dana_whitfield.pdf"],
    ["Weather Limits"],
    ["20 mph", "30 mph"],
    {
        "crane_and_rigging_safety.html": ["sustained wind exceeds 20 mph", "gusts exceed 30 mph"],
        "dana_whitfield.pdf": ["20 mph sustained limit for mobile crane lifts"],
    },
)
q(
    "How far must a crane stay from a 500 kV power line?",
    "policy",
    ["crane_and_rigging_safety.html"],
    ["Power Lines"],
    ["50 feet from lines above 350 kV"],
)
q(
    "What PPE is required on every job?",
    "policy",
    ["ppe_policy.docx"],
    ["Minimum PPE on Every Job"],
    ["Hard hat", "Safety glasses", "High-visibility vest or shirt", "Safety footwear", "Gloves"],
)
q(
    "How much is the safety footwear allowance?",
    "policy",
    ["ppe_policy.docx"],
    ["What the Company Provides"],
    ["$250 per calendar year"],
)
q(
    "By when must an incident be filed in the app?",
    "policy",
    ["incident_reporting_policy.pdf", "safety_checks_and_incidents.pdf"],
    ["Before the End of the Shift", "When to File an Incident"],
    ["before the end of the shift"],
)
q(
    "How much vacation does an employee with six years of service get?",
    "policy",
    ["time_off_policy.md"],
    ["Vacation"],
    ["120 hours (15 days)"],
)
q(
    "What is the meal per diem on overnight trips?",
    "policy",
    ["travel_and_expense_policy.html"],
    ["Expense Types", "Overnight Trips"],
    ["$55 per day"],
)
q(
    "At what fork heel wear must a fork be taken out of service?",
    "policy",
    ["forklift_safety.txt", "assets_cranes_forklifts.txt", "inspections.docx", "rosa_jimenez.pdf"],
    ["Removal From Service"],
    ["over 10%"],
    {
        "forklift_safety.txt": ["fork heel wear over 10% (deficiency code FRK-01)"],
        "assets_cranes_forklifts.txt": ["wear over 10% proposes deficiency code FRK-01"],
        "inspections.docx": ["Fork heel wear over 10%"],
        "rosa_jimenez.pdf": ["fork heel wear measurement against the 10% limit"],
    },
)
q(
    "How quickly must an emergency crew be on site in a Metro service area?",
    "policy",
    ["on_call_emergency_response.txt", "crews_and_dispatch.html", "maria_delgado.docx"],
    ["Response Targets", "Emergency Calls"],
    ["2 hours"],
    {
        "on_call_emergency_response.txt": ["Crew on site, Metro service area", "2 hours"],
        "crews_and_dispatch.html": ["on site within two hours in a Metro service area"],
        "maria_delgado.docx": ["on site within two hours in metro service areas"],
    },
)
q(
    "When may someone other than its owner remove a lockout lock?",
    "policy",
    ["lockout_tagout_procedure.txt"],
    ["6. Removing Locks and Restoring Energy"],
    ["only when the owner cannot be reached", "approval of the field supervisor"],
)
q(
    "Are employees drug tested after a vehicle accident?",
    "policy",
    ["drug_and_alcohol_policy.html", "incident_reporting_policy.pdf", "vehicle_use_policy.docx"],
    ["Testing", "Post-Incident Testing", "Accidents"],
    ["every vehicle accident"],
)
q(
    "Is texting allowed while driving a service truck?",
    "policy",
    ["vehicle_use_policy.docx"],
    ["Driving Rules"],
    ["texting and using Switchboard Mobile while driving are forbidden"],
)
q(
    "Which company holidays are observed?",
    "policy",
    ["time_off_policy.md", "time_entry.md"],
    ["Company Holidays"],
    [
        "New Year's Day",
        "Memorial Day",
        "Independence Day",
        "Labor Day",
        "Thanksgiving",
        "Christmas Day",
    ],
    {"time_off_policy.md": ["six holidays"], "time_entry.md": ["Memorial Day (May 26)"]},
)
q(
    "How is travel time to a job paid?",
    "policy",
    ["travel_and_expense_policy.html", "overtime_policy.pdf", "time_entry.md"],
    ["Travel Time", "Travel, Standby and Shop Time", "Travel"],
    ["straight time"],
    {
        "travel_and_expense_policy.html": ["booked as Travel (TRV) at straight time"],
        "overtime_policy.pdf": ["Travel is paid at straight time"],
        "time_entry.md": ["Travel is paid at straight time"],
    },
)

# --- multi hop ----------------------------------------------------------------------------
q(
    "What certifications does the person who must pre-authorize workdays longer"
    " than 12 hours hold?",
    "multi_hop",
    ["overtime_policy.pdf", "maria_delgado.docx"],
    ["Long Days and Long Weeks", "Certifications & Training"],
    [
        "Maria Delgado",
        "NCCCO Rigger Level I",
        "OSHA 30-Hour Construction",
        "Lean Six Sigma Green Belt",
    ],
    {
        "overtime_policy.pdf": ["Maria Delgado", "12 hours in a day"],
        "maria_delgado.docx": ["Lean Six Sigma Green Belt"],
    },
)
q(
    "Where did the owner of the Incident Reporting Policy work before joining the company?",
    "multi_hop",
    ["incident_reporting_policy.pdf", "dana_whitfield.pdf"],
    ["Sabine Ridge Refining - Safety Specialist"],
    ["Dana Whitfield", "Sabine Ridge Refining", "Beaumont, TX"],
    {
        "incident_reporting_policy.pdf": ["Policy owner:", "Dana Whitfield"],
        "dana_whitfield.pdf": ["Sabine Ridge Refining"],
    },
)
q(
    "Where did the technical reviewer of the Forklift Safety Policy go to school?",
    "multi_hop",
    ["forklift_safety.txt", "rosa_jimenez.pdf"],
    ["Education"],
    ["Rosa Jimenez", "GateWay Community College"],
    {
        "forklift_safety.txt": ["Technical reviewer: Rosa Jimenez"],
        "rosa_jimenez.pdf": ["GateWay Community College"],
    },
)
q(
    "In which city is the lead inspector who reviewed the Crane and Rigging Safety Policy based?",
    "multi_hop",
    ["crane_and_rigging_safety.html", "marcus_bell.txt"],
    [],
    ["Marcus Bell", "Dallas, TX"],
    {
        "crane_and_rigging_safety.html": ["Technical reviewer:", "Marcus Bell"],
        "marcus_bell.txt": ["Dallas, TX"],
    },
)
q(
    "Which inspection template applies to the forklifts that Project Kestrel retrofits?",
    "multi_hop",
    ["mark_owens.md", "assets_cranes_forklifts.txt", "inspections.docx"],
    ["Asset Categories and Types", "Standard Templates"],
    ["INS-FL-ANN"],
    {
        "mark_owens.md": ["electric forklifts"],
        "assets_cranes_forklifts.txt": ["Electric Forklift", "INS-FL-ANN"],
        "inspections.docx": ["Forklift Annual Inspection (OSHA 1910.178)", "Electric"],
    },
)
q(
    "What pay multiplier applied to the Sunday hours of Bob Kessler's weekend rope replacement?",
    "multi_hop",
    ["bob_kessler.md", "overtime_policy.pdf"],
    ["Sundays and Company Holidays"],
    ["Double Time", "2.0"],
    {
        "bob_kessler.md": ["Sunday hours as Double Time"],
        "overtime_policy.pdf": ["Double Time at 2.0 times the base rate"],
    },
)
q(
    "Which tools did the person who built the Tidewater forecasting models with"
    " Alexis Torres use on Project Lumen?",
    "multi_hop",
    ["alexis_torres.pdf", "will_patterson.docx"],
    ["Project Lumen (TechCorp)"],
    ["Will Patterson", "LightGBM", "MLflow"],
    {
        "alexis_torres.pdf": ["Will Patterson", "Project Tidewater"],
        "will_patterson.docx": ["Python, LightGBM, Snowflake, MLflow"],
    },
)
q(
    "Which certifications does the engineer who built TechCorp's EKS clusters"
    " for Project Atlas hold?",
    "multi_hop",
    ["alexis_torres.pdf", "james_smith.md"],
    ["Certifications"],
    [
        "James Smith",
        "Certified Kubernetes Administrator (CKA), 2021",
        "AWS Certified SysOps Administrator - Associate",
    ],
    {
        "alexis_torres.pdf": ["James Smith, who built the EKS clusters"],
        "james_smith.md": ["AWS Certified SysOps Administrator"],
    },
)
q(
    "What hourly list rate is billed for the time type used on emergency calls"
    " that start in the afternoon?",
    "multi_hop",
    ["on_call_emergency_response.txt", "services_quotes_invoices.txt"],
    ["Time and Pay", "Invoice Lines"],
    ["On-Call Overtime", "172.50"],
    {
        "on_call_emergency_response.txt": ["starts at or after 13:00", "On-Call Overtime"],
        "services_quotes_invoices.txt": ["On-Call Overtime", "172.50"],
    },
)
q(
    "At which company did the crew lead who supported Halcyon's Tempe forklift pilot"
    " work before Switchboard Lifting Services?",
    "multi_hop",
    ["nina_kowalski.txt", "rosa_jimenez.pdf"],
    ["Red Mesa Materials Handling, Tempe, AZ"],
    ["Rosa Jimenez", "Red Mesa Materials Handling"],
    {
        "nina_kowalski.txt": ["Rosa Jimenez, crew lead"],
        "rosa_jimenez.pdf": ["Red Mesa Materials Handling"],
    },
)
q(
    "Which safety checks are required before an Emergency Call work order,"
    " and who owns the policy that requires them?",
    "multi_hop",
    ["safety_program_policy.md", "work_orders.pdf"],
    ["Required Checks by Work Order Type"],
    ["Job Hazard Analysis", "Lockout/Tagout Verification", "Dana Whitfield"],
    {
        "safety_program_policy.md": ["Policy owner:", "Dana Whitfield", "Emergency Call"],
        "work_orders.pdf": ["Emergency Call", "Job Hazard Analysis, Lockout/Tagout Verification"],
    },
)
q(
    "How many service areas does the branch of the dispatch supervisor who won"
    " Dispatcher of the Year have?",
    "multi_hop",
    ["grace_adeyemi.html", "getting_started.md"],
    ["Branches and Service Areas"],
    ["Atlanta", "three service areas"],
    {
        "grace_adeyemi.html": ["Dispatcher of the Year", "Atlanta"],
        "getting_started.md": ["three service areas"],
    },
)
