"""The chat's pages: the conversation list, one conversation with its history, and the
document viewer that source links open. Questions travel over the websocket and the API;
these pages render what is stored, for the signed-in person only."""

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from chat.markdown import message_html
from chat.models import ChatSession, Feedback, Message, Route
from chat.orchestrator.tools.upload import upload_collection_name
from ingestion.models import Collection, Document

SESSIONS_SHOWN = 50
MESSAGES_SHOWN = 100
SEARCH_CHARS = 200


@dataclass
class Cell:
    text: str
    numeric: bool


@dataclass
class Column:
    label: str
    numeric: bool  # every value a number: aligned right, like its cells


@dataclass
class TableView:
    columns: list[Column]
    rows: list[list[Cell]]
    sql: str
    row_count: int
    truncated: bool


@dataclass
class MessageView:
    """A stored message as the page shows it: safe HTML and the answer's parts."""

    message: Message
    html: str
    rating: str | None = None  # "up" | "down", the person's feedback
    table: TableView | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    follow_ups: list[str] = field(default_factory=list)
    join_path: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    decision: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    # What the script needs to draw the chart and write the CSV without re-reading the DOM.
    client_data: dict[str, Any] = field(default_factory=dict)

    @property
    def data_id(self) -> str:
        return f"answer-data-{self.message.pk}"


@login_required
def index(request: HttpRequest) -> HttpResponse:
    """A new conversation: the session is created with its first question."""
    return render(request, "chat/index.html", _page_context(request, session=None))


@login_required
def conversation(request: HttpRequest, session_id: str) -> HttpResponse:
    # Another person's session is a 404, exactly like one that does not exist.
    session = get_object_or_404(ChatSession, pk=session_id, owner=request.user)
    return render(request, "chat/index.html", _page_context(request, session=session))


def _readable_document(request: HttpRequest, document_id: str) -> Document:
    # Another collection's document is a 404, exactly like one that does not exist.
    readable = Collection.objects.readable_by(request.user)
    return get_object_or_404(
        Document.objects.select_related("collection").filter(collection__in=readable),
        pk=document_id,
    )


@login_required
def document(request: HttpRequest, document_id: str) -> HttpResponse:
    """A document's chunks in order, each at `#chunk-<index>`, the first chunk under each
    heading also at the heading's anchor, for readers of its collection."""
    doc = _readable_document(request, document_id)
    chunks = list(
        doc.chunks.only("index", "text", "header_path", "header_text", "page", "page_end")
    )
    anchors: set[str] = set()
    for chunk in chunks:
        anchor = slugify(chunk.header_text)
        chunk.anchor = anchor if anchor and anchor not in anchors else ""  # type: ignore[attr-defined]
        anchors.add(anchor)
    return render(request, "chat/document.html", {"document": doc, "chunks": chunks})


@login_required
def document_file(request: HttpRequest, document_id: str) -> FileResponse:
    """The file as it was ingested. A PDF opens in the browser's viewer (citations link to
    `#page=N`); anything else downloads. The sandbox keeps an uploaded file's scripts from
    running as this site."""
    doc = _readable_document(request, document_id)
    if not doc.file.name or not doc.file.storage.exists(doc.file.name):
        raise Http404("the original file is no longer stored")
    pdf = doc.format == "pdf"
    response = FileResponse(
        doc.file.open("rb"),
        as_attachment=not pdf,
        filename=doc.file_name,
        content_type="application/pdf" if pdf else "application/octet-stream",
    )
    response["Content-Security-Policy"] = "sandbox"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _page_context(request: HttpRequest, *, session: ChatSession | None) -> dict[str, Any]:
    search = request.GET.get("q", "").strip()[:SEARCH_CHARS]
    context: dict[str, Any] = {
        "session": session,
        "sessions": _sessions(request.user, search),
        "search": search,
        "route_labels": dict(Route.choices),
        "max_chars": settings.CHAT_MAX_MESSAGE_CHARS,
        "upload_collections": _upload_collections(request.user),
        "messages": [],
        "hidden_count": 0,
    }
    if session is not None:
        stored = _messages(session, request.user)
        total = len(stored)
        if request.GET.get("all") != "1" and total > MESSAGES_SHOWN:
            context["hidden_count"] = total - MESSAGES_SHOWN
            stored = stored[-MESSAGES_SHOWN:]
        context["messages"] = [message_view(m) for m in stored]
    return context


