"""Answers as safe HTML. Answer text quotes documents and may come from a model, so neither
may ever run script in a reader's browser: raw HTML is escaped, links keep only http, https,
mailto and relative targets, and images are not rendered (an image loads a URL the moment
it is shown, which would let a document make the browser call out)."""

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from django.utils.html import escape, linebreaks
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# Browsers drop these characters inside a scheme ("java\tscript:"), so a check must too.
_IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20\x7f]+")


def is_safe_link(url: str) -> bool:
    """True for http(s) and mailto links and for relative ones (paths, anchors, queries).
    The parser hands over the link percent-encoded; decoding first judges what a lenient
    browser might read."""
    cleaned = _IGNORED_IN_SCHEME.sub("", unquote(url))
    if cleaned.startswith("//"):  # protocol-relative: another host, whatever the scheme
        return True
    scheme = urlsplit(cleaned).scheme.lower()
    return not scheme or scheme in SAFE_SCHEMES


def _render_link_open(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # Links go elsewhere without handing over this page (window.opener) or its address.
    tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
    return renderer.renderToken(tokens, idx, options, env)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table").enable("strikethrough").disable("image")
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    md.add_render_rule("link_open", _render_link_open)
    return md


def render_markdown(text: str) -> str:
    """Markdown (CommonMark with tables) to HTML that is safe to insert into a page."""
    return _parser().render(text or "")


def render_plain(text: str) -> str:
    """A person's own words as HTML: escaped, paragraphs and line breaks kept."""
    return linebreaks(escape(text or ""))


def message_html(role: str, content: str) -> str:
    """Answers are Markdown; questions are shown exactly as typed."""
    return render_markdown(content) if role == "assistant" else render_plain(content)
