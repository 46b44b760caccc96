"""Render the demo document corpus and its evaluation sets.

Sources live in demo/sources/: one Markdown file per document (a small front matter names
the output file), `figures.py` describes the diagrams, `questions.py` the retrieval
questions and `entities.py` the entity labels. Running this script rewrites demo/corpus/,
demo/questions/retrieval.jsonl and demo/labels/entities.jsonl, byte for byte the same on
every run, and checks the evaluation sets against the rendered text.

    .venv/bin/python demo/build_corpus.py          # build and check
    .venv/bin/python demo/build_corpus.py --check  # check only, write nothing
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import itertools
import json
import re
import struct
import sys
import textwrap
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

DEMO = Path(__file__).resolve().parent
SOURCES = DEMO / "sources"
CORPUS = DEMO / "corpus"
GROUPS = ("resumes", "manual", "policies")
FORMATS = ("md", "txt", "html", "pdf", "docx")
MAX_CORPUS_BYTES = 3 * 1024 * 1024
MIN_WORDS, MAX_WORDS = 300, 1500

sys.path.insert(0, str(SOURCES))


# --------------------------------------------------------------------------------------
# Source documents


@dataclass
class Block:
    kind: str  # heading, para, bullets, numbers, table, figure
    level: int = 0
    text: str = ""
    items: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    figure: str = ""
    caption: str = ""


@dataclass
class Doc:
    source: Path
    group: str
    meta: dict[str, str]
    body: str
    blocks: list[Block]

    @property
    def output(self) -> str:
        return self.meta["output"]

    @property
    def fmt(self) -> str:
        return self.output.rsplit(".", 1)[1]

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def date(self) -> datetime:
        return datetime.strptime(self.meta["date"], "%Y-%m-%d").replace(hour=9, tzinfo=UTC)


FIGURE_RE = re.compile(r'^!\[(?P<alt>[^\]]+)\]\(figure:(?P<name>[a-z_]+) "(?P<caption>[^"]+)"\)$')


def load_doc(path: Path, group: str) -> Doc:
    raw = path.read_text(encoding="utf-8")
    if not raw.startswith("---\n"):
        raise ValueError(f"{path}: missing front matter")
    head, body = raw[4:].split("\n---\n", 1)
    meta = {}
    for line in head.splitlines():
        key, value = line.split(":", 1)
        meta[key.strip()] = value.strip()
    for key in ("output", "title", "author", "date"):
        if key not in meta:
            raise ValueError(f"{path}: front matter lacks {key}")
    body = body.strip("\n") + "\n"
    return Doc(path, group, meta, body, parse_blocks(body, path))


def parse_blocks(body: str, path: Path) -> list[Block]:
    blocks: list[Block] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = re.match(r"^(#{1,4}) (.+)$", line)
        if heading:
            blocks.append(Block("heading", level=len(heading.group(1)), text=heading.group(2)))
            i += 1
            continue
        figure = FIGURE_RE.match(line)
        if figure:
            blocks.append(
                Block(
                    "figure",
                    text=figure.group("alt"),
                    figure=figure.group("name"),
                    caption=figure.group("caption"),
                )
            )
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            if len({len(r) for r in rows}) != 1:
                raise ValueError(f"{path}: ragged table near {rows[0]}")
            blocks.append(Block("table", rows=rows))
            continue
        list_kind = (
            "bullets" if line.startswith("- ") else "numbers" if re.match(r"^\d+\. ", line) else ""
        )
        if list_kind:
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                item = lines[i]
                if item.startswith("- ") or re.match(r"^\d+\. ", item):
                    items.append(item.split(" ", 1)[1].strip())
                elif item.startswith("  ") and items:
                    items[-1] += " " + item.strip()
                else:
                    raise ValueError(f"{path}: unexpected line in list: {item!r}")
                i += 1
            blocks.append(Block(list_kind, items=items))
            continue
        para = []
        while (
            i < len(lines)
            and lines[i].strip()
            and not re.match(r"^(#{1,4} |- |\d+\. |\||!\[)", lines[i])
        ):
            para.append(lines[i].strip())
            i += 1
        blocks.append(Block("para", text=" ".join(para)))
    levels = [b.level for b in blocks if b.kind == "heading"]
    if not levels or levels[0] != 1 or levels.count(1) != 1:
        raise ValueError(f"{path}: a document has exactly one level-1 heading, first")
    for before, after in itertools.pairwise(levels):
        if after > before + 1:
            raise ValueError(f"{path}: heading level jumps from {before} to {after}")
    return blocks


INLINE_RE = re.compile(r"(\*\*.+?\*\*|\*[^*]+?\*)")


def runs(text: str) -> list[tuple[str, bool, bool]]:
    """Inline markup as (text, bold, italic) runs; only **bold** and *italic* are used."""
    out = []
    for part in INLINE_RE.split(text):
        if not part:
            continue
        if part.startswith("**"):
            out.append((part[2:-2], True, False))
        elif part.startswith("*") and part.endswith("*") and len(part) > 1:
            out.append((part[1:-1], False, True))
        else:
            out.append((part, False, False))
    return out


def plain(text: str) -> str:
    return "".join(t for t, _, _ in runs(text))


def load_docs() -> list[Doc]:
    docs = []
    for group in GROUPS:
        for path in sorted((SOURCES / group).glob("*.md")):
            docs.append(load_doc(path, group))
    names = [d.output for d in docs]
    if len(set(names)) != len(names):
        raise ValueError("two sources render to the same file name")
    return docs


# --------------------------------------------------------------------------------------
# Figures: small PNG diagrams drawn pixel by pixel (5x7 bitmap lettering)

GLYPHS = {
    "A": ("01110", "10001", "10001", "11111", "10001", "10001", "10001"),
    "B": ("11110", "10001", "10001", "11110", "10001", "10001", "11110"),
    "C": ("01110", "10001", "10000", "10000", "10000", "10001", "01110"),
    "D": ("11110", "10001", "10001", "10001", "10001", "10001", "11110"),
    "E": ("11111", "10000", "10000", "11110", "10000", "10000", "11111"),
    "F": ("11111", "10000", "10000", "11110", "10000", "10000", "10000"),
    "G": ("01110", "10001", "10000", "10111", "10001", "10001", "01111"),
    "H": ("10001", "10001", "10001", "11111", "10001", "10001", "10001"),
    "I": ("01110", "00100", "00100", "00100", "00100", "00100", "01110"),
    "J": ("00111", "00010", "00010", "00010", "00010", "10010", "01100"),
    "K": ("10001", "10010", "10100", "11000", "10100", "10010", "10001"),
    "L": ("10000", "10000", "10000", "10000", "10000", "10000", "11111"),
    "M": ("10001", "11011", "10101", "10101", "10001", "10001", "10001"),
    "N": ("10001", "10001", "11001", "10101", "10011", "10001", "10001"),
    "O": ("01110", "10001", "10001", "10001", "10001", "10001", "01110"),
    "P": ("11110", "10001", "10001", "11110", "10000", "10000", "10000"),
    "Q": ("01110", "10001", "10001", "10001", "10101", "10010", "01101"),
    "R": ("11110", "10001", "10001", "11110", "10100", "10010", "10001"),
    "S": ("01111", "10000", "10000", "01110", "00001", "00001", "11110"),
    "T": ("11111", "00100", "00100", "00100", "00100", "00100", "00100"),
    "U": ("10001", "10001", "10001", "10001", "10001", "10001", "01110"),
    "V": ("10001", "10001", "10001", "10001", "10001", "01010", "00100"),
    "W": ("10001", "10001", "10001", "10101", "10101", "10101", "01010"),
    "X": ("10001", "10001", "01010", "00100", "01010", "10001", "10001"),
    "Y": ("10001", "10001", "01010", "00100", "00100", "00100", "00100"),
    "Z": ("11111", "00001", "00010", "00100", "01000", "10000", "11111"),
    "0": ("01110", "10001", "10011", "10101", "11001", "10001", "01110"),
    "1": ("00100", "01100", "00100", "00100", "00100", "00100", "01110"),
    "2": ("01110", "10001", "00001", "00010", "00100", "01000", "11111"),
    "3": ("11110", "00001", "00001", "01110", "00001", "00001", "11110"),
    "4": ("00010", "00110", "01010", "10010", "11111", "00010", "00010"),
    "5": ("11111", "10000", "11110", "00001", "00001", "10001", "01110"),
    "6": ("00110", "01000", "10000", "11110", "10001", "10001", "01110"),
    "7": ("11111", "00001", "00010", "00100", "01000", "01000", "01000"),
    "8": ("01110", "10001", "10001", "01110", "10001", "10001", "01110"),
    "9": ("01110", "10001", "10001", "01111", "00001", "00010", "01100"),
    "-": ("00000", "00000", "00000", "11111", "00000", "00000", "00000"),
    "/": ("00001", "00010", "00010", "00100", "01000", "01000", "10000"),
    " ": ("00000",) * 7,
}


class Canvas:
    def __init__(self, width: int, height: int, background: tuple[int, int, int]) -> None:
        self.width, self.height = width, height
        self.pixels = [bytearray(bytes(background) * width) for _ in range(height)]

    def dot(self, x: int, y: int, color: tuple[int, int, int]) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.pixels[y][3 * x : 3 * x + 3] = bytes(color)

    def rect(self, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
        for row in range(max(y, 0), min(y + h, self.height)):
            for col in range(max(x, 0), min(x + w, self.width)):
                self.pixels[row][3 * col : 3 * col + 3] = bytes(color)

    def frame(
        self, x: int, y: int, w: int, h: int, color: tuple[int, int, int], t: int = 2
    ) -> None:
        self.rect(x, y, w, t, color)
        self.rect(x, y + h - t, w, t, color)
        self.rect(x, y, t, h, color)
        self.rect(x + w - t, y, t, h, color)

    def text(self, x: int, y: int, label: str, color: tuple[int, int, int], scale: int = 2) -> None:
        for n, char in enumerate(label.upper()):
            glyph = GLYPHS[char]
            for gy, line in enumerate(glyph):
                for gx, bit in enumerate(line):
                    if bit == "1":
                        self.rect(x + (n * 6 + gx) * scale, y + gy * scale, scale, scale, color)

    @staticmethod
    def text_width(label: str, scale: int = 2) -> int:
        return (len(label) * 6 - 1) * scale

    def label_box(
        self, x: int, y: int, w: int, h: int, label: str, fill, ink, scale: int = 2
    ) -> None:
        self.rect(x, y, w, h, fill)
        self.frame(x, y, w, h, (60, 60, 60))
        lines = label.split("\n")
        total = len(lines) * 7 * scale + (len(lines) - 1) * 4
        top = y + (h - total) // 2
        for k, line in enumerate(lines):
            left = x + (w - self.text_width(line, scale)) // 2
            self.text(left, top + k * (7 * scale + 4), line, ink, scale)

    def arrow(
        self, x1: int, y1: int, x2: int, y2: int, head: bool = True, color=(70, 70, 70), t: int = 3
    ) -> None:
        """Horizontal or vertical arrow, with a head at (x2, y2) unless head is False."""
        if y1 == y2:
            step = 1 if x2 > x1 else -1
            self.rect(min(x1, x2) - t // 2, y1 - t // 2, abs(x2 - x1) + t, t, color)
            for k in range(14 if head else 0):
                self.rect(x2 - step * k, y2 - k // 2, 1, 2 * (k // 2) + 1, color)
        else:
            step = 1 if y2 > y1 else -1
            self.rect(x1 - t // 2, min(y1, y2) - t // 2, t, abs(y2 - y1) + t, color)
            for k in range(14 if head else 0):
                self.rect(x2 - k // 2, y2 - step * k, 2 * (k // 2) + 1, 1, color)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.pixels)

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b"")
        )


def draw_figure(name: str) -> bytes:
    import figures

    spec = figures.FIGURES[name]
    canvas = Canvas(spec["width"], spec["height"], (255, 255, 255))
    for box in spec["boxes"]:
        canvas.label_box(
            box["x"],
            box["y"],
            box["w"],
            box["h"],
            box["label"],
            box["fill"],
            box.get("ink", (20, 20, 20)),
        )
    for x1, y1, x2, y2, *head in spec["arrows"]:
        canvas.arrow(x1, y1, x2, y2, head=not head or head[0])
    for x, y, label in spec.get("labels", ()):
        canvas.text(x, y, label, (90, 90, 90), 1 if len(label) > 24 else 2)
    return canvas.png()


# --------------------------------------------------------------------------------------
# Plain text

TXT_WIDTH = 78


def txt_headings(doc: Doc) -> list[str]:
    """Heading texts as the plain text file shows them (numbered in the numbered style)."""
    numbered = doc.meta.get("txt_style") == "numbered"
    counters = [0] * 6
    texts = []
    for block in doc.blocks:
        if block.kind != "heading":
            continue
        text = plain(block.text)
        if numbered and block.level > 1:
            counters[block.level] += 1
            counters[block.level + 1 :] = [0] * (5 - block.level)
            number = ".".join(str(counters[k]) for k in range(2, block.level + 1))
            text = f"{number}. {text}" if block.level == 2 else f"{number} {text}"
        texts.append(text)
    return texts


def render_txt(doc: Doc) -> str:
    """Plain text conventions: the title underlined with '=', sections underlined with '-'
    (or in capitals), short subsections as a line ending in a colon."""
    style = doc.meta.get("txt_style", "setext")
    out: list[str] = []
    heading_texts = iter(txt_headings(doc))
    for block in doc.blocks:
        if block.kind == "heading":
            text = next(heading_texts)
            if block.level == 1:
                out += [text, "=" * len(text), ""]
            elif block.level == 2:
                out += ["", text, ""] if style == "caps" else ["", text, "-" * len(text), ""]
            elif style != "caps" and len(text.split()) <= 5:
                out += [text + ":", ""]
            else:
                out += [text, ""]
        elif block.kind == "para":
            out += [*textwrap.wrap(plain(block.text), TXT_WIDTH, break_on_hyphens=False), ""]
        elif block.kind in ("bullets", "numbers"):
            for n, item in enumerate(block.items, start=1):
                mark = "  - " if block.kind == "bullets" else f"  {n}. "
                out += textwrap.wrap(
                    plain(item),
                    TXT_WIDTH,
                    initial_indent=mark,
                    subsequent_indent=" " * len(mark),
                    break_on_hyphens=False,
                )
            out.append("")
        elif block.kind == "table":
            out += [*txt_table([[plain(c) for c in row] for row in block.rows]), ""]
        elif block.kind == "figure":
            out += [*textwrap.wrap(f"[{block.caption}]", TXT_WIDTH), ""]
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def txt_table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    if sum(widths) + 2 * len(widths) <= TXT_WIDTH + 20:
        lines = []
        for n, row in enumerate(rows):
            lines.append("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
            if n == 0:
                lines.append("  ".join("-" * w for w in widths))
        return lines
    header, *body = rows
    lines = []
    for row in body:
        first = f"{header[0]}: {row[0]}"
        lines += textwrap.wrap(first, TXT_WIDTH, initial_indent="  * ", subsequent_indent="    ")
        for name, cell in zip(header[1:], row[1:], strict=True):
            lines += textwrap.wrap(
                f"{name}: {cell}", TXT_WIDTH, initial_indent="    ", subsequent_indent="      "
            )
    return lines


# --------------------------------------------------------------------------------------
# HTML

CSS = """body{font-family:Georgia,'Times New Roman',serif;max-width:46rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.5}
h1{font-family:Helvetica,Arial,sans-serif;font-size:2rem;margin-bottom:.25rem}
h2{font-family:Helvetica,Arial,sans-serif;font-size:1.35rem;border-bottom:1px solid #bbb;
padding-bottom:.2rem;margin-top:2rem}
h3{font-family:Helvetica,Arial,sans-serif;font-size:1.1rem;margin-bottom:.3rem}
h4{font-family:Helvetica,Arial,sans-serif;font-size:1rem;font-style:italic}
table{border-collapse:collapse;margin:1rem 0;width:100%}
th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f4}
figure{margin:1.5rem 0;text-align:center}figcaption{font-size:.9rem;color:#555;font-style:italic}
footer{margin-top:3rem;font-size:.85rem;color:#666;border-top:1px solid #ddd;padding-top:.5rem}"""


def html_inline(text: str) -> str:
    parts = []
    for chunk, bold, italic in runs(text):
        escaped = html.escape(chunk, quote=False)
        if bold:
            escaped = f"<strong>{escaped}</strong>"
        if italic:
            escaped = f"<em>{escaped}</em>"
        parts.append(escaped)
    return "".join(parts)


def render_html(doc: Doc) -> str:
    body: list[str] = []
    for block in doc.blocks:
        if block.kind == "heading":
            body.append(f"<h{block.level}>{html_inline(block.text)}</h{block.level}>")
        elif block.kind == "para":
            body.append(f"<p>{html_inline(block.text)}</p>")
        elif block.kind in ("bullets", "numbers"):
            tag = "ul" if block.kind == "bullets" else "ol"
            items = "\n".join(f"  <li>{html_inline(i)}</li>" for i in block.items)
            body.append(f"<{tag}>\n{items}\n</{tag}>")
        elif block.kind == "table":
            head = "".join(f"<th>{html_inline(c)}</th>" for c in block.rows[0])
            rows = "\n".join(
                "  <tr>" + "".join(f"<td>{html_inline(c)}</td>" for c in row) + "</tr>"
                for row in block.rows[1:]
            )
            body.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>"
            )
        elif block.kind == "figure":
            png = draw_figure(block.figure)
            width, height = struct.unpack(">II", png[16:24])
            data = base64.b64encode(png).decode()
            body.append(
                f'<figure>\n  <img src="data:image/png;base64,{data}"'
                f' width="{width}" height="{height}"'
                f' alt="{html.escape(block.text)}">\n'
                f"  <figcaption>{html_inline(block.caption)}</figcaption>\n</figure>"
            )
    footer = doc.meta.get("footer")
    if footer:
        body.append(f"<footer>{html_inline(footer)}</footer>")
    content = "\n".join(body)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(doc.title)}</title>\n"
        f'<meta name="author" content="{html.escape(doc.meta["author"])}">\n'
        f'<meta name="date" content="{doc.meta["date"]}">\n'
        f"<style>\n{CSS}\n</style>\n</head>\n<body>\n<article>\n{content}\n</article>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------------------