def _sessions(user: Any, search: str) -> QuerySet[ChatSession]:
    sessions = ChatSession.objects.filter(owner=user)
    if search:
        in_messages = Message.objects.filter(session=OuterRef("pk"), content__icontains=search)
        sessions = sessions.filter(Q(title__icontains=search) | Exists(in_messages))
    return sessions.only("id", "title", "updated_at").order_by("-updated_at")[:SESSIONS_SHOWN]


def _messages(session: ChatSession, user: Any) -> list[Message]:
    rating = Feedback.objects.filter(message=OuterRef("pk"), owner=user).values("rating")[:1]
    return list(session.messages.annotate(my_rating=Subquery(rating)).order_by("created_at", "id"))


def _upload_collections(user: Any) -> list[str]:
    """Where the person may add files: their own upload collection first (the one uploads
    in a question go to; the upload API creates it on first use), then every collection
    they may write to."""
    own = upload_collection_name(user)
    writable = Collection.objects.writable_by(user).values_list("name", flat=True)
    return [own, *(name for name in writable if name != own)]


def message_view(message: Message) -> MessageView:
    data = message.data if isinstance(message.data, dict) else {}
    view = MessageView(message=message, html=message_html(message.role, message.content))
    if message.role != Message.Role.ASSISTANT:
        return view
    view.rating = {1: "up", -1: "down"}.get(getattr(message, "my_rating", None) or 0)
    # A complete answer keeps its table at the top of `data`; a stopped one under "table".
    stopped_table = data.get("table")
    table: dict[str, Any] = stopped_table if isinstance(stopped_table, dict) else data
    view.table = table_view(table)
    if view.table is not None:
        rows = [row for row in table.get("rows") or [] if isinstance(row, list)]
        view.client_data = {
            "columns": table.get("columns"),
            "rows": rows,
            "chart": table.get("chart"),
        }
    view.sources = source_shares(message.sources if isinstance(message.sources, list) else [])
    view.follow_ups = [str(q) for q in data.get("follow_ups") or []]
    view.join_path = [str(step) for step in table.get("join_path") or data.get("join_path") or []]
    view.trace = [step for step in data.get("trace") or [] if isinstance(step, dict)]
    stats = data.get("stats")
    view.stats = stats if isinstance(stats, dict) else {}
    view.decision = _route_decision(data, view.trace)
    view.note = str(data.get("note") or "")
    return view


def table_view(table: dict[str, Any]) -> TableView | None:
    """An answer's rows under the labels the server gave; None when it has neither."""
    labels = [str(c) for c in table.get("columns") or []]
    rows = [row for row in table.get("rows") or [] if isinstance(row, list)]
    if not labels and not table.get("sql"):
        return None
    cells = [[_cell(value) for value in row] for row in rows]
    # A column whose every value is a number is aligned right, its header included.
    numeric = [
        bool(cells) and all(row[i].numeric for row in cells if i < len(row) and row[i].text)
        for i in range(len(labels))
    ]
    return TableView(
        columns=[Column(label, number) for label, number in zip(labels, numeric, strict=True)],
        rows=cells,
        sql=str(table.get("sql") or ""),
        row_count=int(table.get("row_count") or len(rows)),
        truncated=bool(table.get("truncated")),
    )


def source_shares(sources: list[Any]) -> list[dict[str, Any]]:
    """Each source with its share of the summed scores, in percent (the trace shows how much
    each retrieved chunk weighed in the answer)."""
    items = [s for s in sources if isinstance(s, dict)]
    total = sum(max(_number(s.get("score")), 0.0) for s in items)
    return [
        {**s, "share": round(100 * max(_number(s.get("score")), 0.0) / total, 1) if total else 0.0}
        for s in items
    ]


def _route_decision(data: dict[str, Any], trace: list[dict[str, Any]]) -> dict[str, Any]:
    """The router's reasons: kept in the answer's data, or in the detail of the route step."""
    decision = data.get("route_decision")
    if isinstance(decision, dict):
        return decision
    for step in trace:
        detail = step.get("detail")
        if isinstance(detail, dict) and "reasons" in detail:
            return detail
    return {}


def _cell(value: Any) -> Cell:
    if value is None:
        return Cell("", False)
    if isinstance(value, bool):
        return Cell("yes" if value else "no", False)
    return Cell(str(value), isinstance(value, int | float))


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0
