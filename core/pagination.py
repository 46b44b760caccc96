"""Page-number pages for every list of the API, strict about their parameters: a page that
is not a number (or `last`) or a page size out of range is a 400, not silently the first
page; a page past the end is a 404."""

from typing import Any

from django.core.paginator import EmptyPage, PageNotAnInteger
from django.core.paginator import Paginator as DjangoPaginator
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

MAX_PAGE_SIZE = 200


class Pages(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int | None:
        given = request.query_params.get(self.page_size_query_param)
        if given is None:
            return self.page_size
        if not given.isascii() or not given.isdigit() or not 1 <= int(given) <= MAX_PAGE_SIZE:
            raise ValidationError({"page_size": [f"A whole number from 1 to {MAX_PAGE_SIZE}."]})
        return int(given)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: Any = None
    ) -> list[Any] | None:
        page_size = self.get_page_size(request) or self.page_size or 50
        paginator: DjangoPaginator[Any] = self.django_paginator_class(queryset, page_size)
        given = request.query_params.get(self.page_query_param, "1")
        number = str(paginator.num_pages) if given in self.last_page_strings else given
        try:
            if not number.isascii() or not number.isdigit() or int(number) < 1:
                raise PageNotAnInteger
            self.page = paginator.page(number)
        except PageNotAnInteger:
            raise ValidationError({"page": ["A page number from 1, or `last`."]}) from None
        except EmptyPage:
            raise NotFound(
                f"There is no page {number}; the last is {paginator.num_pages}."
            ) from None
        self.request = request
        return list(self.page)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": self.page_query_param,
                "in": "query",
                "required": False,
                "description": "A page number from 1, or `last` for the last page.",
                "schema": {
                    "anyOf": [
                        {"type": "integer", "minimum": 1, "maximum": 2_147_483_647},
                        {"type": "string", "enum": ["last"]},
                    ]
                },
            },
            {
                "name": self.page_size_query_param,
                "in": "query",
                "required": False,
                "description": f"Items per page (default {self.page_size}).",
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
            },
        ]
