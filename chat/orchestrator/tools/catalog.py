"""Imports every shipped tool module so that its @register calls run."""

import chat.orchestrator.answers.tools
import chat.orchestrator.tools.calculator
import chat.orchestrator.tools.chat_steps
import chat.orchestrator.tools.documents
import chat.orchestrator.tools.graph
import chat.orchestrator.tools.report
import chat.orchestrator.tools.sql
import chat.orchestrator.tools.upload
import chat.orchestrator.validation  # noqa: F401 - registers validate_result