# Markdown


def render_md(doc: Doc) -> str:
    for block in doc.blocks:
        if block.kind == "figure":
            raise ValueError(f"{doc.source}: figures are not used in Markdown outputs")
    body = doc.body
    footer = doc.meta.get("footer")
    if footer:
        body += f"\n---\n\n{footer}\n"
    return body


# --------------------------------------------------------------------------------------
# PDF

PDF_CHARS = {
    "\u2013": "-",
    "\u2014": " - ",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2026": "...",
    "\u2022": "-",
    "\u2192": "->",
    "\u2264": "<=",
    "\u2265": ">=",
    "\u00a0": " ",
}


def pdf_text(text: str) -> str:
    for char, replacement in PDF_CHARS.items():
        text = text.replace(char, replacement)
    text.encode("latin-1")  # core fonts: fail loudly on anything else
    return text


def pdf_markdown(text: str) -> str:
    """fpdf2's inline markup: **bold** and __italic__."""
    out = []
    for chunk, bold, italic in runs(text):
        chunk = pdf_text(chunk)
        if "--" in chunk or "__" in chunk:
            raise ValueError(f"sequence fpdf2 would read as markup in {chunk!r}")
        out.append(f"**{chunk}**" if bold else f"__{chunk}__" if italic else chunk)
    return "".join(out)


