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
            if isinstance(child, Tag) and child.name not in SKIP:
                self.element(child)

    def element(self, tag: Tag) -> None:
        name = tag.name
        if name in HEADINGS:
            self.flush()
            text = clean_inline(tag.get_text(" "))
            if text:
                self.doc.blocks.append(Block("heading", text, level=HEADINGS[name]))
        elif name == "img":
            self.flush()
            self.image(tag)
        elif name == "figure":
            self.figure(tag)
        elif name == "table":
            self.flush()
            self.table(tag)
        elif name == "br":
            self.buffer.append("\n")
        elif name == "pre":
            self.flush()
            if tag.get_text().strip():
                self.doc.blocks.append(Block("text", tag.get_text().rstrip()))
        elif name in BLOCKS:
            self.flush()
            self.walk(tag)
            self.flush()
        else:
            self.walk(tag)

    def figure(self, tag: Tag) -> None:
        """Its pictures take the caption; the rest of its text is read as a block."""
        self.flush()
        caption_tag = tag.find("figcaption")
        caption = clean_inline(caption_tag.get_text(" ")) if caption_tag else ""
        for img in tag.find_all("img"):
            self.image(img, caption)
        if caption_tag:
            caption_tag.extract()
        for img in tag.find_all("img"):
            img.extract()
        self.walk(tag)
        self.flush()

    def table(self, tag: Tag) -> None:
        for row in tag.find_all("tr"):
            cells = [clean_inline(c.get_text(" ")) for c in row.find_all(["td", "th"])]
            if any(cells):
                self.doc.blocks.append(Block("text", " | ".join(c for c in cells if c)))


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
