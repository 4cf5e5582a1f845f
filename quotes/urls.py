from django.urls import path

from . import views

app_name = "quotes"

urlpatterns = [
    path("link/<str:signed>/", views.quote_link, name="link"),
    path("accept/<str:signed>/", views.quote_accept_link, name="accept"),
    path("staff/<int:pk>/document.pdf", views.quote_document_staff, {"kind": "pdf"}, name="staff_pdf"),
    path("staff/<int:pk>/bom.xlsx", views.quote_document_staff, {"kind": "xlsx"}, name="staff_xlsx"),
    path(
        "staff/<int:pk>/order-confirmation.pdf",
        views.quote_document_staff,
        {"kind": "order"},
        name="staff_order_confirmation",
    ),
    path("staff/<int:pk>/internal.pdf", views.quote_internal_staff, name="staff_internal_pdf"),
    path("<str:token>/", views.quote_status, name="status"),
    path("<str:token>/progress/", views.quote_progress, name="progress"),
    path("<str:token>/answer/", views.quote_answer, name="answer"),
]
