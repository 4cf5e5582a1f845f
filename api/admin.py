"""Admin of API clients (tokens shown once), webhooks and their delivery log, idempotency keys."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import ApiClient, IdempotencyRecord, Webhook, WebhookAttempt, WebhookDelivery
from .services import api_client_revoke, api_client_rotate
from .webhooks import check_webhook_url


@admin.register(ApiClient)
class ApiClientAdmin(admin.ModelAdmin):
    list_display = ["name", "scope", "user", "is_active", "token_prefix", "created_at", "last_used_at"]
    list_filter = ["scope", "is_active"]
    search_fields = ["name", "token_prefix"]
    readonly_fields = ["token_prefix", "created_at", "last_used_at", "revoked_at"]
    fields = ["name", "scope", "user", "rate", "is_active", "token_prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke", "rotate"]

    def save_model(self, request: HttpRequest, obj: ApiClient, form: forms.ModelForm, change: bool) -> None:
        if not change:
            token = obj.set_new_token()
            super().save_model(request, obj, form, change)
            messages.warning(
                request,
                _("Token for %(name)s (shown only now; store it in the CRM): %(token)s")
                % {"name": obj.name, "token": token},
            )
            return
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Revoke the selected clients' tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiClient]) -> None:
        for client in queryset:
            api_client_revoke(client=client)
        messages.success(request, _("%(n)d client(s) revoked.") % {"n": queryset.count()})

    @admin.action(description=_("Issue a new token (the old one stops working)"))
    def rotate(self, request: HttpRequest, queryset: QuerySet[ApiClient]) -> None:
        for client in queryset:
            token = api_client_rotate(client=client)
            messages.warning(
                request, _("New token for %(name)s (shown only now): %(token)s") % {"name": client.name, "token": token}
            )


class WebhookAttemptInline(admin.TabularInline):
    model = WebhookAttempt
    extra = 0
    can_delete = False
    readonly_fields = ["number", "status_code", "error", "duration_ms", "created_at"]

    def has_add_permission(self, request: HttpRequest, obj: WebhookDelivery | None = None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["event", "webhook", "status", "attempts", "next_attempt_at", "created_at", "finished_at"]
    list_filter = ["status", "event"]
    search_fields = ["event_id", "webhook__url", "webhook__client__name"]
    readonly_fields = [
        "webhook",
        "event",
        "event_id",
        "payload",
        "status",
        "attempts",
        "next_attempt_at",
        "claimed_at",
        "created_at",
        "finished_at",
    ]
    inlines = [WebhookAttemptInline]
    actions = ["retry"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Send the selected deliveries again"))
    def retry(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        from .tasks import webhook_deliver

        count = 0
        for delivery in queryset:
            WebhookDelivery.objects.filter(pk=delivery.pk).update(
                status=WebhookDelivery.Status.PENDING, finished_at=None, next_attempt_at=timezone.now()
            )
            webhook_deliver.delay(delivery.pk)
            count += 1
        messages.success(request, _("%(n)d deliveries queued.") % {"n": count})


class WebhookDeliveryInline(admin.TabularInline):
    model = WebhookDelivery
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ["event", "status", "attempts", "created_at", "finished_at"]
    readonly_fields = ["event", "status", "attempts", "created_at", "finished_at"]

    def has_add_permission(self, request: HttpRequest, obj: Webhook | None = None) -> bool:
        return False


class WebhookForm(forms.ModelForm):
    url = forms.URLField(max_length=500, assume_scheme="https")

    class Meta:
        model = Webhook
        fields = ["client", "url", "events", "description", "is_active"]

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        check_webhook_url(url)  # the same rule as the API: public http(s) targets only
        return url


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    form = WebhookForm
    list_display = ["url", "client", "is_active", "created_at"]
    list_filter = ["is_active"]
    search_fields = ["url", "client__name"]
    readonly_fields = ["created_at"]
    fields = ["client", "url", "events", "description", "is_active", "created_at"]
    inlines = [WebhookDeliveryInline]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["key", "client", "method", "path", "status_code", "created_at"]
    search_fields = ["key", "client__name"]
    readonly_fields = [
        "client",
        "key",
        "method",
        "path",
        "request_hash",
        "status_code",
        "response_body",
        "location",
        "created_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
