"""Clients for the systems outside the project: the only modules that know their SDKs.

Every app imports from here: `llm` (OpenAI-compatible chat), `embeddings` (local
sentence-transformers or OpenAI-compatible), `graph` (the Bolt driver).
"""
