from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=`` (1 to 200). A page past the end is a 404; a ``page_size`` that is not a
    whole number from 1 to 200 is a 400, as the schema says (it is not silently replaced by the default)."""

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [_("Use a whole number from 1 to %(max)d.") % {"max": self.max_page_size}]}
            )
        return int(raw)

    def paginate_queryset(self, queryset, request, view=None):
        page = request.query_params.get(self.page_query_param)
        if page is not None and not page.isdigit():
            raise ValidationError({self.page_query_param: [_("Use a page number from 1.")]})
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            elif parameter["name"] == self.page_query_param:
                parameter["schema"].update(minimum=1)
        return parameters
