from django.apps import AppConfig


class RetrievalConfig(AppConfig):
    name = "retrieval"
    verbose_name = "Retrieval"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the start-up checks)
