import base64
import binascii
import codecs
import re
from dataclasses import dataclass, field


class ParseError(ValueError):
    """The file cannot be ingested as it is; retrying will not help."""


@dataclass
class ImageRef:
    """A picture: its bytes when they were inside the file, else the reference as written."""

    source: str
    caption: str = ""
    data: bytes | None = None
    name: str = ""


@dataclass
class Block:
    kind: str  # "heading", "text" or "image"
    text: str = ""
    level: int = 0  # heading level, 1 = top
    page: int | None = None
    image: ImageRef | None = None


@dataclass
class ParsedDocument:
    blocks: list[Block] = field(default_factory=list)
    title: str = ""
    format: str = ""
    page_count: int | None = None


_DATA_URI = re.compile(r"^data:(image/[\w.+-]+)?(;base64)?,(.*)$", re.DOTALL)


def image_from_reference(source: str, caption: str = "") -> ImageRef:
    """A picture given by URL or path; one inlined as a data: URI keeps its bytes."""
    match = _DATA_URI.match(source.strip())
    if match is None:
        return ImageRef(source=source[:1000], caption=caption)
    mime = match.group(1) or "image/png"
    data = b""
    if match.group(2):
        try:
            data = base64.b64decode(match.group(3), validate=False)
        except (binascii.Error, ValueError):
            data = b""
    extension = mime.split("/")[-1].split("+")[0]
    return ImageRef(
        source=f"data:{mime}", caption=caption, data=data or None, name=f"inline.{extension}"
    )


_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b]+")


def clean_inline(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def decode_text(data: bytes, *, html: bool = False) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with a BOM; anything else is refused rather
    than guessed, so that no garbled text reaches the index."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError(f"undecodable UTF-16 text at byte {exc.start}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if html:
            declared = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", data[:2048])
            if declared:
                try:
                    return data.decode(declared.group(1).decode("ascii"))
                except (LookupError, UnicodeDecodeError):
                    pass
        raise ParseError(
            f"the text is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start});"
            " save it as UTF-8 and send it again"
        ) from exc
    if "\x00" in text:
        raise ParseError("the file looks binary, not text (it contains NUL characters)")
    return text
