"""Catalogue output: parts, their typed specs with sources (unknown shown as null) and server slots."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.fields import Field

from catalog.models import (
    SPEC_MODELS,
    DefaultPart,
    DriveBay,
    Part,
    PcieSwitch,
    PsuOption,
    Server,
    ServerSlot,
    SpecBase,
    spec_relation,
)


@lru_cache(maxsize=1)
def source_titles() -> dict[str, str]:
    """Source keys of the seed catalogue → their titles (spec sheets, reference architectures)."""
    from catalog.services import SEED_PATH

    try:
        return dict(json.loads(SEED_PATH.read_text()).get("sources", {}))
    except (OSError, ValueError, AttributeError):
        return {}


class _SpecSerializer(serializers.ModelSerializer):
    """Every spec field; an unknown value (null or empty) is shown as null, never guessed."""

    spec_kind: str = ""

    def to_representation(self, instance: SpecBase) -> dict[str, Any]:
        data = super().to_representation(instance)
        return {"kind": self.spec_kind, **{k: (None if v == "" else v) for k, v in data.items() if k != "kind"}}

    @classmethod
    def for_model(
        cls, model: type[SpecBase], name: str, kind: str, exclude: tuple[str, ...] = ("part", "sources", "accepts")
    ) -> type[_SpecSerializer]:
        """The specs serializer of one category; ``kind`` (the category) tells the PartSpecs variants apart."""
        fields = ["kind", *(f.name for f in model._meta.concrete_fields if f.name not in exclude)]
        meta = type("Meta", (), {"model": model, "fields": fields})
        kind_field = serializers.ChoiceField(
            choices=[kind], read_only=True, source="pk", help_text="The kind of specs (the part's category)."
        )
        return type(name, (cls,), {"Meta": meta, "spec_kind": kind, "kind": kind_field})

    def get_fields(self) -> dict[str, Field]:
        fields = super().get_fields()
        for name, field in fields.items():
            field.allow_null = name != "kind"
        return fields


# The specs serializer of every part kind (catalog.models.SPEC_MODELS), keyed by the part's one-to-one spec
# relation (``media`` for cables and transceivers alike) and named ``<Model>Specs`` in the OpenAPI schema.
SPEC_SERIALIZERS = {
    related: _SpecSerializer.for_model(model, f"{model.__name__}Specs", related)
    for related, model in {spec_relation(model): model for model in SPEC_MODELS.values()}.items()
}

# A part's one spec relation by its category ("other" has none): the catalogue load and the admin make a part's spec
# by its category.
SPEC_OF_CATEGORY = {category: spec_relation(model) for category, model in SPEC_MODELS.items()}


class SlotSerializer(serializers.ModelSerializer):
    pcie_switch = serializers.CharField(source="pcie_switch.name", allow_null=True, default=None)
    form = serializers.CharField(allow_null=True)
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # the slot's "source" column, not Field.source

    class Meta:
        model = ServerSlot
        fields = [
            "name",
            "position",
            "form",
            "pcie_gen",
            "lanes",
            "cpu_socket",
            "pcie_switch",
            "gpus",
            "for_gpu",
            "source",
        ]

    def to_representation(self, instance: ServerSlot) -> dict[str, Any]:
        data = super().to_representation(instance)
        return {k: (None if v == "" and k in ("form", "source") else v) for k, v in data.items()}


class PcieSwitchSerializer(serializers.ModelSerializer):
    class Meta:
        model = PcieSwitch
        fields = ["name", "cpu_socket", "uplink_gen", "uplink_lanes", "gpus", "source"]


class DriveBaySerializer(serializers.ModelSerializer):
    class Meta:
        model = DriveBay
        fields = ["count", "form_factor", "interface", "shares_slot_lanes", "source"]


class PsuOptionSerializer(serializers.ModelSerializer):
    redundancy = serializers.CharField(allow_null=True, help_text="As published, e.g. 3+3; null: not sourced.")

    class Meta:
        model = PsuOption
        fields = ["count", "watts", "redundancy", "default", "source"]

    def to_representation(self, instance: PsuOption) -> dict[str, Any]:
        data = super().to_representation(instance)
        return {**data, "redundancy": data["redundancy"] or None}


class DefaultPartSerializer(serializers.ModelSerializer):
    part = serializers.CharField(source="part.part_number")

    class Meta:
        model = DefaultPart
        fields = ["role", "part", "quantity", "source"]


class SourceSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField(allow_null=True)


class PartSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:part-detail", lookup_field="part_number")
    list_price_eur = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        allow_null=True,
        help_text="Indicative list price (EUR, excl. VAT); null: on request.",
    )

    class Meta:
        model = Part
        fields = [
            "part_number",
            "manufacturer",
            "name",
            "category",
            "description",
            "list_price_eur",
            "lead_time_days",
            "lifecycle",
            "url",
        ]


_SPECS_SCHEMA = PolymorphicProxySerializer(
    component_name="PartSpecs",
    serializers=SPEC_SERIALIZERS,  # type: ignore[arg-type]  # kind → serializer: a discriminator on "kind" with this mapping (read only; drf-spectacular says dict, not Mapping)
    resource_type_field_name="kind",
)


class PartDetailSerializer(PartSerializer):
    specs = serializers.SerializerMethodField(help_text="Typed specs of the category; null values are unknown.")
    sources = serializers.SerializerMethodField(help_text="For each spec field, the source it was taken from.")
    slots = serializers.SerializerMethodField(help_text="Expansion slots (servers only).")
    pcie_switches = serializers.SerializerMethodField(help_text="PCIe switches on the board (servers only).")
    accepts = serializers.SerializerMethodField(help_text="GPU part numbers this server accepts (servers only).")
    accepted_by = serializers.SerializerMethodField(help_text="Servers that accept this GPU (GPUs only).")
    drive_bays = serializers.SerializerMethodField(help_text="Drive bays by form factor and interface (servers only).")
    psu_options = serializers.SerializerMethodField(help_text="Power-supply configurations (servers only).")
    default_parts = serializers.SerializerMethodField(
        help_text="The platform's default node set: CPUs, memory and boot drive added where a design names none "
        "(servers only)."
    )

    class Meta(PartSerializer.Meta):
        fields = [*PartSerializer.Meta.fields, "specs", "sources", "slots", "pcie_switches", "accepts", "accepted_by"]
        fields += ["drive_bays", "psu_options", "default_parts"]

    @staticmethod
    def _spec(part: Part) -> tuple[str | None, SpecBase | None]:
        name = SPEC_OF_CATEGORY.get(part.category)
        spec = None if name is None else getattr(part, name, None)  # a missing one-to-one: an AttributeError
        return (name, spec) if spec is not None else (None, None)

    @extend_schema_field(_SPECS_SCHEMA)
    def get_specs(self, part: Part) -> dict[str, Any] | None:
        name, spec = self._spec(part)
        return None if spec is None or name is None else SPEC_SERIALIZERS[name](spec).data

    @extend_schema_field(serializers.DictField(child=SourceSerializer()))
    def get_sources(self, part: Part) -> dict[str, dict[str, str | None]]:
        _name, spec = self._spec(part)
        titles = source_titles()
        sources = getattr(spec, "sources", None) or {}
        return {field: {"key": key, "title": titles.get(key)} for field, key in sources.items()}

    @extend_schema_field(SlotSerializer(many=True))
    def get_slots(self, part: Part) -> list[dict[str, Any]]:
        server = getattr(part, "server", None) if part.category == "server" else None
        return [] if server is None else SlotSerializer(server.slots.all(), many=True).data  # type: ignore[return-value]  # many=True: a list (the stubs say ReturnDict)

    @extend_schema_field(PcieSwitchSerializer(many=True))
    def get_pcie_switches(self, part: Part) -> list[dict[str, Any]]:
        server = getattr(part, "server", None) if part.category == "server" else None
        return [] if server is None else PcieSwitchSerializer(server.pcie_switches.all(), many=True).data  # type: ignore[return-value]  # many=True: a list (the stubs say ReturnDict)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_accepts(self, part: Part) -> list[str]:
        server = getattr(part, "server", None) if part.category == "server" else None
        return [] if server is None else sorted(p.part_number for p in server.accepts.all())

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_accepted_by(self, part: Part) -> list[str]:
        if part.category != "gpu":
            return []
        return sorted(s.part.part_number for s in part.accepted_by.all())

    @staticmethod
    def _server(part: Part) -> Server | None:
        return getattr(part, "server", None) if part.category == "server" else None

    @extend_schema_field(DriveBaySerializer(many=True))
    def get_drive_bays(self, part: Part) -> list[dict[str, Any]]:
        server = self._server(part)
        return [] if server is None else DriveBaySerializer(server.drive_bays.all(), many=True).data  # type: ignore[return-value]  # many=True: a list (the stubs say ReturnDict)

    @extend_schema_field(PsuOptionSerializer(many=True))
    def get_psu_options(self, part: Part) -> list[dict[str, Any]]:
        server = self._server(part)
        return [] if server is None else PsuOptionSerializer(server.psu_options.all(), many=True).data  # type: ignore[return-value]  # many=True: a list (the stubs say ReturnDict)

    @extend_schema_field(DefaultPartSerializer(many=True))
    def get_default_parts(self, part: Part) -> list[dict[str, Any]]:
        server = self._server(part)
        return [] if server is None else DefaultPartSerializer(server.default_parts.all(), many=True).data  # type: ignore[return-value]  # many=True: a list (the stubs say ReturnDict)
