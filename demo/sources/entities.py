"""Entity labels for a sample of the corpus.

For every labelled document the list is exhaustive for six entity types: Person,
Organization, Technology, Location, Certification and Project (conventions in
demo/README.md). Aliases are the other surface forms used in that document. Relations are
the facts the document states, always in one direction.
"""

PER, ORG, TECH, LOC, CERT, PROJ = (
    "Person",
    "Organization",
    "Technology",
    "Location",
    "Certification",
    "Project",
)


def e(name: str, kind: str, *aliases: str) -> dict:
    return {"name": name, "type": kind, "aliases": list(aliases)}


def person(full: str, *more: str) -> dict:
    first, last = full.split(" ", 1)
    return e(full, PER, first, last, *more)


def r(source: str, kind: str, target: str) -> dict:
    return {"source": source, "type": kind, "target": target}


def facts(subject: str, kind: str, targets: list[str]) -> list[dict]:
    return [r(subject, kind, t) for t in targets]


LABELS: list[dict] = []


def label(document: str, entities: list[dict], relations: list[dict]) -> None:
    unique = list({(x["source"], x["type"], x["target"]): x for x in relations}.values())
    LABELS.append({"document": document, "entities": entities, "relations": unique})


# --- Alexis Torres -----------------------------------------------------------------------
_techs = [
    e("Python", TECH),
    e("Go", TECH),
    e("Bash", TECH),
    e("SQL", TECH),
    e("AWS", TECH),
    e("Amazon EKS", TECH, "EKS"),
    e("Amazon RDS", TECH, "RDS"),
    e("AWS Lambda", TECH, "Lambda"),
    e("Amazon S3", TECH, "S3"),
    e("Amazon Aurora PostgreSQL", TECH),
    e("Google Cloud", TECH),
    e("Kubernetes", TECH),
    e("Docker", TECH),
    e("Helm", TECH),
    e("Argo CD", TECH),
    e("Terraform", TECH),
    e("Packer", TECH),
    e("PostgreSQL", TECH),
    e("Redis", TECH),
    e("Amazon DynamoDB", TECH, "DynamoDB"),
    e("Prometheus", TECH),
    e("Grafana", TECH),
    e("OpenTelemetry", TECH),
    e("PagerDuty", TECH),
    e("Oracle Database", TECH),
]
label(
    "alexis_torres.pdf",
    [
        person("Alexis Torres"),
        person("Sarah Chen"),
        person("James Smith"),
        person("James Whitaker"),
        person("Daniel Reyes"),
        person("Will Patterson"),
        e("Meridian Freight Systems", ORG),
        e("TechCorp", ORG),
        e("Cedar Loop Analytics", ORG),
        e("Cascade Public Power", ORG),
        e("University of Washington", ORG),
        e("The Linux Foundation", ORG),
        e("HashiCorp", ORG),
        e("San Francisco", LOC),
        e("Chicago", LOC),
        e("Sacramento", LOC),
        e("Seattle", LOC),
        e("Project Atlas", PROJ, "Atlas"),
        e("Project Tidewater", PROJ),
        e("RouteWise", PROJ),
        e("AWS Certified Solutions Architect - Professional", CERT),
        e("Certified Kubernetes Administrator", CERT, "CKA"),
        e("Terraform Associate", CERT),
        *_techs,
    ],
    [
        r("Alexis Torres", "LOCATED_IN", "San Francisco"),
        *facts(
            "Alexis Torres",
            "WORKS_FOR",
            ["Meridian Freight Systems", "TechCorp", "Cedar Loop Analytics"],
        ),
        r("Meridian Freight Systems", "LOCATED_IN", "Chicago"),
        r("TechCorp", "LOCATED_IN", "San Francisco"),
        r("Cedar Loop Analytics", "LOCATED_IN", "Seattle"),
        r("University of Washington", "LOCATED_IN", "Seattle"),
        *facts(
            "Alexis Torres",
            "WORKED_WITH",
            ["Sarah Chen", "James Smith", "James Whitaker", "Daniel Reyes", "Will Patterson"],
        ),
        *facts("Alexis Torres", "WORKED_ON", ["Project Atlas", "Project Tidewater", "RouteWise"]),
        r("Sarah Chen", "WORKED_ON", "Project Atlas"),
        r("James Smith", "WORKED_ON", "Project Atlas"),
        r("Will Patterson", "WORKED_ON", "Project Tidewater"),
        r("James Whitaker", "WORKED_ON", "RouteWise"),
        r("Daniel Reyes", "WORKED_ON", "RouteWise"),
        *facts("Alexis Torres", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Alexis Torres",
            "HAS_CERTIFICATION",
            [
                "AWS Certified Solutions Architect - Professional",
                "Certified Kubernetes Administrator",
                "Terraform Associate",
            ],
        ),
        r("Alexis Torres", "STUDIED_AT", "University of Washington"),
    ],
)

