from django.contrib import admin

from sqlagent.models import DataScope


@admin.register(DataScope)
class DataScopeAdmin(admin.ModelAdmin):
    list_display = ["name", "sees_nothing"]
    search_fields = ["name"]
    filter_horizontal = ["users", "groups"]
