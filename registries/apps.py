from django.apps import AppConfig


class RegistriesConfig(AppConfig):
    name = "registries"
    verbose_name = "Registries"