def render_pdf(doc: Doc) -> bytes:
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    title = pdf_text(doc.title)

    class Pdf(FPDF):
        def footer(self) -> None:
            self.set_y(-14)
            self.set_font("Helvetica", "", 8)
            self.set_text_color(110, 110, 110)
            self.cell(0, 6, title, align="L")
            self.set_x(self.l_margin)
            self.cell(0, 6, f"Page {self.page_no()} of {{nb}}", align="R")
            self.set_text_color(0, 0, 0)

    pdf = Pdf(format="letter", unit="mm")
    pdf.set_margins(22, 20, 22)
    pdf.set_auto_page_break(True, margin=20)
    pdf.set_title(title)
    pdf.set_author(pdf_text(doc.meta["author"]))
    pdf.set_subject(pdf_text(doc.meta.get("subject", doc.title)))
    pdf.set_keywords(pdf_text(doc.meta.get("keywords", "")))
    pdf.set_creator(pdf_text(doc.meta.get("publisher", doc.meta["author"])))
    pdf.set_producer(pdf_text(doc.meta.get("publisher", doc.meta["author"])))
    pdf.set_creation_date(doc.date)
    pdf.set_lang("en-US")
    pdf.alias_nb_pages()
    pdf.add_page()
    sizes = {1: 20, 2: 14.5, 3: 12, 4: 10.5}
    body_size, line = 10, 5.2
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for block in doc.blocks:
        if block.kind == "heading":
            text = pdf_text(plain(block.text))
            if pdf.get_y() > pdf.page_break_trigger - 32 and block.level > 1:
                pdf.add_page()
            pdf.ln({1: 0, 2: 5, 3: 3, 4: 2}[block.level])
            pdf.start_section(text, level=block.level - 1)
            pdf.set_font("Helvetica", "BI" if block.level == 4 else "B", sizes[block.level])
            color = (20, 45, 90) if block.level <= 2 else (30, 30, 30)
            pdf.set_text_color(*color)
            pdf.multi_cell(
                width,
                sizes[block.level] * 0.5,
                text,
                align="L",
                new_x=XPos.LMARGIN,
                new_y=YPos.NEXT,
            )
            pdf.set_text_color(0, 0, 0)
            if block.level <= 2:
                y = pdf.get_y() + 1
                pdf.set_draw_color(150, 165, 190)
                pdf.set_line_width(0.6 if block.level == 1 else 0.3)
                pdf.line(pdf.l_margin, y, pdf.l_margin + width, y)
                pdf.ln(3 if block.level == 1 else 2.5)
            else:
                pdf.ln(1)
        elif block.kind == "para":
            pdf.set_font("Helvetica", "", body_size)
            pdf.multi_cell(
                width,
                line,
                pdf_markdown(block.text),
                markdown=True,
                new_x=XPos.LMARGIN,
                new_y=YPos.NEXT,
            )
            pdf.ln(2)
        elif block.kind in ("bullets", "numbers"):
            pdf.set_font("Helvetica", "", body_size)
            for n, item in enumerate(block.items, start=1):
                mark = "-" if block.kind == "bullets" else f"{n}."
                pdf.set_x(pdf.l_margin + 3)
                pdf.cell(6, line, mark)
                pdf.multi_cell(
                    width - 9,
                    line,
                    pdf_markdown(item),
                    markdown=True,
                    align="L",
                    new_x=XPos.LMARGIN,
                    new_y=YPos.NEXT,
                )
                pdf.ln(0.8)
            pdf.ln(1.5)
        elif block.kind == "table":
            pdf.set_font("Helvetica", "", body_size - 1)
            longest = [
                max(len(plain(row[c])) for row in block.rows) for c in range(len(block.rows[0]))
            ]
            with pdf.table(
                col_widths=tuple(min(max(n + 2, 10), 60) for n in longest),
                line_height=4.6,
                first_row_as_headings=True,
                headings_style=_pdf_heading_style(),
                width=width,
                text_align="LEFT",
                padding=1.2,
            ) as table:
                for row in block.rows:
                    cells = table.row()
                    for cell in row:
                        cells.cell(pdf_text(plain(cell)))
            pdf.ln(3)
        elif block.kind == "figure":
            png = draw_figure(block.figure)
            px_w, px_h = struct.unpack(">II", png[16:24])
            img_w = min(width, px_w * 0.2)
            img_h = img_w * px_h / px_w
            if pdf.get_y() + img_h + 14 > pdf.page_break_trigger:
                pdf.add_page()
            pdf.image(
                io.BytesIO(png),
                x=pdf.l_margin + (width - img_w) / 2,
                w=img_w,
                alt_text=pdf_text(block.text),
            )
            pdf.ln(1.5)
            pdf.set_font("Helvetica", "I", 8.5)
            pdf.multi_cell(
                width,
                4.2,
                pdf_text(plain(block.caption)),
                align="C",
                new_x=XPos.LMARGIN,
                new_y=YPos.NEXT,
            )
            pdf.ln(3)
    return bytes(pdf.output())