# --- Sarah Chen --------------------------------------------------------------------------
_techs = [
    e("Python", TECH),
    e("SQL", TECH),
    e("Scala", TECH),
    e("Bash", TECH),
    e("Apache Spark", TECH, "Spark", "Spark Structured Streaming"),
    e("Apache Airflow", TECH, "Airflow"),
    e("dbt", TECH),
    e("Apache Kafka", TECH, "Kafka"),
    e("Snowflake", TECH),
    e("PostgreSQL", TECH),
    e("Amazon Aurora PostgreSQL", TECH),
    e("Oracle Database", TECH),
    e("Microsoft SQL Server", TECH),
    e("AWS", TECH),
    e("AWS Glue", TECH, "Glue"),
    e("Amazon S3", TECH, "S3"),
    e("Amazon Redshift", TECH, "Redshift"),
    e("AWS Database Migration Service", TECH, "Database Migration Service"),
    e("Terraform", TECH),
]
label(
    "sarah_chen.docx",
    [
        person("Sarah Chen"),
        person("Alexis Torres"),
        person("James Smith"),
        person("Will Patterson"),
        person("Priya Raman"),
        person("Kevin Mahoney"),
        e("TechCorp", ORG),
        e("Brightwater Health", ORG),
        e("Boston University", ORG),
        e("University of California, Davis", ORG),
        e("Bay Area Data Engineering Meetup", ORG),
        e("Oakland", LOC),
        e("San Francisco", LOC),
        e("Boston", LOC),
        e("Project Atlas", PROJ),
        e("Project Lumen", PROJ, "Lumen"),
        e("Project Beacon", PROJ),
        e("SnowPro Core Certification", CERT),
        e("AWS Certified Data Analytics - Specialty", CERT),
        *_techs,
    ],
    [
        r("Sarah Chen", "LOCATED_IN", "Oakland"),
        *facts("Sarah Chen", "WORKS_FOR", ["TechCorp", "Brightwater Health"]),
        r("TechCorp", "LOCATED_IN", "San Francisco"),
        r("Brightwater Health", "LOCATED_IN", "Boston"),
        *facts(
            "Sarah Chen",
            "WORKED_WITH",
            ["Alexis Torres", "James Smith", "Will Patterson", "Priya Raman", "Kevin Mahoney"],
        ),
        *facts("Sarah Chen", "WORKED_ON", ["Project Atlas", "Project Lumen", "Project Beacon"]),
        r("Alexis Torres", "WORKED_ON", "Project Atlas"),
        r("James Smith", "WORKED_ON", "Project Atlas"),
        r("Will Patterson", "WORKED_ON", "Project Lumen"),
        r("Priya Raman", "WORKED_ON", "Project Lumen"),
        r("Kevin Mahoney", "WORKED_ON", "Project Beacon"),
        *facts("Sarah Chen", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Sarah Chen",
            "HAS_CERTIFICATION",
            ["SnowPro Core Certification", "AWS Certified Data Analytics - Specialty"],
        ),
        *facts(
            "Sarah Chen", "STUDIED_AT", ["Boston University", "University of California, Davis"]
        ),
    ],
)

