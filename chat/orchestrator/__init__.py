"""The orchestrator: JSON workflows whose nodes call tools, routing, memory and answers."""
