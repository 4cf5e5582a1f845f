"""The design/v1 contract and the validation / fabric-plan results, described for the OpenAPI schema.

These serializers document the shapes; they do not validate. Parsing is done by the one service every door
calls (configurator.services), so the API, the CLI and the wizard reject exactly the same documents with
exactly the same field paths.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.schema import default_role_choices
from design.contract import (
    COOLING_TYPES,
    DEFAULT_PDU_FEEDS,
    DEFAULT_RACK_UNITS,
    DEFAULT_TOPOLOGY,
    MAX_DISTANCE_M,
    MAX_ENDPOINTS,
    MAX_NAME_LENGTH,
    MAX_NODES_PER_RACK,
    MAX_RACK_POWER_KW,
    MAX_RACK_UNITS,
    MIN_RACK_UNITS,
    PDU_FEEDS,
    ROLES,
    TOPOLOGIES,
)
from design.parse import (
    MAX_COMPONENTS_PER_GROUP,
    MAX_CONCURRENCY,
    MAX_CONTEXT_TOKENS,
    MAX_NODE_GROUPS,
    MAX_NODES,
    MAX_PARAMS_BILLION,
    MAX_PORTS_USED,
    MAX_QUANTITY,
    MAX_SYSTEM_PORTS,
    WORKLOAD_KINDS,
    WORKLOAD_MODES,
    WORKLOAD_PRECISIONS,
)


@extend_schema_field({"type": "number", "format": "double", "minimum": 0, "exclusiveMinimum": True})
class PositiveNumberField(serializers.FloatField):
    """A number above zero (the parser refuses zero and negative distances and sizes)."""


def _positive(high: float, **kwargs) -> PositiveNumberField:
    return PositiveNumberField(max_value=high, **kwargs)


class ComponentSerializer(serializers.Serializer):
    part = serializers.CharField(help_text="Catalogue part number, e.g. HGX-H200-8GPU or MCX75310AAS-NEAT.")
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY, help_text="Per node.")
    role = serializers.ChoiceField(
        choices=ROLES, required=False, help_text="Optional; without it the service infers one."
    )
    slots = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Optional explicit placement: one slot name of the server per part.",
    )
    ports_used = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PORTS_USED,
        required=False,
        help_text=(
            "Adapters only: ports cabled per card, 1 up to the adapter's port count (more is a 400 naming this "
            "field). Default: every port. A compute adapter's cabled ports are its rails: a dual-port card with "
            "both ports used is two links to two rail leaves."
        ),
    )


class NodeGroupSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=MAX_NAME_LENGTH)
    count = serializers.IntegerField(min_value=1, max_value=MAX_NODES)
    server = serializers.CharField(help_text="A server part number, e.g. SYS-821GE-TNHR.")
    components = serializers.ListField(
        child=ComponentSerializer(),
        required=False,
        max_length=MAX_COMPONENTS_PER_GROUP,
        help_text=f"At most {MAX_COMPONENTS_PER_GROUP} per group.",
    )


class WorkloadSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=WORKLOAD_KINDS, required=False, help_text="Required unless mode is given.")
    model_parameters_billion = _positive(MAX_PARAMS_BILLION)
    mode = serializers.ChoiceField(
        choices=WORKLOAD_MODES, required=False, help_text="Default: pretraining or inference."
    )
    precision = serializers.ChoiceField(choices=WORKLOAD_PRECISIONS, required=False, default="bf16")
    context_tokens = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CONTEXT_TOKENS,
        required=False,
        help_text="Inference: tokens per sequence (KV cache).",
    )
    concurrency = serializers.IntegerField(
        min_value=1, max_value=MAX_CONCURRENCY, required=False, help_text="Inference: sequences served at once."
    )
    independent_jobs = serializers.BooleanField(
        required=False,
        default=False,
        help_text="True when the nodes run separate jobs (inference replicas, separate experiments) and no job "
        "spans nodes: two or more GPU nodes without a compute fabric are then an info, not a warning.",
    )


class RackSerializer(serializers.Serializer):
    """The rack model's overrides, the same in a design's ``fabric.rack`` and a fabric-plan request's ``rack``
    (limits: design.contract)."""

    nodes_per_rack = serializers.IntegerField(min_value=1, max_value=MAX_NODES_PER_RACK, required=False)
    in_rack_m = _positive(MAX_DISTANCE_M, required=False)
    node_to_leaf_m = _positive(MAX_DISTANCE_M, required=False)
    leaf_to_spine_m = _positive(MAX_DISTANCE_M, required=False)
    spine_to_core_m = _positive(MAX_DISTANCE_M, required=False)


class FabricSerializer(serializers.Serializer):
    switch = serializers.CharField(help_text="A switch part number, e.g. MQM9700-NS2F.")
    oversubscription = serializers.CharField(required=False, default="1:1", help_text="downlinks:uplinks, e.g. 2:1.")
    topology = serializers.ChoiceField(choices=TOPOLOGIES, required=False, default=DEFAULT_TOPOLOGY)
    hca = serializers.CharField(required=False, help_text="Optional adapter part number of the compute NICs.")
    rails = serializers.IntegerField(
        min_value=1, max_value=MAX_QUANTITY, required=False, help_text="Default: the compute NICs per node."
    )
    rack = RackSerializer(required=False)


class FacilitySerializer(serializers.Serializer):
    """The site the racks stand in (design/v1 "Additions"); every field optional."""

    rack_units = serializers.IntegerField(
        min_value=MIN_RACK_UNITS,
        max_value=MAX_RACK_UNITS,
        required=False,
        default=DEFAULT_RACK_UNITS,
        help_text="Units per rack.",
    )
    rack_power_kw = _positive(
        MAX_RACK_POWER_KW,
        required=False,
        help_text="The most one rack may draw, in kW. Absent: 30 kW for air cooling, 80 kW for liquid (stated in "
        "the result's rack_plan.rack_power_basis and a RACK_POWER_DEFAULT finding).",
    )
    cooling = serializers.ChoiceField(
        choices=COOLING_TYPES, required=False, help_text="Absent: liquid if any server is liquid-cooled, else air."
    )
    pdu_feeds = serializers.ChoiceField(
        choices=PDU_FEEDS,
        required=False,
        default=DEFAULT_PDU_FEEDS,
        help_text="A: one feed; A+B: two, each carrying the rack.",
    )


class OobNetworkSerializer(serializers.Serializer):
    """The out-of-band management network (CONTRACT-R3 ``networks.oob``); any other key is refused."""

    switch = serializers.CharField(
        required=False, allow_null=True, help_text="A management switch part number; absent: SN2201 (48 x 1 GbE)."
    )


class InbandNetworkSerializer(OobNetworkSerializer):
    """The in-band (converged north-south) network (``networks.inband``); any other key is refused."""

    oversubscription = serializers.CharField(
        required=False, allow_null=True, help_text="downlinks:uplinks as in fabric.oversubscription; absent: 1:1."
    )


class StorageNetworkSerializer(InbandNetworkSerializer):
    """The storage network (``networks.storage``); any other key is refused."""

    system_ports = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SYSTEM_PORTS,
        required=False,
        allow_null=True,
        help_text="Switch ports the customer's storage systems need (their count times their ports each).",
    )


class NetworksSerializer(serializers.Serializer):
    """The networks beside the compute fabric; each key null (the customer supplies it, a finding says so), an
    object, or absent (planned by default: out-of-band always, storage and in-band from the adapters whose role
    is storage or management)."""

    storage = StorageNetworkSerializer(required=False, allow_null=True)
    inband = InbandNetworkSerializer(required=False, allow_null=True)
    oob = OobNetworkSerializer(required=False, allow_null=True)


class DesignSerializer(serializers.Serializer):
    """A design document, contract design/v1."""

    schema = serializers.ChoiceField(choices=["design/v1"])
    name = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NAME_LENGTH)
    workload = WorkloadSerializer(required=False, allow_null=True)
    node_groups = serializers.ListField(
        child=NodeGroupSerializer(),
        min_length=1,
        max_length=MAX_NODE_GROUPS,
        help_text=f"One to {MAX_NODE_GROUPS} groups, with at most {MAX_NODES:,} nodes together (400 otherwise, "
        "naming the limit).",
    )
    fabric = FabricSerializer(required=False, allow_null=True, help_text="null or absent: no compute fabric.")
    facility = FacilitySerializer(required=False, allow_null=True, help_text="null or absent: the defaults.")
    networks = NetworksSerializer(required=False, allow_null=True, help_text="null or absent: every default.")


class FindingSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable upper-snake code, documented in the rule catalogue.")
    severity = serializers.ChoiceField(choices=["error", "warning", "info"])
    subject = serializers.CharField(help_text="Field path the finding concerns, e.g. node_groups[0].components[1].")
    message = serializers.CharField()
    fix = serializers.CharField(allow_null=True)


class BomLineSerializer(serializers.Serializer):
    part = serializers.CharField()
    quantity = serializers.IntegerField()


class FabricPlanSerializer(serializers.Serializer):
    """The planned fabric; the keys below are guaranteed, more may be present."""

    tiers = serializers.IntegerField()
    nodes_per_unit = serializers.IntegerField()
    units = serializers.IntegerField()
    leaf_switches = serializers.IntegerField()
    spine_switches = serializers.IntegerField()
    core_switches = serializers.IntegerField()
    node_links = serializers.IntegerField()
    leaf_spine_links = serializers.IntegerField()
    spine_core_links = serializers.IntegerField()
    bom = BomLineSerializer(many=True)
    bom_complete = serializers.BooleanField(
        help_text="false when some link class has no catalogued cable or optic: the bom leaves those links out "
        "(finding FABRIC_MEDIA_NOT_CATALOGUED) and is incomplete."
    )
    uncabled_links = serializers.ListField(
        child=serializers.CharField(), help_text="The link classes (node-leaf, leaf-spine, spine-core) left uncabled."
    )


class RackDeviceSerializer(serializers.Serializer):
    part = serializers.CharField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["node", "leaf", "spine", "core", "management", "pdu"])
    position_u = serializers.IntegerField(
        help_text="Lowest unit of the (first) device, counted from U1 at the bottom (EIA-310)."
    )
    height_u = serializers.IntegerField()
    count = serializers.IntegerField(
        min_value=1, help_text="Identical devices stacked next to each other, written once (1 for a single device)."
    )
    last_position_u = serializers.IntegerField(
        help_text="Lowest unit of the stack's last device; each is height_u units on from the one before, in the "
        "rack's order (nodes bottom up, switches top down)."
    )


class RackSummarySerializer(serializers.Serializer):
    """A run of ``count`` identical racks standing one after another in plan order (row by row, slot by slot)."""

    name = serializers.CharField(help_text="The run's first rack: R<row>-<slot>, e.g. R01-03.")
    count = serializers.IntegerField(
        min_value=1,
        help_text="How many identical racks the entry stands for (1 for a single rack); totals.racks sums them. The "
        "entry's racks are the next count names of rows[].racks, from name to last_name; a run may go on into the "
        "next row when that row starts with the same racks.",
    )
    last_name = serializers.CharField(help_text="The run's last rack (the same as name when count is 1).")
    kind = serializers.ChoiceField(choices=["compute", "network"])
    row = serializers.IntegerField(help_text="The first rack's row (0-based).")
    slot = serializers.IntegerField(help_text="The first rack's place in its row (0-based).")
    u_total = serializers.IntegerField()
    u_used = serializers.IntegerField()
    power_w = serializers.IntegerField(allow_null=True, help_text="null when any device's power is unknown.")
    power_known_w = serializers.IntegerField()
    cooling = serializers.ChoiceField(choices=COOLING_TYPES)
    devices = RackDeviceSerializer(many=True, help_text="Of each rack of the run.")
    pdus = BomLineSerializer(many=True, help_text="Of each rack of the run.")
    node_group = serializers.CharField(allow_null=True, help_text="The node group whose nodes the racks hold.")
    first_node = serializers.IntegerField(
        help_text="The first rack's first node (0-based, in its node group); rack k of the run holds the nodes "
        "from first_node + k * nodes."
    )
    nodes = serializers.IntegerField(help_text="Nodes in each rack of the run.")


class NetworkPlanSerializer(serializers.Serializer):
    """One planned network (storage, in-band or out-of-band); the keys below are guaranteed, more may be present."""

    switch = serializers.CharField(allow_null=True)
    leaf_switches = serializers.IntegerField(
        help_text="Out-of-band: the racks' management switches (carried by the rack plan) plus any more needed."
    )
    spine_switches = serializers.IntegerField(help_text="Out-of-band: the aggregation switches.")
    core_switches = serializers.IntegerField()
    node_links = serializers.IntegerField(help_text="Out-of-band: every BMC, switch management port and rack PDU.")
    ports_used = serializers.DictField(child=serializers.IntegerField(), help_text="Per tier.")
    bom = BomLineSerializer(many=True, help_text="What this network adds to the bill: switches, cables, optics.")
    findings = FindingSerializer(many=True)
    sources = serializers.ListField(child=serializers.CharField(), help_text="Source keys of the rules used.")


class NetworkPlansSerializer(serializers.Serializer):
    storage = NetworkPlanSerializer(allow_null=True)
    inband = NetworkPlanSerializer(allow_null=True)
    oob = NetworkPlanSerializer(allow_null=True)


class RowSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    racks = serializers.ListField(child=serializers.CharField())


class RackPlanSerializer(serializers.Serializer):
    """The rack plan; the keys below are guaranteed, more may be present."""

    racks = RackSummarySerializer(many=True)
    rows = RowSerializer(many=True)
    pdus = BomLineSerializer(many=True, help_text="Over all racks; empty when the catalogue holds no PDU.")
    rack_units = serializers.IntegerField()
    rack_power_limit_w = serializers.IntegerField()
    rack_power_basis = serializers.CharField(help_text="facility, default-air or default-liquid.")
    cooling = serializers.ChoiceField(choices=COOLING_TYPES)
    pdu_feeds = serializers.ChoiceField(choices=PDU_FEEDS)
    distances = serializers.DictField(
        child=serializers.DictField(),
        help_text="Per link class (in_rack_m, node_to_leaf_m, leaf_to_spine_m, spine_to_core_m, management_m): "
        "length_m, basis (plan, override or none) and route.",
    )


class DefaultAddedSerializer(serializers.Serializer):
    node_group = serializers.CharField(help_text="Name of the node group the part was added to.")
    part = serializers.CharField(help_text="Part number of the added part.")
    quantity = serializers.IntegerField(help_text="Per node.")
    role = serializers.ChoiceField(choices=default_role_choices())


class ValidationResultSerializer(serializers.Serializer):
    valid = serializers.BooleanField(help_text="False exactly when a finding has severity error.")
    findings = FindingSerializer(many=True)
    placement = serializers.ListField(child=serializers.DictField(), help_text="Which part sits in which slot.")
    fabric_plan = FabricPlanSerializer(allow_null=True)
    network_plans = NetworkPlansSerializer(help_text="The networks beside the compute fabric; null: not planned.")
    rack_plan = RackPlanSerializer()
    totals = serializers.DictField(
        help_text="GPUs, power and other totals; racks (count) and facility_power_w (nodes, switches and "
        "transceivers; null when any of their power is unknown, facility_power_known_w then sums the known part; "
        "PDU losses and cooling are not included, as overhead_included says). cluster_power_w is the same sum as "
        "facility_power_known_w, cluster_power_at_least is true exactly when facility_power_w is null, and "
        "power_unknown lists what the sum leaves out (parts without a sourced power figure, node groups without an "
        "estimate)."
    )
    defaults_added = DefaultAddedSerializer(
        many=True,
        help_text="Parts the service added to make each node complete (CPUs, memory, boot drive) where the design "
        "named none: the server's default node set, priced on the bill of materials. Empty when complete.",
    )


class FabricPlanRequestSerializer(serializers.Serializer):
    nodes = serializers.IntegerField(
        min_value=1, max_value=MAX_ENDPOINTS, help_text=f"nodes × rails is at most {MAX_ENDPOINTS:,}."
    )
    rails = serializers.IntegerField(min_value=1, max_value=MAX_ENDPOINTS)
    switch = serializers.CharField(help_text="A switch part number, e.g. MQM9700-NS2F.")
    oversubscription = serializers.CharField(required=False, default="1:1")
    topology = serializers.ChoiceField(choices=TOPOLOGIES, required=False, default=DEFAULT_TOPOLOGY)
    hca = serializers.CharField(required=False)
    rack = RackSerializer(required=False)


# Both parsers read an optional field given as null as absent: the schema says so.
for _serializer in (
    ComponentSerializer,
    NodeGroupSerializer,
    WorkloadSerializer,
    RackSerializer,
    FabricSerializer,
    FacilitySerializer,
    DesignSerializer,
    FabricPlanRequestSerializer,
):
    for _field in _serializer._declared_fields.values():
        if not _field.required:
            _field.allow_null = True
            _field._kwargs["allow_null"] = True  # fields are re-made from their arguments for each serializer
