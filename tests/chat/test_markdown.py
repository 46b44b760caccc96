"""Answers render as safe HTML: nothing from a document or a model ever runs as script."""

import re

import pytest

from chat.markdown import is_safe_link, message_html, render_markdown

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](java\tscript:alert(1))",
    "[click](java&#x09;script:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "[click](java%0Ascript:alert(1))",
    "[click](vbscript:msgbox(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<javascript:alert(1)>",
    "[ref]\n\n[ref]: javascript:alert(1)",
    "![x](javascript:alert(1))",
    '<svg onload="alert(1)">',
    "<iframe src='https://evil.example'></iframe>",
    "| a | b |\n|---|---|\n| <script>x</script> | [y](javascript:z) |",
    "`<script>` in code is text",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_no_script_survives(text: str) -> None:
    html = render_markdown(text)

    assert "<script" not in html
    assert "<img" not in html and "<svg" not in html and "<iframe" not in html
    assert not re.search(r"<[^>]+\son\w+\s*=", html), html  # no event handler attribute
    for href in re.findall(r'href="([^"]*)"', html):
        assert is_safe_link(href), href


def test_markdown_keeps_structure_and_safe_links() -> None:
    html = render_markdown(
        "## Work orders\n\n**42** were completed, see [the report](https://example.com/r?a=1&b=2)"
        " or [the source](/documents/7/#chunk-3) and <mailto:ops@example.com>.\n\n"
        "| month | count |\n|---|---|\n| 2025-01 | 3 |\n\n- one\n- two\n\n```sql\nSELECT 1\n```"
    )

    assert "<h2>Work orders</h2>" in html
    assert "<strong>42</strong>" in html
    assert '<a href="https://example.com/r?a=1&amp;b=2" rel="noopener noreferrer nofollow">' in html
    assert '<a href="/documents/7/#chunk-3"' in html
    assert '<a href="mailto:ops@example.com"' in html
    assert "<table>" in html and "<th>month</th>" in html and "<td>2025-01</td>" in html
    assert "<li>one</li>" in html
    assert '<code class="language-sql">SELECT 1\n</code>' in html


def test_images_are_not_loaded() -> None:
    # Showing an image would fetch its URL: a document could make the reader's browser call out.
    html = render_markdown("![tracker](https://evil.example/pixel.png)")

    assert "<img" not in html
    assert "tracker" in html


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://example.com", True),
        ("http://example.com", True),
        ("mailto:a@example.com", True),
        ("/documents/1/", True),
        ("#chunk-2", True),
        ("?page=2", True),
        ("javascript:alert(1)", False),
        (" javascript:alert(1)", False),
        ("JAVASCRIPT:alert(1)", False),
        ("java\nscript:alert(1)", False),
        ("java%09script:alert(1)", False),
        ("data:text/html,x", False),
        ("file:///etc/passwd", False),
        ("ftp://example.com", False),
    ],
)
def test_link_schemes(url: str, safe: bool) -> None:
    assert is_safe_link(url) is safe


def test_a_question_is_shown_as_typed() -> None:
    html = message_html("user", "# not a heading <b>bold?</b>\nsecond line")

    assert html == "<p># not a heading &lt;b&gt;bold?&lt;/b&gt;<br>second line</p>"
    assert message_html("assistant", "# heading") == "<h1>heading</h1>\n"
