"""Reaching the MariaDB/MySQL and PostgreSQL databases the SQL agent answers from.

Any database, not only the demo warehouse: `urls` parses their URLs, `scope` is the row
scope of a session and the session variables secured views read (the contract between the
agent and a secured database), `base.Database` is what every engine offers and `mysql` and
`postgres` implement it (connect, list tables, start a session), and `connect` opens the
agent's own sessions.
"""
