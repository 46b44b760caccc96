"""Retrieval quality over question sets: metrics, configurations, question files."""
