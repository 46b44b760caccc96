from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.health import healthy, run_checks


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results = run_checks()
    ok = healthy(results)
    body = {
        "status": "ok" if ok else "fail",
        "checks": {result.name: result.as_dict() for result in results},
    }
    return JsonResponse(body, status=200 if ok else 503)