def _pdf_heading_style():
    from fpdf.fonts import FontFace

    return FontFace(emphasis="BOLD", fill_color=(228, 233, 240))


# --------------------------------------------------------------------------------------
# DOCX

APP_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    "<Template>Normal.dotm</Template><Company>{company}</Company></Properties>"
)
ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def render_docx(doc: Doc) -> bytes:
    from docx import Document
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches, Pt

    document = Document()
    normal = document.styles["Normal"]
    normal.font.name = "Calibri"
    normal.font.size = Pt(10.5)
    props = document.core_properties
    props.title = doc.title
    props.author = doc.meta["author"]
    props.last_modified_by = doc.meta["author"]
    props.subject = doc.meta.get("subject", "")
    props.keywords = doc.meta.get("keywords", "")
    props.comments = ""
    props.category = doc.group
    props.created = doc.date.replace(tzinfo=None)
    props.modified = doc.date.replace(tzinfo=None)
    props.revision = int(doc.meta.get("revision", "1"))
    number_list_count = 0
    for block in doc.blocks:
        if block.kind == "heading":
            document.add_heading(plain(block.text), level=block.level)
        elif block.kind == "para":
            _docx_runs(document.add_paragraph(), block.text)
        elif block.kind == "bullets":
            for item in block.items:
                _docx_runs(document.add_paragraph(style="List Bullet"), item)
        elif block.kind == "numbers":
            number_list_count += 1
            num_id = _restart_numbering(document) if number_list_count > 1 else None
            for item in block.items:
                paragraph = document.add_paragraph(style="List Number")
                if num_id is not None:
                    _set_num_id(paragraph, num_id)
                _docx_runs(paragraph, item)
        elif block.kind == "table":
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            table.style = document.styles["Table Grid"]
            for r, row in enumerate(block.rows):
                for c, text in enumerate(row):
                    cell = table.cell(r, c)
                    cell.text = ""
                    paragraph = cell.paragraphs[0]
                    _docx_runs(paragraph, f"**{plain(text)}**" if r == 0 else text)
            document.add_paragraph()
        elif block.kind == "figure":
            png = draw_figure(block.figure)
            document.add_picture(io.BytesIO(png), width=Inches(6.0))
            picture_paragraph = document.paragraphs[-1]
            picture_paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
            doc_pr = document.inline_shapes[-1]._inline.docPr
            doc_pr.set("descr", block.text)
            doc_pr.set("title", plain(block.caption).split(".")[0])
            caption = document.add_paragraph(style="Caption")
            caption.alignment = WD_ALIGN_PARAGRAPH.CENTER
            _docx_runs(caption, block.caption)
    footer = doc.meta.get("footer")
    if footer:
        section = document.sections[0]
        paragraph = section.footer.paragraphs[0]
        paragraph.text = plain(footer)
    buffer = io.BytesIO()
    document.save(buffer)
    return _normalize_zip(buffer.getvalue(), doc.meta.get("publisher", doc.meta["author"]))


