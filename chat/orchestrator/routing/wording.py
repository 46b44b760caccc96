"""What the words of a question say on their own: greetings, thanks and questions about
the assistant (general), asking to upload (upload), nothing to act on (clarification), and
the wording of document and relationship questions."""

import re

from chat.models import Route
from chat.orchestrator.routing.decision import Evidence
from retrieval.services import RELATION_WORDS

_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)"
    r"(?: there| team| all| everyone)?\b[\s,.!]*",
    re.IGNORECASE,
)
_THANKS = re.compile(
    r"^(?:ok(?:ay)?[, ]*)?(?:thanks?|thank you|thx|ty|cheers|great|perfect|nice|cool|got it"
    r"|awesome|bye|goodbye|see you)\b[\w\s,.!']{0,30}$",
    re.IGNORECASE,
)
_ABOUT_ASSISTANT = re.compile(
    r"\b(?:what (?:can|could) you do|who (?:are|r) you|what are you|what is switchboard"
    r"|what (?:kind|sort|type)s? of (?:questions|things)|what (?:questions )?can i ask"
    r"|how (?:do|can|should) i use (?:you|this|it|the chat)|how does (?:this|the) "
    r"(?:chat|assistant|thing) work|what (?:data|documents|information|databases?|sources) "
    r"(?:do|can) you (?:have|access|search|see|read|use)|which (?:documents|data|databases?"
    r"|sources|collections) (?:can|do) you|(?:are|is) (?:you|it) able to|can you (?:help|answer)"
    r"(?: me)?(?: with)?|answer questions about|your (?:capabilities|features|limits)"
    r"|talking to|help me with)\b",
    re.IGNORECASE,
)
# Asking to add files: "upload this file", "ingest these two resumes", "can you add this to
# my documents?"; not "imported parts" or "the price index".
_UPLOAD = re.compile(
    r"^\s*(?:please\s+)?(?:upload|ingest|index|import)\b"
    r"|\b(?:upload|ingest|index|import)(?:ing)?\s+(?:this|these|that|it|them|(?:the\s+)?attached)\b"
    r"|\bto (?:upload|ingest)\b|\b(?:to|into) (?:the|my|our) (?:knowledge base|collection)\b"
    r"|\b(?:upload|ingest|index|import|add|save|store)(?:ing)?\b[\w\s'-]{0,30}?"
    r"\b(?:files?|documents?|pdfs?|docx|spreadsheets?|résumés?|resumes?)\b",
    re.IGNORECASE,
)
# Words that on their own give nothing to act on.
VAGUE = frozenset({
    "more", "details", "detail", "that", "this", "it", "one", "ones", "other", "same", "again",
    "different", "please", "help", "why", "what", "how", "status", "numbers", "number", "info",
    "information", "thing", "things", "stuff", "check", "him", "her", "them", "they", "those",
    "these", "something", "anything", "everything", "explain", "show", "tell", "me", "about",
    "can", "you", "it's", "wrong", "list", "usual", "the", "a", "an", "and", "or", "but", "so",
    "ok", "okay", "now", "then", "there", "here", "is", "are", "was", "were", "do", "does", "did",
    "report", "data", "which", "who", "when", "where", "whats"
})  # fmt: skip
_FRAGMENT = re.compile(r"^(?:and|what about|how about|same (?:for|with|in)|same)\b", re.IGNORECASE)

COUNTABLE = re.compile(r"\b(?:list|show|which|what are the|give me)\b", re.IGNORECASE)
DOCUMENT_CUES = re.compile(
    r"\b(?:polic(?:y|ies)|manual|procedure|handbook|guideline|rules?|allowed|permitted"
    r"|must|required?|requirements?|allowance|per diem|section|resume|résumé|cv|summari[sz]e"
    r"|describe|explain|according to|what happens|how (?:do|should|can) (?:i|we|you)"
    r"|what does .{1,40} mean|in the app|mobile app|is it ok|am i|do i|can i|may i"
    r"|how long (?:is|are|does|do|must|should)|(?:is|are) used (?:for|to|when|on))\b",
    re.IGNORECASE,
)
# Questions about how things are done or what a rule allows, not about records:
# "How is travel time paid?", "Can a cancelled work order be reopened?".
RULE_QUESTION = re.compile(
    r"^(?:(?:how|when|why) (?:is|are|do|does|should|must|can|may) (?!there\b)"
    r"|(?:can|may|must|should|is|are|do|does) (?:a|an|the|i|you|my|someone|anyone|employees?"
    r"|technicians?|crews?|staff)\b)",
    re.IGNORECASE,
)
RELATION_CUES = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w) for w in RELATION_WORDS)
    + r"|worked (?:at|alongside)|works? at|connected|connections?|linked|related|relationships?"
    r"|in common|network|colleagues?|coworkers?|co-workers?|teammates?|who else|knows?"
    r"|experience with|experienced|skills|technologies|tools does|projects|organi[sz]ations"
    r"|companies|employers|studied|universit(?:y|ies)|schools?|based in|lives? in"
    r"|certifications? does|hold|holds)\b",
    re.IGNORECASE,
)
LIST_OF_ENTITIES = re.compile(
    r"^(?:who\b|whom\b|which (?:people|persons|colleagues|companies|organi[sz]ations|projects"
    r"|universities|technologies|skills|tools|certifications)|what (?:projects|companies"
    r"|organi[sz]ations|skills|technologies|tools|certifications|connects|links)"
    r"|how (?:is|are) .{1,60} (?:connected|related|linked))",
    re.IGNORECASE,
)
# A capitalized word after the first, a possessive, or a first word that is no question
# word: only then can a question name someone ("Alexis", "Mark's", "bob's skills").
MAY_NAME_SOMEONE = re.compile(
    r"\s[A-Z]|['\u2019]s?\b|^(?!(?i:how|what|which|who|whom|whose|when|where|why|is|are|do"
    r"|does|did|can|could|should|list|show|give|tell|find|count|hi|hello|hey)\b)[A-Z]"
)


def without_greeting(text: str, evidence: Evidence) -> str:
    """A greeting is general on its own; before a question, the question counts."""
    match = _GREETING.match(text)
    if match is None:
        return text
    rest = text[match.end() :].strip()
    if len(rest.split()) >= 3:
        return rest
    evidence.add(Route.GENERAL, 1.2, "a greeting")
    return text


def lexical(text: str, evidence: Evidence, *, has_history: bool) -> bool:
    """Upload, general and clarification cues; True when the question is too vague."""
    if _UPLOAD.search(text):
        evidence.add(Route.UPLOAD, 1.2, "asks to upload or ingest a file")
    if _THANKS.match(text):
        evidence.add(Route.GENERAL, 1.2, "thanks or a goodbye")
    about_assistant = bool(_ABOUT_ASSISTANT.search(text))
    if about_assistant:
        evidence.add(Route.GENERAL, 0.9, "asks about the assistant itself")
    words = [w.lower() for w in re.findall(r"[\w']+", text)]
    if not about_assistant and all(w in VAGUE for w in words):
        evidence.add(Route.CLARIFICATION, 1.0, "nothing to act on: only words like " + (
            ", ".join(repr(w) for w in words[:3]) or "punctuation"))  # fmt: skip
        return True
    if _FRAGMENT.match(text) and len(words) <= 5:
        why = "continues an earlier answer that is not there" if not has_history else (
            "reads like a follow-up, but of nothing the last answer asked")  # fmt: skip
        evidence.add(Route.CLARIFICATION, 0.9, why)
        return True
    return False
