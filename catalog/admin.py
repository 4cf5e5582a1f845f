"""Catalogue admin: search, filters, spec and slot inlines, price-list import and export."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _

from . import pricelist
from .models import (
    SPEC_MODELS,
    CatalogRelease,
    DefaultPart,
    DriveBay,
    Media,
    Part,
    PcieSwitch,
    PsuOption,
    Server,
    ServerSlot,
)


class SpecInline(admin.StackedInline):
    extra = 0
    max_num = 1
    can_delete = False


class ServerInline(SpecInline):
    model = Server
    filter_horizontal = ["accepts"]


class MediaInline(SpecInline):
    model = Media
    fieldsets = [
        (None, {"fields": ["kind", "purpose", "protocol", "length_m", "reach_m", "fibre", "watts"]}),
        (_("End A (switch side)"), {"fields": ["a_connector", "a_speed_gbps", "a_top", "a_legs", "a_twin"]}),
        (_("End B"), {"fields": ["b_connector", "b_speed_gbps", "b_top", "b_legs", "b_twin"]}),
        (_("Sources"), {"fields": ["sources"]}),
    ]


# Category → the inline of its spec model, derived from the part kinds (SPEC_MODELS): a new kind gets a plain
# inline of all its fields unless it needs one of its own here.
_OWN_INLINES: dict[type, type[SpecInline]] = {Server: ServerInline, Media: MediaInline}
INLINES = {
    category: _OWN_INLINES.get(model) or type(f"{model.__name__}Inline", (SpecInline,), {"model": model})
    for category, model in SPEC_MODELS.items()
}


class PriceListForm(forms.Form):
    file = forms.FileField(label=_("Price list (CSV or XLSX)"))


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = [
        "part_number",
        "name",
        "manufacturer",
        "category",
        "list_price_eur",
        "lead_time_days",
        "lifecycle",
        "replacement",
    ]
    list_filter = ["category", "manufacturer", "lifecycle"]
    search_fields = ["part_number", "name", "description", "replacement"]
    ordering = ["category", "part_number"]
    change_list_template = "admin/catalog/part/change_list.html"

    def get_inlines(self, request: HttpRequest, obj: Part | None) -> list[type[InlineModelAdmin[Any, Any]]]:
        return [INLINES[obj.category]] if obj and obj.category in INLINES else []

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("export.csv", self.admin_site.admin_view(self.export_csv), name="catalog_part_export_csv"),
            path("export.xlsx", self.admin_site.admin_view(self.export_xlsx), name="catalog_part_export_xlsx"),
            path("import/", self.admin_site.admin_view(self.import_view), name="catalog_part_import"),
        ]
        return own + super().get_urls()

    def _may_export(self, request: HttpRequest) -> None:
        """The price list is the part list with its prices: whoever may not see the part list may not export it."""
        if not self.has_view_permission(request):
            raise PermissionDenied

    def export_csv(self, request: HttpRequest) -> HttpResponse:
        self._may_export(request)
        resp = HttpResponse(pricelist.export_csv(), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = 'attachment; filename="price-list.csv"'
        return resp

    def export_xlsx(self, request: HttpRequest) -> HttpResponse:
        self._may_export(request)
        resp = HttpResponse(
            pricelist.export_xlsx(), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
        resp["Content-Disposition"] = 'attachment; filename="price-list.xlsx"'
        return resp

    def import_view(self, request: HttpRequest) -> HttpResponseBase:
        if not self.has_change_permission(request):
            return redirect("admin:catalog_part_changelist")
        errors = []
        form = PriceListForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                report = pricelist.import_price_list(filename=upload.name, content=upload.read())
            except pricelist.PriceListError as exc:
                errors = exc.errors
                messages.error(request, _("Nothing was imported: %(n)d row(s) have errors.") % {"n": len(errors)})
            else:
                messages.success(
                    request,
                    _("Price list imported: %(u)d updated, %(n)d unchanged.")
                    % {"u": report.updated, "n": report.unchanged},
                )
                return redirect("admin:catalog_part_changelist")
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "errors": errors,
            "title": _("Import price list"),
            "opts": self.model._meta,
        }
        return render(request, "admin/catalog/part/import.html", context)


class SlotInline(admin.TabularInline):
    model = ServerSlot
    extra = 0
    fields = ["position", "name", "form", "pcie_gen", "lanes", "cpu_socket", "pcie_switch", "gpus", "for_gpu", "source"]


class PcieSwitchInline(admin.TabularInline):
    model = PcieSwitch
    extra = 0


@admin.register(Server)
class ServerAdmin(admin.ModelAdmin):
    list_display = [
        "part",
        "height_u",
        "cpu_platform",
        "psu_count",
        "psu_watts",
        "psu_redundant",
        "cooling",
        "slots_known",
    ]
    list_select_related = ["part"]  # the list shows the part: one join, not one query per server
    list_filter = ["cooling", "slots_known"]
    search_fields = ["part__part_number", "part__name"]
    inlines = [PcieSwitchInline, SlotInline]
    filter_horizontal = ["accepts"]

    def get_inlines(self, request: HttpRequest, obj: Server | None) -> list[type[InlineModelAdmin[Any, Any]]]:
        return [*self.inlines, DriveBayInline, PsuOptionInline, DefaultPartInline]


class DriveBayInline(admin.TabularInline):
    model = DriveBay
    extra = 0


class PsuOptionInline(admin.TabularInline):
    model = PsuOption
    extra = 0


class DefaultPartInline(admin.TabularInline):
    model = DefaultPart
    extra = 0
    autocomplete_fields = ["part"]


@admin.register(Media)
class MediaAdmin(admin.ModelAdmin):
    """Cables, fibres and transceivers with both ends, purpose and lifecycle, to review against the LinkX pages."""

    list_display = [
        "part",
        "kind",
        "purpose",
        "a_connector",
        "a_top",
        "a_twin",
        "b_connector",
        "b_top",
        "b_legs",
        "length_m",
        "reach_m",
        "watts",
        "lifecycle",
    ]
    list_select_related = ["part"]
    list_filter = ["kind", "purpose", "a_connector", "b_connector", "part__lifecycle"]
    search_fields = ["part__part_number", "part__name"]
    fieldsets = MediaInline.fieldsets

    @admin.display(description=_("lifecycle"), ordering="part__lifecycle")
    def lifecycle(self, obj: Media) -> str:
        return obj.part.get_lifecycle_display()


@admin.register(CatalogRelease)
class CatalogReleaseAdmin(admin.ModelAdmin):
    list_display = ["version", "source", "created_at"]
    readonly_fields = ["version", "checksum", "source", "created_at"]