def _docx_runs(paragraph, text: str) -> None:
    for chunk, bold, italic in runs(text):
        run = paragraph.add_run(chunk)
        run.bold = bold or None
        run.italic = italic or None


def _restart_numbering(document) -> int:
    """A new w:num on the List Number definition, restarting at 1."""
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls, qn

    numbering = document.part.numbering_part.element
    style = document.styles["List Number"]
    base_id = int(style.element.pPr.numPr.numId.val)
    abstract_id = next(
        n.find(qn("w:abstractNumId")).get(qn("w:val"))
        for n in numbering.findall(qn("w:num"))
        if int(n.get(qn("w:numId"))) == base_id
    )
    new_id = max(int(n.get(qn("w:numId"))) for n in numbering.findall(qn("w:num"))) + 1
    numbering.append(
        parse_xml(
            f'<w:num {nsdecls("w")} w:numId="{new_id}"><w:abstractNumId w:val="{abstract_id}"/>'
            '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        )
    )
    return new_id


def _set_num_id(paragraph, num_id: int) -> None:
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    p_pr = paragraph._p.get_or_add_pPr()
    p_pr.append(
        parse_xml(
            f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
        )
    )


def _normalize_zip(data: bytes, company: str) -> bytes:
    """Fixed timestamps and neutral extended properties, so every build is identical."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            if name == "docProps/thumbnail.jpeg":
                continue
            content = source.read(name)
            if name == "docProps/app.xml":
                content = APP_XML.format(company=html.escape(company)).encode()
            if name in ("_rels/.rels", "[Content_Types].xml"):
                content = re.sub(rb"<Relationship [^>]*thumbnail[^>]*/>", b"", content)
                content = re.sub(rb'<Default Extension="jpeg"[^>]*/>', b"", content)
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, content)
    return out.getvalue()


# --------------------------------------------------------------------------------------
# Build and checks


def render(doc: Doc) -> bytes:
    if doc.fmt == "md":
        return render_md(doc).encode()
    if doc.fmt == "txt":
        return render_txt(doc).encode()
    if doc.fmt == "html":
        return render_html(doc).encode()
    if doc.fmt == "pdf":
        return render_pdf(doc)
    if doc.fmt == "docx":
        return render_docx(doc)
    raise ValueError(f"unknown format {doc.fmt}")


def doc_text(doc: Doc) -> str:
    """The words a reader sees, for word counts and for checking the evaluation sets."""
    return render_txt(doc)


def headings(doc: Doc) -> list[str]:
    """Heading texts as they appear in the rendered file."""
    if doc.fmt == "txt":
        return txt_headings(doc)
    texts = [plain(b.text) for b in doc.blocks if b.kind == "heading"]
    return [pdf_text(t) for t in texts] if doc.fmt == "pdf" else texts


def norm(text: str) -> str:
    text = text.replace("\u2013", "-").replace("\u2014", "-").replace("\u2019", "'")
    return re.sub(r"\s+", " ", text).lower()


def check_corpus(docs: list[Doc]) -> list[str]:
    problems = []
    counts = {f: 0 for f in FORMATS}
    for doc in docs:
        counts[doc.fmt] += 1
        words = len(doc_text(doc).split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            problems.append(f"{doc.output}: {words} words")
        if doc.fmt == "pdf":
            for block in doc.blocks:
                for text in [
                    block.text,
                    block.caption,
                    *block.items,
                    *itertools.chain(*block.rows),
                ]:
                    try:
                        pdf_text(text)
                    except UnicodeEncodeError:
                        problems.append(f"{doc.output}: character outside Latin-1 in {text!r}")
    for fmt, count in counts.items():
        if count < 5:
            problems.append(f"only {count} {fmt} documents")
    return problems


def check_questions(docs: list[Doc], questions: list[dict]) -> list[str]:
    import questions as question_module

    by_name = {d.output: d for d in docs}
    texts = {d.output: norm(doc_text(d)) for d in docs}
    problems = []
    seen = set()
    for q in questions:
        label = q["question"]
        if label in seen:
            problems.append(f"duplicate question {label!r}")
        seen.add(label)
        if q["type"] not in question_module.TYPES:
            problems.append(f"{label!r}: unknown type {q['type']}")
        relevant = q["relevant_documents"]
        if not relevant:
            problems.append(f"{label!r}: no relevant documents")
        for name in relevant:
            if name not in by_name:
                problems.append(f"{label!r}: unknown document {name}")
        if any(name not in by_name for name in relevant):
            continue
        for section in q.get("relevant_sections", []):
            if not any(section == h for name in relevant for h in headings(by_name[name])):
                problems.append(f"{label!r}: no heading {section!r} in {relevant}")
        union = " ".join(texts[n] for n in relevant)
        for answer in q.get("answers", []):
            if norm(answer) not in union:
                problems.append(f"{label!r}: answer {answer!r} not found in {relevant}")
        evidence = q.get("evidence", {})
        for name in relevant:
            needles = evidence.get(name)
            if needles is None:
                needles = q.get("answers", []) if len(relevant) > 1 else []
                if needles and not any(norm(a) in texts[name] for a in needles):
                    problems.append(f"{label!r}: {name} contains none of the answers")
                continue
            for needle in needles:
                if norm(needle) not in texts[name]:
                    problems.append(f"{label!r}: evidence {needle!r} not in {name}")
        for name in evidence:
            if name not in relevant:
                problems.append(f"{label!r}: evidence for non-relevant {name}")
    return problems


def check_labels(docs: list[Doc], labels: list[dict], registry: list[dict]) -> list[str]:
    by_name = {d.output: d for d in docs}
    problems = []
    for entry in labels:
        doc = by_name.get(entry["document"])
        if doc is None:
            problems.append(f"labels: unknown document {entry['document']}")
            continue
        text = " ".join(doc_text(doc).split())
        names = set()
        for entity in entry["entities"]:
            names.add(entity["name"])
            forms = [entity["name"], *entity["aliases"]]
            if not any(_mentions(text, f) for f in forms):
                problems.append(f"{doc.output}: {entity['name']} is not mentioned")
            for alias in entity["aliases"]:
                if not _mentions(text, alias):
                    problems.append(
                        f"{doc.output}: alias {alias!r} of {entity['name']} not in text"
                    )
        # Blank out what is labelled (longest forms first, so nested names count as one
        # mention), then look for any other known entity in what is left.
        rest = text
        labelled_forms = sorted(
            {f for x in entry["entities"] for f in [x["name"], *x["aliases"]]},
            key=len,
            reverse=True,
        )
        for form in labelled_forms:
            rest = re.sub(r"(?<![\w])" + re.escape(form) + r"(?![\w])", " ", rest)
        for known in registry:
            forms = [known["name"], *known.get("aliases", ())]
            if known["name"] not in names and any(_mentions(rest, f) for f in forms):
                problems.append(
                    f"{doc.output}: {known['type']} {known['name']} mentioned but not labelled"
                )
        for relation in entry["relations"]:
            for end in ("source", "target"):
                if relation[end] not in names:
                    problems.append(
                        f"{doc.output}: relation end {relation[end]!r} is not a labelled entity"
                    )
    return problems


def _mentions(text: str, form: str) -> bool:
    return re.search(r"(?<![\w])" + re.escape(form) + r"(?![\w])", text) is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check only, write nothing")
    args = parser.parse_args()

    import entities
    import questions

    docs = load_docs()
    problems = check_corpus(docs)
    problems += check_questions(docs, questions.QUESTIONS)
    labels = entities.labels()
    problems += check_labels(docs, labels, entities.REGISTRY)
    if not args.check:
        for group in GROUPS:
            folder = CORPUS / group
            folder.mkdir(parents=True, exist_ok=True)
            for stale in folder.iterdir():
                stale.unlink()
        total = 0
        for doc in docs:
            data = render(doc)
            total += len(data)
            (CORPUS / doc.group / doc.output).write_bytes(data)
        if total > MAX_CORPUS_BYTES:
            problems.append(f"corpus is {total} bytes")
        public = ("question", "relevant_documents", "relevant_sections", "answers", "type")
        lines = [
            json.dumps({k: q[k] for k in public if k in q}, ensure_ascii=False)
            for q in questions.QUESTIONS
        ]
        (DEMO / "questions").mkdir(exist_ok=True)
        (DEMO / "questions" / "retrieval.jsonl").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
        (DEMO / "labels").mkdir(exist_ok=True)
        (DEMO / "labels" / "entities.jsonl").write_text(
            "\n".join(json.dumps(e, ensure_ascii=False) for e in labels) + "\n", encoding="utf-8"
        )
        by_format = {f: sum(1 for d in docs if d.fmt == f) for f in FORMATS}
        print(f"{len(docs)} documents ({by_format}), {total} bytes")
        print(f"{len(questions.QUESTIONS)} questions, {len(labels)} labelled documents")
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
