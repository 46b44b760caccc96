from django.apps import AppConfig


class RegistriesConfig(AppConfig):
    name = "registries"
    verbose_name = "Registries"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the version bumps
