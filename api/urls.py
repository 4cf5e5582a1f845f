"""API URLs. Version 1 lives under /api/v1/ (namespace "api"); the schema and its docs under /api/."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from .views.agreements import PriceAgreementViewSet
from .views.catalog import PartViewSet
from .views.configurations import ConfigurationViewSet
from .views.designs import DesignExportView, DesignRecommendView, DesignValidateView, FabricPlanView
from .views.errors import not_found
from .views.quotes import QuoteViewSet
from .views.webhooks import WebhookViewSet

router = SimpleRouter()
router.register("catalog/parts", PartViewSet, basename="part")
router.register("configurations", ConfigurationViewSet, basename="configuration")
router.register("quotes", QuoteViewSet, basename="quote")
router.register("webhooks", WebhookViewSet, basename="webhook")
router.register("price-agreements", PriceAgreementViewSet, basename="price-agreement")

v1 = [
    path("designs/validate/", DesignValidateView.as_view(), name="design-validate"),
    path("designs/recommend/", DesignRecommendView.as_view(), name="design-recommend"),
    path("fabric-plans/", FabricPlanView.as_view(), name="fabric-plan"),
    # The exports' paths end in the export's file name, without a trailing slash.
    path("designs/exports/<str:name>", DesignExportView.as_view(), name="design-export"),
    # The contract's document paths end in the file name, without a trailing slash.
    path(
        "quotes/<int:pk>/document.pdf",
        QuoteViewSet.as_view({"get": "document_pdf"}, detail=True),
        name="quote-document-pdf",
    ),
    path(
        "configurations/<int:pk>/cabling.csv",
        ConfigurationViewSet.as_view({"get": "cabling_csv"}, detail=True),
        name="configuration-cabling-csv",
    ),
    path(
        "configurations/<int:pk>/exports/<str:name>",
        ConfigurationViewSet.as_view({"get": "export"}, detail=True),
        name="configuration-export",
    ),
    path(
        "quotes/<int:pk>/order-confirmation.pdf",
        QuoteViewSet.as_view({"get": "order_confirmation_pdf"}, detail=True),
        name="quote-order-confirmation-pdf",
    ),
    path("quotes/<int:pk>/bom.xlsx", QuoteViewSet.as_view({"get": "bom_xlsx"}, detail=True), name="quote-bom-xlsx"),
    *router.urls,
]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: the Content-Security-Policy allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("v1/", include((v1, "api"))),
    re_path(r"^", not_found),  # JSON 404 for any other /api/ URL
]
