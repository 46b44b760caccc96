"""The sentences of a chunk as answers quote them, and the text each is embedded as.

Ingestion embeds every sentence of every chunk (with its section's name, so that a line such
as "Python, Go, Kubernetes" says "skills"), and the extractive answer writer looks the
vectors up instead of running the model over document text while someone waits."""

import re

MIN_WORDS = 3
LIST_ITEMS = 12  # list items a line ending in ":" takes at most
LIST_ITEM_WORDS = 8  # longer lines without a bullet are not list items
MAX_SENTENCE_CHARS = 420

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "st", "inc", "co", "corp", "ltd",
     "jr", "sr", "no", "fig", "approx", "dept", "est"}
)  # fmt: skip
_BULLET = re.compile(r"^\s*(?:[-*•▪◦·]|\d{1,2}[.)])\s+")
_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#.\-]*")
_INITIALS = re.compile(r"(?:[a-z]\.)*[a-z]\.?")
_PAGE_FOOTER = re.compile(r"\bpage \d+ (?:of|/) \d+\s*$", re.IGNORECASE)


def _lines(text: str) -> list[str]:
    """The text's lines without markup; a line ending in ":" takes the list items that
    follow it ("wears at all times: Hard hat; Safety glasses; Gloves."), which alone would
    be too short to quote. An item is a bulleted line or a short one that is no sentence."""
    lines: list[tuple[str, bool]] = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw.strip())
        if not line or line.startswith(("#", "![", "|---", "```")) or _PAGE_FOOTER.search(line):
            continue
        lines.append((line, line != raw.strip()))
    merged: list[str] = []
    i = 0
    while i < len(lines):
        line, items = lines[i][0], []
        if line.endswith(":"):
            for following, bulleted in lines[i + 1 : i + 1 + LIST_ITEMS]:
                short = len(WORD.findall(following)) <= LIST_ITEM_WORDS
                if following.endswith(":") or not (
                    bulleted or (short and not following.endswith((".", "!", "?")))
                ):
                    break
                items.append(following.rstrip(".;,"))
        if items:
            merged.append(f"{line} {'; '.join(items)}.")
            i += 1 + len(items)
        else:
            merged.append(line)
            i += 1
    return merged


def split_sentences(text: str) -> list[str]:
    """Lines, then sentences within a line; headings, fragments and markup left out."""
    found: list[str] = []
    for line in _lines(text):
        start = 0
        for match in _BOUNDARY.finditer(line):
            before = line[start : match.start()].rsplit(" ", 1)[-1].lower()
            if before.rstrip(".") in _ABBREVIATIONS or _INITIALS.fullmatch(before):
                continue  # "e.g. Python", "B.S. Computer Science", "J. Smith"
            found.append(line[start : match.start() + 1].strip())
            start = match.end()
        found.append(line[start:].strip())
    return [trim(s) for s in found if len(WORD.findall(s)) >= MIN_WORDS]


def trim(sentence: str) -> str:
    sentence = sentence.replace("**", "").strip()
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    return sentence[:MAX_SENTENCE_CHARS].rsplit(" ", 1)[0] + " …"


def heading_line(section: str) -> str | None:
    """A section heading that can answer by itself ("Meridian Freight Systems - Staff
    Platform Engineer"); one or two words ("Skills") cannot."""
    return trim(section) if len(WORD.findall(section)) >= MIN_WORDS else None


def embedding_input(section: str, sentence: str) -> str:
    return f"{section}: {sentence}" if section else sentence


def chunk_sentence_inputs(section: str, text: str) -> list[str]:
    """What to embed for one chunk: its heading line and its sentences, each once."""
    heading = heading_line(section)
    lines = ([heading] if heading else []) + split_sentences(text)
    return list(dict.fromkeys(embedding_input(section, line) for line in lines))
