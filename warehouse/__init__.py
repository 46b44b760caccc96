"""The demo business database the SQL agent answers from (see docs/warehouse.md).

- `schema`: the tables, declared once; `security`: secure views and row-level scope;
- `data`: the deterministic generator; `engines` + `loader`: building it on MariaDB/MySQL
  or PostgreSQL (`manage.py load_warehouse`);
- `sqltools`: secure-view rewrite and transpiling of the gold SQL;
- `questions` + `questions.jsonl`: the development question set; `testing`: the test
  warehouses.

Connections and sessions of the agent, on this or any database, are `core.databases`.
"""
