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


def _lines(text: str) -> list[tuple[str, int, int]]:
    """The text's lines without markup, each with where it sits in the text; a line ending
    in ":" takes the list items that follow it ("wears at all times: Hard hat; Safety
    glasses; Gloves."), which alone would be too short to quote. An item is a bulleted line
    or a short one that is no sentence."""
    lines: list[tuple[str, bool, int, int]] = []
    offset = 0
    for raw in text.splitlines(keepends=True):
        start, offset = offset, offset + len(raw)
        stripped = raw.strip()
        line = _BULLET.sub("", stripped)
        if not line or line.startswith(("#", "![", "|---", "```")) or _PAGE_FOOTER.search(line):
            continue
        begin = start + len(raw) - len(raw.lstrip()) + len(stripped) - len(line)
        lines.append((line, line != stripped, begin, begin + len(line)))
    merged: list[tuple[str, int, int]] = []
    i = 0
    while i < len(lines):
        line, _, begin, end = lines[i]
        items: list[str] = []
        if line.endswith(":"):
            for following, bulleted, _, item_end in lines[i + 1 : i + 1 + LIST_ITEMS]:
                short = len(WORD.findall(following)) <= LIST_ITEM_WORDS
                if following.endswith(":") or not (
                    bulleted or (short and not following.endswith((".", "!", "?")))
                ):
                    break
                items.append(following.rstrip(".;,"))
                end = item_end
        if items:
            merged.append((f"{line} {'; '.join(items)}.", begin, end))
            i += 1 + len(items)
        else:
            merged.append((line, begin, end))
            i += 1
    return merged


def sentence_spans(text: str) -> list[tuple[str, int, int]]:
    """Lines, then sentences within a line, each with its character range in the text;
    headings, fragments and markup left out."""
    found: list[tuple[str, int, int]] = []
    for line, begin, end in _lines(text):
        start = 0
        for match in _BOUNDARY.finditer(line):
            before = line[start : match.start()].rsplit(" ", 1)[-1].lower()
            if before.rstrip(".") in _ABBREVIATIONS or _INITIALS.fullmatch(before):
                continue  # "e.g. Python", "B.S. Computer Science", "J. Smith"
            found.append(
                (line[start : match.start() + 1], begin + start, begin + match.start() + 1)
            )
            start = match.end()
        found.append((line[start:], begin + start, end))
    return [
        (trim(s), start, end)
        for s, start, end in ((s.strip(), a, b) for s, a, b in found)
        if len(WORD.findall(s)) >= MIN_WORDS
    ]


def split_sentences(text: str) -> list[str]:
    return [sentence for sentence, _, _ in sentence_spans(text)]


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
    return list(chunk_sentence_parts(section, text))


def chunk_sentence_parts(section: str, text: str) -> dict[str, tuple[int, int] | None]:
    """Each embedding input of `chunk_sentence_inputs` with the range of `text` it quotes
    (None for the heading line, which quotes no text)."""
    heading = heading_line(section)
    parts: dict[str, tuple[int, int] | None] = {}
    if heading:
        parts[embedding_input(section, heading)] = None
    for sentence, start, end in sentence_spans(text):
        parts.setdefault(embedding_input(section, sentence), (start, end))
    return parts
