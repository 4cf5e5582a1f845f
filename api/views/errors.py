from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from ..exceptions import ApiErrorCode, error_body


@csrf_exempt
def not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Any /api/ URL that matches no endpoint: the API's JSON 404 rather than the site's HTML page."""
    return JsonResponse(error_body(ApiErrorCode.NOT_FOUND, "No API endpoint at this URL."), status=404)