# --- James Smith -------------------------------------------------------------------------
_techs = [
    e("Kubernetes", TECH),
    e("Helm", TECH),
    e("Docker", TECH),
    e("Terraform", TECH),
    e("Go", TECH),
    e("Python", TECH),
    e("Kotlin", TECH),
    e("TypeScript", TECH),
    e("React Native", TECH),
    e("PostgreSQL", TECH),
    e("MariaDB", TECH),
    e("SQLite", TECH),
    e("AWS", TECH),
    e("Amazon EKS", TECH, "EKS"),
    e("Amazon RDS", TECH, "RDS"),
    e("Amazon S3", TECH, "S3"),
    e("GitHub Actions", TECH),
    e("Switchboard Mobile", TECH, "Switchboard Mobile 4.0"),
    e("iOS", TECH),
    e("Android", TECH),
    e("Django", TECH),
]
label(
    "james_smith.md",
    [
        person("James Smith"),
        person("Alex Romero"),
        person("Priya Raman"),
        person("Alexis Torres"),
        person("Sarah Chen"),
        e("Switchboard Lifting Services", ORG),
        e("TechCorp", ORG),
        e("Bayou Digital", ORG),
        e("University of Houston", ORG),
        e("Houston", LOC),
        e("San Francisco", LOC),
        e("Project Atlas", PROJ),
        e("FleetPulse", PROJ),
        e("Certified Kubernetes Administrator", CERT, "CKA"),
        e("AWS Certified SysOps Administrator - Associate", CERT),
        *_techs,
    ],
    [
        r("James Smith", "LOCATED_IN", "Houston"),
        *facts(
            "James Smith",
            "WORKS_FOR",
            ["Switchboard Lifting Services", "TechCorp", "Bayou Digital"],
        ),
        r("Switchboard Lifting Services", "LOCATED_IN", "Houston"),
        r("TechCorp", "LOCATED_IN", "San Francisco"),
        r("Bayou Digital", "LOCATED_IN", "Houston"),
        *facts(
            "James Smith",
            "WORKED_WITH",
            ["Alex Romero", "Priya Raman", "Alexis Torres", "Sarah Chen"],
        ),
        *facts("James Smith", "WORKED_ON", ["Project Atlas", "FleetPulse"]),
        r("Alexis Torres", "WORKED_ON", "Project Atlas"),
        r("Alex Romero", "WORKED_ON", "FleetPulse"),
        *facts("James Smith", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "James Smith",
            "HAS_CERTIFICATION",
            [
                "Certified Kubernetes Administrator",
                "AWS Certified SysOps Administrator - Associate",
            ],
        ),
        r("James Smith", "STUDIED_AT", "University of Houston"),
    ],
)

