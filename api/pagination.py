from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=`` (at most 200). A page past the end is a 404."""

    page_size_query_param = "page_size"
    max_page_size = 200
