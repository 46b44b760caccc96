"""Technologies and skills the statistical model does not know as such (it calls Python
an organization and Docker a person). Canonical name first, then other spellings."""

TECHNOLOGIES: dict[str, list[str]] = {
    # languages
    "Python": ["python"], "Java": [], "JavaScript": ["javascript", "JS"],
    "TypeScript": ["typescript"], "Go": ["Golang", "golang"], "Rust": [], "C": [],
    "C++": ["cpp"], "C#": ["CSharp"], "Ruby": [], "PHP": [], "Kotlin": [], "Swift": [],
    "Scala": [], "R": [], "SQL": ["sql"], "Bash": ["bash", "shell scripting"],
    "PowerShell": [], "Perl": [], "Elixir": [], "Haskell": [], "MATLAB": ["Matlab"],
    "Dart": [], "Objective-C": [], "HTML": ["HTML5"], "CSS": ["CSS3"], "GraphQL": [],
    "Solidity": [], "COBOL": [], "Fortran": [], "Lua": [], "Julia": [],
    # frameworks and libraries
    "Django": ["django"], "Django REST Framework": ["DRF"], "Flask": [], "FastAPI": [],
    "Spring Boot": ["Spring"], "Ruby on Rails": ["Rails"], "Node.js": ["NodeJS", "Node"],
    "Express": ["Express.js"], "React": ["React.js", "ReactJS"], "React Native": [],
    "Angular": ["AngularJS"], "Vue.js": ["Vue", "VueJS"], "Next.js": [], "Svelte": [],
    ".NET": ["dotnet", "ASP.NET", ".NET Core"], "Celery": [], "Pandas": ["pandas"],
    "NumPy": ["numpy"], "scikit-learn": ["sklearn", "Scikit-learn"],
    "TensorFlow": ["Tensorflow"], "PyTorch": ["Pytorch", "pytorch"], "Keras": [],
    "Spark": ["Apache Spark", "PySpark"], "Hadoop": [], "Airflow": ["Apache Airflow"],
    "dbt": [], "Kafka": ["Apache Kafka"], "RabbitMQ": [], "gRPC": [], "REST": ["RESTful"],
    "jQuery": [], "Tailwind CSS": ["Tailwind"], "Bootstrap": [], "Redux": [],
    "Hibernate": [], "Laravel": [], "Symfony": [], "Unity": [], "Selenium": [],
    "Playwright": [], "Cypress": [], "Jest": [], "pytest": ["PyTest"], "JUnit": [],
    "OpenCV": [], "Hugging Face": ["HuggingFace"], "LangChain": [], "spaCy": [],
    # data stores
    "PostgreSQL": ["Postgres", "postgres", "postgresql", "Postgresql"], "MySQL": ["mysql"],
    "MariaDB": [], "SQLite": [], "Oracle": ["Oracle Database"], "SQL Server": ["MSSQL"],
    "MongoDB": ["Mongo"], "Redis": ["redis"], "Elasticsearch": ["ElasticSearch"],
    "OpenSearch": [], "Cassandra": [], "DynamoDB": [], "Neo4j": [], "Snowflake": [],
    "BigQuery": [], "Redshift": [], "ClickHouse": [], "InfluxDB": [], "Memcached": [],
    "pgvector": [], "ArcadeDB": [], "Firebase": [], "Supabase": [],
    # cloud and operations
    "AWS": ["Amazon Web Services"], "Azure": ["Microsoft Azure"],
    "Google Cloud": ["GCP", "Google Cloud Platform"], "Docker": ["docker"],
    "Kubernetes": ["K8s", "k8s", "kubernetes"], "Terraform": ["terraform"],
    "Ansible": [], "Helm": [], "Jenkins": [], "GitHub Actions": [], "GitLab CI": [],
    "CircleCI": [], "Git": ["git"], "Linux": ["linux"], "Nginx": ["NGINX", "nginx"],
    "Apache": [], "Prometheus": [], "Grafana": [], "Datadog": [], "Splunk": [],
    "CloudFormation": [], "Lambda": ["AWS Lambda"], "EC2": [], "S3": ["Amazon S3"],
    "RDS": [], "ECS": [], "EKS": [], "CloudWatch": [], "OpenShift": [], "Vagrant": [],
    "Pulumi": [], "Argo CD": ["ArgoCD"], "Istio": [], "Serverless": [],
    "CI/CD": ["CI / CD"], "Microservices": ["microservices"], "Kubeflow": [],
    "MLflow": [], "Databricks": [], "Tableau": [], "Power BI": ["PowerBI"],
    "Excel": [], "Salesforce": [], "SAP": [], "ServiceNow": [], "Jira": ["JIRA"],
    "Confluence": [], "Figma": [], "Postman": [], "OpenAI": [], "LLM": ["LLMs"],
    "Machine Learning": ["machine learning", "ML"], "Deep Learning": ["deep learning"],
    "NLP": ["natural language processing", "Natural Language Processing"],
    "Computer Vision": ["computer vision"], "Data Engineering": ["data engineering"],
    "DevOps": ["devops"], "Agile": ["agile"], "Scrum": ["scrum"],
    "Project Management": ["project management"], "Data Analysis": ["data analysis"],
    "Cloud Architecture": ["cloud architecture"], "Cybersecurity": ["cybersecurity"],
    "Android": [], "iOS": [], "Windows": [], "macOS": [], "Xcode": [], "Visual Studio": [],
    "VS Code": ["Visual Studio Code"], "Vim": [], "Webpack": [], "Vite": [], "npm": [],
    "Yarn": [], "Maven": [], "Gradle": [], "OAuth": ["OAuth2", "OAuth 2.0"], "JWT": [],
    "SAML": [], "LDAP": [], "WebSockets": ["WebSocket"], "HTTP": [], "TCP/IP": [],
    "Stripe": [], "Twilio": [], "QuickBooks": [], "ETL": [], "Looker": [], "dbt Cloud": [],
    "PagerDuty": [], "Packer": [], "OpenTelemetry": [], "HL7 FHIR": ["FHIR", "HL7"],
    "Azure Kubernetes Service": ["AKS"], "Amazon EKS": [], "Amazon Aurora PostgreSQL": [],
    "Aurora PostgreSQL": [], "Amazon Aurora": ["Aurora"], "AWS Glue": [],
    "AWS Database Migration Service": ["AWS DMS"], "Amazon SageMaker": ["SageMaker"],
    "XGBoost": [], "LightGBM": [], "DAX": [], "Google OR-Tools": ["OR-Tools"], "Gurobi": [],
    "Loki": [], "ROS": ["ROS 2"], "Nav2": [], "Gazebo": [], "Simulink": [], "SolidWorks": [],
    "AutoCAD Electrical": [], "AutoCAD": [], "TIA Portal": [],
    "Studio 5000 Logix Designer": ["Studio 5000"], "CAN bus": ["CANbus"],
    "EtherNet/IP": [], "Microsoft Excel": [], "Microsoft SQL Server": [], "Vault": [],
    "Consul": [], "Nomad": [], "Kibana": [], "Logstash": [], "Fluentd": [], "Jaeger": [],
    "Sentry": [], "New Relic": [], "Zabbix": [], "Nagios": [], "Ceph": [], "MinIO": [],
    "Trino": [], "Presto": [], "Flink": ["Apache Flink"], "Dask": [], "Streamlit": [],
    "Plotly": [], "Matplotlib": [], "SciPy": [], "statsmodels": [], "SAS": [], "SPSS": [],
    "Stata": [], "Fivetran": [], "Airbyte": [], "Informatica": [], "Alteryx": [],
    "Power Apps": [], "SharePoint": [], "Microsoft 365": ["Office 365"], "Outlook": [],
    "Teams": ["Microsoft Teams"], "Slack": [], "Zoom": [], "PLC": ["PLCs"], "SCADA": [],
    "MATLAB/Simulink": [], "LabVIEW": [], "Arduino": [], "Raspberry Pi": [],
}  # fmt: skip

