"""The demo business database the SQL agent answers from (see docs/warehouse.md).

- `schema`: the tables, declared once; `security`: secure views and row-level scope;
- `data`: the deterministic generator; `engines` + `loader`: building it on MariaDB/MySQL
  or PostgreSQL (`manage.py load_warehouse`);
- `connect`: the agent's sessions; `sqltools`: secure-view rewrite and transpiling;
- `questions` + `questions.jsonl`: the development question set.
"""
