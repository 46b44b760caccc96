from django.apps import AppConfig


class WarehouseConfig(AppConfig):
    name = "warehouse"
    verbose_name = "Demo warehouse"
