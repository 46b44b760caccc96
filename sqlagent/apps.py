from django.apps import AppConfig


class SqlagentConfig(AppConfig):
    name = "sqlagent"
    verbose_name = "SQL agent"