# --- Will Patterson ----------------------------------------------------------------------
_techs = [
    e("XGBoost", TECH),
    e("LightGBM", TECH),
    e("Python", TECH),
    e("SQL", TECH),
    e("PySpark", TECH),
    e("MLflow", TECH),
    e("Apache Airflow", TECH),
    e("Amazon SageMaker", TECH),
    e("Snowflake", TECH),
    e("PostgreSQL", TECH),
]
label(
    "will_patterson.docx",
    [
        person("Will Patterson"),
        person("Sarah Chen"),
        person("Priya Raman"),
        person("Alexis Torres"),
        e("TechCorp", ORG),
        e("Cedar Loop Analytics", ORG),
        e("Cascade Public Power", ORG),
        e("University of Washington", ORG),
        e("Seattle", LOC),
        e("San Francisco", LOC),
        e("Project Lumen", PROJ),
        e("Project Tidewater", PROJ),
        *_techs,
    ],
    [
        r("Will Patterson", "LOCATED_IN", "Seattle"),
        *facts("Will Patterson", "WORKS_FOR", ["TechCorp", "Cedar Loop Analytics"]),
        r("TechCorp", "LOCATED_IN", "San Francisco"),
        r("Cedar Loop Analytics", "LOCATED_IN", "Seattle"),
        *facts("Will Patterson", "WORKED_WITH", ["Sarah Chen", "Priya Raman", "Alexis Torres"]),
        *facts("Will Patterson", "WORKED_ON", ["Project Lumen", "Project Tidewater"]),
        r("Sarah Chen", "WORKED_ON", "Project Lumen"),
        r("Priya Raman", "WORKED_ON", "Project Lumen"),
        r("Alexis Torres", "WORKED_ON", "Project Tidewater"),
        *facts("Will Patterson", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        r("Will Patterson", "STUDIED_AT", "University of Washington"),
    ],
)

# --- Priya Raman -------------------------------------------------------------------------
_techs = [
    e("SQL", TECH),
    e("dbt", TECH),
    e("Python", TECH),
    e("pandas", TECH),
    e("DAX", TECH),
    e("Power BI", TECH),
    e("Looker", TECH),
    e("Tableau", TECH),
    e("MariaDB", TECH),
    e("PostgreSQL", TECH),
    e("Snowflake", TECH),
]
label(
    "priya_raman.html",
    [
        person("Priya Raman"),
        person("James Smith"),
        person("Maria Delgado"),
        person("Sarah Chen"),
        person("Will Patterson"),
        e("Switchboard Lifting Services", ORG),
        e("TechCorp", ORG),
        e("Rice University", ORG),
        e("Anna University", ORG),
        e("Houston", LOC),
        e("San Francisco", LOC),
        e("Chennai", LOC),
        e("Project Lumen", PROJ),
        e("Microsoft Certified: Power BI Data Analyst Associate", CERT),
        e("dbt Analytics Engineering Certification", CERT),
        *_techs,
    ],
    [
        r("Priya Raman", "LOCATED_IN", "Houston"),
        *facts("Priya Raman", "WORKS_FOR", ["Switchboard Lifting Services", "TechCorp"]),
        r("Switchboard Lifting Services", "LOCATED_IN", "Houston"),
        r("TechCorp", "LOCATED_IN", "San Francisco"),
        r("Rice University", "LOCATED_IN", "Houston"),
        r("Anna University", "LOCATED_IN", "Chennai"),
        r("Maria Delgado", "WORKS_FOR", "Switchboard Lifting Services"),
        *facts(
            "Priya Raman",
            "WORKED_WITH",
            ["James Smith", "Maria Delgado", "Sarah Chen", "Will Patterson"],
        ),
        r("Priya Raman", "WORKED_ON", "Project Lumen"),
        r("Sarah Chen", "WORKED_ON", "Project Lumen"),
        r("Will Patterson", "WORKED_ON", "Project Lumen"),
        *facts("Priya Raman", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Priya Raman",
            "HAS_CERTIFICATION",
            [
                "Microsoft Certified: Power BI Data Analyst Associate",
                "dbt Analytics Engineering Certification",
            ],
        ),
        *facts("Priya Raman", "STUDIED_AT", ["Rice University", "Anna University"]),
    ],
)

# --- James Whitaker ----------------------------------------------------------------------
_techs = [
    e("Google OR-Tools", TECH),
    e("Java", TECH),
    e("Kotlin", TECH),
    e("Apache Kafka", TECH),
    e("PostgreSQL", TECH),
    e("Python", TECH),
    e("C++", TECH),
    e("SQL", TECH),
    e("Gurobi", TECH),
    e("Redis", TECH),
    e("Kubernetes", TECH),
    e("Docker", TECH),
    e("AWS", TECH),
]
label(
    "james_whitaker.html",
    [
        person("James Whitaker"),
        person("Daniel Reyes"),
        person("Alexis Torres"),
        person("Mark Owens"),
        e("Meridian Freight Systems", ORG, "Meridian"),
        e("Halcyon Robotics", ORG, "Halcyon"),
        e("Carnegie Mellon University", ORG),
        e("Purdue University", ORG),
        e("Chicago", LOC),
        e("Pittsburgh", LOC),
        e("RouteWise", PROJ),
        e("Project Sparrow", PROJ),
        *_techs,
    ],
    [
        r("James Whitaker", "LOCATED_IN", "Chicago"),
        *facts("James Whitaker", "WORKS_FOR", ["Meridian Freight Systems", "Halcyon Robotics"]),
        r("Meridian Freight Systems", "LOCATED_IN", "Chicago"),
        r("Halcyon Robotics", "LOCATED_IN", "Pittsburgh"),
        *facts("James Whitaker", "WORKED_WITH", ["Daniel Reyes", "Alexis Torres", "Mark Owens"]),
        *facts("James Whitaker", "WORKED_ON", ["RouteWise", "Project Sparrow"]),
        r("Daniel Reyes", "WORKS_FOR", "Meridian Freight Systems"),
        r("Alexis Torres", "WORKS_FOR", "Meridian Freight Systems"),
        r("Mark Owens", "WORKED_ON", "Project Sparrow"),
        *facts("James Whitaker", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts("James Whitaker", "STUDIED_AT", ["Carnegie Mellon University", "Purdue University"]),
    ],
)

# --- Daniel Reyes ------------------------------------------------------------------------
_techs = [
    e("Kubernetes", TECH),
    e("Azure Kubernetes Service", TECH),
    e("Amazon EKS", TECH),
    e("Helm", TECH),
    e("Argo CD", TECH),
    e("Terraform", TECH),
    e("Microsoft Azure", TECH),
    e("AWS", TECH),
    e("Go", TECH),
    e("Python", TECH),
    e("Prometheus", TECH),
    e("Grafana", TECH),
    e("Loki", TECH),
    e("PagerDuty", TECH),
    e("HL7 FHIR", TECH),
    e("Linux", TECH),
    e("Windows", TECH),
]
label(
    "daniel_reyes.md",
    [
        person("Daniel Reyes"),
        person("James Whitaker"),
        person("Alexis Torres"),
        person("Sarah Okafor"),
        person("Kevin Mahoney"),
        e("Meridian Freight Systems", ORG),
        e("Brightwater Health", ORG),
        e("Northbrook IT Services", ORG),
        e("University of Illinois Chicago", ORG),
        e("HashiCorp", ORG),
        e("Chicago", LOC),
        e("Boston", LOC),
        e("RouteWise", PROJ),
        e("Project Harbor", PROJ),
        e("Certified Kubernetes Administrator", CERT, "CKA"),
        e("Microsoft Certified: Azure Administrator Associate", CERT),
        e("Terraform Associate", CERT),
        *_techs,
    ],
    [
        r("Daniel Reyes", "LOCATED_IN", "Chicago"),
        *facts(
            "Daniel Reyes",
            "WORKS_FOR",
            ["Meridian Freight Systems", "Brightwater Health", "Northbrook IT Services"],
        ),
        r("Meridian Freight Systems", "LOCATED_IN", "Chicago"),
        r("Brightwater Health", "LOCATED_IN", "Boston"),
        r("Northbrook IT Services", "LOCATED_IN", "Chicago"),
        *facts(
            "Daniel Reyes",
            "WORKED_WITH",
            ["James Whitaker", "Alexis Torres", "Sarah Okafor", "Kevin Mahoney"],
        ),
        *facts("Daniel Reyes", "WORKED_ON", ["RouteWise", "Project Harbor"]),
        r("James Whitaker", "WORKED_ON", "RouteWise"),
        r("Sarah Okafor", "WORKED_ON", "Project Harbor"),
        r("Kevin Mahoney", "WORKED_ON", "Project Harbor"),
        *facts("Daniel Reyes", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Daniel Reyes",
            "HAS_CERTIFICATION",
            [
                "Certified Kubernetes Administrator",
                "Microsoft Certified: Azure Administrator Associate",
                "Terraform Associate",
            ],
        ),
        r("Daniel Reyes", "STUDIED_AT", "University of Illinois Chicago"),
    ],
)

# --- Sarah Okafor ------------------------------------------------------------------------
_techs = [
    e("Java", TECH),
    e("Python", TECH),
    e("Kubernetes", TECH),
    e("Microsoft Azure", TECH),
    e("HL7 FHIR", TECH, "HL7 FHIR R4"),
    e("Spring Boot", TECH),
    e("FastAPI", TECH),
    e("PostgreSQL", TECH),
    e("MongoDB", TECH),
    e("Azure Kubernetes Service", TECH),
    e("Docker", TECH),
    e("OAuth 2.0", TECH),
]
label(
    "sarah_okafor.pdf",
    [
        person("Sarah Okafor"),
        person("Kevin Mahoney"),
        person("Daniel Reyes"),
        e("Brightwater Health", ORG),
        e("Quillon Systems", ORG),
        e("Northeastern University", ORG),
        e("Boston", LOC),
        e("Cambridge", LOC),
        e("Project Harbor", PROJ),
        *_techs,
    ],
    [
        r("Sarah Okafor", "LOCATED_IN", "Boston"),
        *facts("Sarah Okafor", "WORKS_FOR", ["Brightwater Health", "Quillon Systems"]),
        r("Brightwater Health", "LOCATED_IN", "Boston"),
        r("Quillon Systems", "LOCATED_IN", "Cambridge"),
        r("Northeastern University", "LOCATED_IN", "Boston"),
        *facts("Sarah Okafor", "WORKED_WITH", ["Kevin Mahoney", "Daniel Reyes"]),
        r("Sarah Okafor", "WORKED_ON", "Project Harbor"),
        r("Kevin Mahoney", "WORKED_ON", "Project Harbor"),
        r("Daniel Reyes", "WORKED_ON", "Project Harbor"),
        *facts("Sarah Okafor", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        r("Sarah Okafor", "STUDIED_AT", "Northeastern University"),
    ],
)

# --- Kevin Mahoney -----------------------------------------------------------------------
label(
    "kevin_mahoney.txt",
    [
        e("Kevin Mahoney", PER, "KEVIN MAHONEY"),
        person("Mark Owens"),
        person("Nina Kowalski"),
        person("Sarah Chen"),
        person("Sarah Okafor"),
        person("Daniel Reyes"),
        e("Halcyon Robotics", ORG),
        e("Sonoran Foods", ORG),
        e("Brightwater Health", ORG, "Brightwater"),
        e("Project Management Institute", ORG),
        e("Scrum Alliance", ORG),
        e("Boston University", ORG),
        e("University of Pittsburgh", ORG),
        e("Pittsburgh", LOC),
        e("Tempe", LOC),
        e("Boston", LOC),
        e("Project Kestrel", PROJ, "Kestrel", "Kestrel Retrofit Kit"),
        e("Project Harbor", PROJ, "Brightwater Connect FHIR API"),
        e("Project Beacon", PROJ, "Beacon"),
        e("HL7 FHIR", TECH, "HL7 FHIR R4"),
        e("Project Management Professional", CERT, "PMP"),
        e("Certified Scrum Product Owner", CERT, "CSPO"),
        e("AWS Certified Cloud Practitioner", CERT),
    ],
    [
        r("Kevin Mahoney", "LOCATED_IN", "Pittsburgh"),
        *facts("Kevin Mahoney", "WORKS_FOR", ["Halcyon Robotics", "Brightwater Health"]),
        r("Halcyon Robotics", "LOCATED_IN", "Pittsburgh"),
        r("Brightwater Health", "LOCATED_IN", "Boston"),
        r("Sonoran Foods", "LOCATED_IN", "Tempe"),
        *facts(
            "Kevin Mahoney",
            "WORKED_WITH",
            ["Mark Owens", "Nina Kowalski", "Sarah Chen", "Sarah Okafor", "Daniel Reyes"],
        ),
        *facts(
            "Kevin Mahoney", "WORKED_ON", ["Project Kestrel", "Project Harbor", "Project Beacon"]
        ),
        r("Mark Owens", "WORKED_ON", "Project Kestrel"),
        r("Nina Kowalski", "WORKED_ON", "Project Kestrel"),
        r("Sarah Chen", "WORKED_ON", "Project Beacon"),
        r("Sarah Okafor", "WORKED_ON", "Project Harbor"),
        r("Daniel Reyes", "WORKED_ON", "Project Harbor"),
        r("Kevin Mahoney", "EXPERIENCED_WITH", "HL7 FHIR"),
        *facts(
            "Kevin Mahoney",
            "HAS_CERTIFICATION",
            [
                "Project Management Professional",
                "Certified Scrum Product Owner",
                "AWS Certified Cloud Practitioner",
            ],
        ),
        *facts("Kevin Mahoney", "STUDIED_AT", ["Boston University", "University of Pittsburgh"]),
    ],
)

# --- Mark Owens --------------------------------------------------------------------------
_techs = [
    e("C++", TECH),
    e("Python", TECH),
    e("Rust", TECH),
    e("ROS", TECH, "ROS 2", "ROS 1"),
    e("Nav2", TECH),
    e("OpenCV", TECH),
    e("Docker", TECH),
    e("GitLab CI", TECH),
    e("Gazebo", TECH),
    e("Linux", TECH),
    e("Toyota 8FBE20U", TECH),
    e("Crown FC 5200", TECH),
]
label(
    "mark_owens.md",
    [
        person("Mark Owens"),
        person("Nina Kowalski"),
        person("Kevin Mahoney"),
        person("James Whitaker"),
        e("Halcyon Robotics", ORG, "Halcyon"),
        e("Toyota", ORG),
        e("Crown", ORG),
        e("Carnegie Mellon University", ORG),
        e("Pittsburgh Robotics Meetup", ORG),
        e("Pittsburgh", LOC),
        e("Tempe", LOC),
        e("Project Kestrel", PROJ, "Kestrel"),
        e("Project Sparrow", PROJ, "Sparrow"),
        *_techs,
    ],
    [
        r("Mark Owens", "LOCATED_IN", "Pittsburgh"),
        r("Mark Owens", "WORKS_FOR", "Halcyon Robotics"),
        r("Halcyon Robotics", "LOCATED_IN", "Pittsburgh"),
        *facts("Mark Owens", "WORKED_WITH", ["Nina Kowalski", "Kevin Mahoney", "James Whitaker"]),
        *facts("Mark Owens", "WORKED_ON", ["Project Kestrel", "Project Sparrow"]),
        r("Nina Kowalski", "WORKED_ON", "Project Kestrel"),
        r("Kevin Mahoney", "WORKED_ON", "Project Kestrel"),
        r("James Whitaker", "WORKED_ON", "Project Sparrow"),
        *facts("Mark Owens", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        r("Mark Owens", "STUDIED_AT", "Carnegie Mellon University"),
    ],
)

# --- Nina Kowalski -----------------------------------------------------------------------
_techs = [
    e("Studio 5000 Logix Designer", TECH),
    e("TIA Portal", TECH),
    e("CAN bus", TECH),
    e("EtherNet/IP", TECH),
    e("Python", TECH),
    e("MATLAB", TECH),
    e("Simulink", TECH),
    e("SolidWorks", TECH),
    e("AutoCAD Electrical", TECH),
    e("PLC", TECH, "PLCs"),
]
label(
    "nina_kowalski.txt",
    [
        person("Nina Kowalski"),
        person("Mark Owens"),
        person("Kevin Mahoney"),
        person("Rosa Jimenez"),
        e("Halcyon Robotics", ORG),
        e("Sonoran Foods", ORG),
        e("Switchboard Lifting Services", ORG),
        e("Three Rivers Conveyor Co.", ORG),
        e("University of Pittsburgh", ORG),
        e("Pittsburgh", LOC),
        e("Tempe", LOC),
        e("Phoenix", LOC),
        e("Midwest", LOC),
        e("Pennsylvania", LOC, "Commonwealth of Pennsylvania"),
        e("Project Kestrel", PROJ, "Kestrel"),
        e("Professional Engineer", CERT, "PE", "P.E."),
        e("Certified Functional Safety Engineer", CERT),
        *_techs,
    ],
    [
        r("Nina Kowalski", "LOCATED_IN", "Pittsburgh"),
        *facts("Nina Kowalski", "WORKS_FOR", ["Halcyon Robotics", "Three Rivers Conveyor Co."]),
        r("Halcyon Robotics", "LOCATED_IN", "Pittsburgh"),
        r("Three Rivers Conveyor Co.", "LOCATED_IN", "Pittsburgh"),
        r("Sonoran Foods", "LOCATED_IN", "Tempe"),
        r("Rosa Jimenez", "WORKS_FOR", "Switchboard Lifting Services"),
        r("Rosa Jimenez", "LOCATED_IN", "Phoenix"),
        *facts("Nina Kowalski", "WORKED_WITH", ["Mark Owens", "Kevin Mahoney", "Rosa Jimenez"]),
        r("Nina Kowalski", "WORKED_ON", "Project Kestrel"),
        r("Mark Owens", "WORKED_ON", "Project Kestrel"),
        r("Kevin Mahoney", "WORKED_ON", "Project Kestrel"),
        r("Rosa Jimenez", "WORKED_ON", "Project Kestrel"),
        *facts("Nina Kowalski", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Nina Kowalski",
            "HAS_CERTIFICATION",
            ["Professional Engineer", "Certified Functional Safety Engineer"],
        ),
        r("Nina Kowalski", "STUDIED_AT", "University of Pittsburgh"),
    ],
)

# --- Maria Delgado -----------------------------------------------------------------------
_techs = [
    e("Microsoft Excel", TECH),
    e("Power BI", TECH),
    e("Switchboard Mobile", TECH, "Switchboard Mobile 4.0"),
]
_branches = ["Houston", "Dallas", "Phoenix", "Denver", "Atlanta", "Chicago"]
label(
    "maria_delgado.docx",
    [
        person("Maria Delgado"),
        person("Priya Raman"),
        person("Grace Adeyemi"),
        person("Marcus Bell"),
        person("Bob Kessler"),
        e("Switchboard Lifting Services", ORG),
        e("Gulf Coast Crane & Rigging", ORG),
        e("University of Houston", ORG),
        *[e(city, LOC) for city in _branches],
        e("Tulsa", LOC),
        e("Baytown", LOC),
        e("Pasadena", LOC),
        e("Houston Ship Channel", LOC),
        e("Bayport Terminal crane rebuild", PROJ),
        e("NCCCO Rigger Level I", CERT),
        e("OSHA 30-Hour Construction", CERT),
        e("Lean Six Sigma Green Belt", CERT),
        e("First Aid / CPR / AED", CERT),
        *_techs,
    ],
    [
        r("Maria Delgado", "LOCATED_IN", "Houston"),
        *facts(
            "Maria Delgado",
            "WORKS_FOR",
            ["Switchboard Lifting Services", "Gulf Coast Crane & Rigging"],
        ),
        r("Switchboard Lifting Services", "LOCATED_IN", "Houston"),
        *[r("Switchboard Lifting Services", "LOCATED_IN", city) for city in _branches],
        r("Gulf Coast Crane & Rigging", "LOCATED_IN", "Pasadena"),
        *facts(
            "Maria Delgado",
            "WORKED_WITH",
            ["Priya Raman", "Grace Adeyemi", "Marcus Bell", "Bob Kessler"],
        ),
        r("Maria Delgado", "WORKED_ON", "Bayport Terminal crane rebuild"),
        r("Marcus Bell", "WORKED_ON", "Bayport Terminal crane rebuild"),
        r("Bob Kessler", "WORKED_ON", "Bayport Terminal crane rebuild"),
        *facts("Maria Delgado", "EXPERIENCED_WITH", [t["name"] for t in _techs]),
        *facts(
            "Maria Delgado",
            "HAS_CERTIFICATION",
            [
                "NCCCO Rigger Level I",
                "OSHA 30-Hour Construction",
                "Lean Six Sigma Green Belt",
                "First Aid / CPR / AED",
            ],
        ),
        r("Maria Delgado", "STUDIED_AT", "University of Houston"),
    ],
)

# --- Overtime Policy ---------------------------------------------------------------------
label(
    "overtime_policy.pdf",
    [
        person("Maria Delgado"),
        e("Switchboard Lifting Services", ORG),
        *[e(city, LOC) for city in _branches],
        e("Switchboard Mobile", TECH),
    ],
    [
        r("Maria Delgado", "WORKS_FOR", "Switchboard Lifting Services"),
        *[r("Switchboard Lifting Services", "LOCATED_IN", city) for city in _branches],
    ],
)

# --- Incident Reporting Policy -----------------------------------------------------------
label(
    "incident_reporting_policy.pdf",
    [
        person("Dana Whitfield"),
        person("Maria Delgado"),
        e("Switchboard Lifting Services", ORG),
        e("OSHA", ORG),
        e("Switchboard Mobile", TECH),
        e("Switchboard", TECH),
    ],
    [
        r("Dana Whitfield", "WORKS_FOR", "Switchboard Lifting Services"),
        r("Maria Delgado", "WORKS_FOR", "Switchboard Lifting Services"),
    ],
)

# Entities of unlabelled documents, so that a labelled document that mentions one of them
# without labelling it is caught.
EXTRA = [
    person("Marcus Bell"),
    person("Bob Kessler", "Robert Kessler"),
    person("Rosa Jimenez"),
    person("Grace Adeyemi"),
    person("Alex Romero"),
    person("Dana Whitfield"),
    e("Gulf Coast Crane & Rigging", ORG),
    e("Red Mesa Materials Handling", ORG),
    e("Sabine Ridge Refining", ORG),
    e("Southline Logistics", ORG),
    e("Bayou Digital", ORG),
    e("Quillon Systems", ORG),
    e("NCCCO", ORG),
    e("OSHA", ORG),
    e("Halcyon Robotics", ORG, "Halcyon"),
    e("Meridian Freight Systems", ORG, "Meridian"),
    e("Brightwater Health", ORG, "Brightwater"),
    e("Switchboard", TECH),
    e("Switchboard Mobile", TECH),
    e("Kotlin", TECH),
    e("Swift", TECH),
    e("Jetpack Compose", TECH),
    e("SwiftUI", TECH),
    e("GraphQL", TECH),
    e("Sentry", TECH),
    e("Fastlane", TECH),
    e("Microsoft Excel", TECH),
    e("Phoenix", LOC),
    e("Tempe", LOC),
    e("Mesa", LOC),
    e("Atlanta", LOC),
    e("Dallas", LOC),
    e("Beaumont", LOC),
    e("Galveston", LOC),
]


def labels() -> list[dict]:
    return LABELS


def _registry() -> list[dict]:
    """Every known entity with the surface forms that identify it unambiguously."""
    seen: dict[tuple[str, str], dict] = {}
    for entity in [x for entry in LABELS for x in entry["entities"]] + EXTRA:
        key = (entity["name"], entity["type"])
        known = seen.setdefault(
            key, {"name": entity["name"], "type": entity["type"], "aliases": []}
        )
        for alias in entity["aliases"]:
            # One-word personal names ("Sarah", "Chen") are ambiguous by design.
            if entity["type"] == PER and " " not in alias:
                continue
            if alias not in known["aliases"]:
                known["aliases"].append(alias)
    return list(seen.values())


REGISTRY = _registry()
