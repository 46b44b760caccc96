from bs4 import BeautifulSoup, NavigableString, Tag

from .base import Block, ParsedDocument, clean_inline, image_from_reference

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BLOCKS = {
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "footer",
    "form",
    "header",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "ul",
    "html",
}
SKIP = {"script", "style", "noscript", "template", "head", "svg", "button", "select"}


class _Walker:
    def __init__(self) -> None:
        self.doc = ParsedDocument()
        self.buffer: list[str] = []

    def flush(self) -> None:
        text = "\n".join(clean_inline(line) for line in "".join(self.buffer).split("\n"))
        text = "\n".join(line for line in text.split("\n") if line)
        if text:
            self.doc.blocks.append(Block("text", text))
        self.buffer.clear()

    def image(self, tag: Tag, caption: str = "") -> None:
        source = str(tag.get("src") or "")
        caption = caption or str(tag.get("title") or tag.get("alt") or "")
        self.doc.blocks.append(Block("image", caption, image=image_from_reference(source, caption)))

    def walk(self, node: Tag) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if child.__class__ is NavigableString:  # not comments or doctypes
                    self.buffer.append(str(child).replace("\n", " "))
                continue
            if not isinstance(child, Tag) or child.name in SKIP:
                continue
            name = child.name
            if name in HEADINGS:
                self.flush()
                text = clean_inline(child.get_text(" "))
                if text:
                    self.doc.blocks.append(Block("heading", text, level=HEADINGS[name]))
            elif name == "img":
                self.flush()
                self.image(child)
            elif name == "figure":
                self.flush()
                caption_tag = child.find("figcaption")
                caption = clean_inline(caption_tag.get_text(" ")) if caption_tag else ""
                for img in child.find_all("img"):
                    self.image(img, caption)
                if caption_tag:
                    caption_tag.extract()
                for img in child.find_all("img"):
                    img.extract()
                self.walk(child)
                self.flush()
            elif name == "table":
                self.flush()
                for row in child.find_all("tr"):
                    cells = [clean_inline(c.get_text(" ")) for c in row.find_all(["td", "th"])]
                    if any(cells):
                        self.doc.blocks.append(Block("text", " | ".join(c for c in cells if c)))
            elif name == "br":
                self.buffer.append("\n")
            elif name == "pre":
                self.flush()
                if child.get_text().strip():
                    self.doc.blocks.append(Block("text", child.get_text().rstrip()))
            elif name in BLOCKS:
                self.flush()
                self.walk(child)
                self.flush()
            else:
                self.walk(child)


def parse_html(text: str) -> ParsedDocument:
    soup = BeautifulSoup(text, "html.parser")
    walker = _Walker()
    title = soup.find("title")
    root = soup.body or soup
    walker.walk(root)
    walker.flush()
    doc = walker.doc
    first_h1 = next((b.text for b in doc.blocks if b.kind == "heading" and b.level == 1), "")
    doc.title = first_h1 or (clean_inline(title.get_text()) if title else "")
    return doc