# Everyday words that are technologies only among other technologies ("Go, Rust, C").
AMBIGUOUS = {
    "Go", "Rust", "C", "R", "Swift", "Spring", "Ruby", "Dart", "Julia", "Scala", "Express",
    "Node", "Unity", "Apache", "Lambda", "Helm", "Excel", "Oracle", "Serverless", "Agile",
    "Scrum", "Bootstrap", "Spark", "Vue", "Rails", "Jest", "Vim", "Yarn", "Mongo", "REST",
    "Windows", "Android", "HTTP", "Git", "ML", "SAP", "Apache Spark", "Stripe", "Maven",
    "Redux", "Hibernate", "Lua", "Perl", "Elixir", "JS", "Cypress", "Vite", "Playwright",
    "Vault", "Consul", "Nomad", "Loki", "Packer", "Teams", "Slack", "Zoom", "Outlook", "Aurora",
    "Presto", "Sentry", "Gazebo", "Trino", "ROS", "Stata", "DAX",
}  # fmt: skip

# Headings that name a section, never an entity.
SECTION_WORDS = {
    "summary", "profile", "skills", "experience", "education", "projects", "certifications",
    "languages", "references", "contact", "interests", "awards", "publications", "overview",
    "introduction", "purpose", "scope", "policy", "procedure", "responsibilities",
    "objective", "about", "core competencies", "technical expertise", "work history",
    "employment", "volunteering", "training", "tools", "key skills", "appendix",
}  # fmt: skip

# Canonical names above that are practices rather than tools; they are typed Technology too
# (one type for "what someone is experienced with"), this set only documents them.
PRACTICES = {
    "Machine Learning", "Deep Learning", "NLP", "Computer Vision", "Data Engineering",
    "DevOps", "Agile", "Scrum", "Project Management", "Data Analysis", "Cloud Architecture",
    "Cybersecurity", "Microservices", "CI/CD", "ETL",
}  # fmt: skip

# Headings under which an organization is an employer, or a place of study.
EXPERIENCE_HEADINGS = (
    "experience", "employment", "work history", "career", "positions", "professional background",
    "background", "roles",
)  # fmt: skip
EDUCATION_HEADINGS = ("education", "academic", "training", "qualifications", "degrees")
SKILL_HEADINGS = ("skill", "expertise", "competenc", "technolog", "tools", "stack", "proficienc")
