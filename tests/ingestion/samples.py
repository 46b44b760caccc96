"""Small documents in every format, built in memory."""

import io

ALEXIS_MD = """# Alexis Torres

Senior Software Engineer | San Francisco, CA

## Professional Summary

Alexis Torres is a backend engineer with eight years of experience building Python and AWS
services. Alexis enjoys mentoring new engineers.

## Technical Expertise

Python, Go, PostgreSQL, Docker, Kubernetes, Terraform, React

## Work Experience

### TechCorp \u2013 Senior Software Engineer

San Francisco, CA | 2020 \u2013 Present

Led the AWS migration project with Sarah Chen. Torres designed the billing platform on
Kubernetes.

![Billing architecture](arch.png)

## Education

B.S. Computer Science, University of Texas at Austin, 2016
"""

SARAH_TXT = """SARAH CHEN
Staff Data Engineer, Seattle, WA

SUMMARY
Sarah Chen builds data platforms in Python and Spark for logistics companies.

CORE COMPETENCIES
Python, Spark, Kafka, AWS, Airflow, SQL, Snowflake

EXPERIENCE
Staff Engineer at TechCorp (2019 - Present). Worked with Alexis Torres on the AWS migration
project and with James Smith on the reporting platform.

EDUCATION
M.S. Computer Science, University of Washington, 2015
"""

JAMES_HTML = """<!doctype html><html><head><title>James Smith - Resume</title></head>
<body><h1>James Smith</h1><p>Platform Engineer · Houston, TX</p>
<h2>Skills</h2><ul><li>Java, Kotlin, Kubernetes, Terraform, Jenkins</li></ul>
<h2>Experience</h2><h3>TechCorp \u2013 Platform Engineer</h3>
<p>Houston, TX | 2018 \u2013 2024</p>
<p>Built the deployment pipeline with Sarah Chen.</p>
<figure><img src="https://example.com/pipeline.png" alt="pipeline">
<figcaption>Figure 1: Deployment pipeline</figcaption></figure>
<h2>Education</h2><p>B.S. Computer Engineering, Rice University, 2017</p>
</body></html>
"""

POLICY_MD = """# Overtime Policy

## Purpose

Overtime keeps crews safe and paid fairly. Work beyond forty hours in a week is overtime.

## Approval

A supervisor approves overtime before it is worked, except during emergency crane
recovery, when approval follows within one business day.

## Pay

Overtime is paid at one and a half times the regular rate.
"""


def docx_resume() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("Priya Raman", style="Title")
    document.add_paragraph("Data Scientist, Houston, TX")
    document.add_heading("Core Competencies", level=1)
    document.add_paragraph("Python, scikit-learn, XGBoost, SQL, Tableau")
    document.add_heading("Experience", level=1)
    document.add_heading("TechCorp \u2013 Data Scientist", level=2)
    document.add_paragraph("Built demand forecasts with James Smith for the dispatch team.")
    document.add_picture(io.BytesIO(png_bytes()))
    document.add_paragraph("Figure 2: Forecast accuracy", style="Caption")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Year"
    table.rows[0].cells[1].text = "2021"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def png_bytes() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (24, 16), (20, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def pdf_manual(*, outline: bool = True) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()

    def heading(text: str, size: int, level: int) -> None:
        pdf.set_font("Helvetica", "B", size)
        if outline:
            pdf.start_section(text, level=level)
        pdf.cell(0, 10, text, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)

    def para(text: str) -> None:
        pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")

    heading("Field Service User Manual", 20, 0)
    para("This manual explains how dispatchers and technicians use the field-service system.")
    heading("Work Orders", 15, 1)
    para("A work order records the job, its customer, its crew and its status. " * 6)
    with io.BytesIO(png_bytes()) as image:
        pdf.image(image, w=20)
    pdf.set_x(pdf.l_margin)
    para("Figure 3: A work order on screen")
    pdf.add_page()
    heading("Inspections", 15, 1)
    para("Inspections are recorded against an asset with a checklist and a signature.")
    return bytes(pdf.output())
