"""The validation and fabric-plan results, described for the OpenAPI schema.

These serializers document the shapes of the answers. The request bodies (the design/v1 document and the
fabric-plan request) are described by the typed model that parses them, design.model (api.schema turns it into
the schema's components), so the API, the CLI and the wizard reject exactly the same documents with exactly the
same field paths, and the schema says exactly what they accept.
"""

from __future__ import annotations

from rest_framework import serializers

from api.schema import default_role_choices
from design.contract import BILL_SECTIONS, COOLING_TYPES, PDU_FEEDS


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
    role = serializers.ChoiceField(
        choices=[
            "node",
            "leaf",
            "spine",
            "core",
            "management",
            "pdu",
            "storage-leaf",
            "storage-spine",
            "storage-core",
            "inband-leaf",
            "inband-spine",
            "inband-core",
            "oob",
            "control",
            "ufm",
            "nvlink-switch",
            "power-shelf",
            "system-management",
        ],
        help_text="node; the compute fabric's leaf, spine or core; the rack's management switch; pdu; and in "
        "management racks the storage and in-band networks' switches by tier (storage-leaf ... inband-core), a "
        "central out-of-band switch (oob), a control-plane server (control) or a UFM appliance (ufm). In a "
        "rack-scale system (NVL72) its compute trays are node devices; its NVLink switch trays (nvlink-switch), power "
        "shelves (power-shelf) and built-in management switches (system-management) come with it.",
    )
    position_u = serializers.IntegerField(
        help_text="Lowest unit of the (first) device, counted from U1 at the bottom (EIA-310)."
    )
    height_u = serializers.IntegerField()
    face = serializers.ChoiceField(
        choices=["front", "rear"],
        required=False,
        help_text="The rack face the device is mounted from (every device with units: front). Absent in results "
        "stored before it was written.",
    )
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
    kind = serializers.ChoiceField(
        choices=["compute", "network", "management"],
        help_text="compute: nodes; network: the compute fabric's leaf, spine or core switches; management: the "
        "storage and in-band switches, central out-of-band switches, the control plane and UFM.",
    )
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
    spine_switches = serializers.IntegerField(
        help_text="Out-of-band: always 0; its switches uplink into the in-band network (no aggregation switches)."
    )
    core_switches = serializers.IntegerField()
    node_links = serializers.IntegerField(
        help_text="Out-of-band: every node BMC, switch management port, rack PDU and control-plane server BMC."
    )
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


class BillLineSerializer(serializers.Serializer):
    """One line of the design's bill of materials: the lines the quote carries and its documents print."""

    section = serializers.ChoiceField(
        choices=list(BILL_SECTIONS),
        help_text="nodes, compute_fabric, storage, inband, oob (the management switches the rack plan places), "
        "racks_power (the rack plan's racks, PDUs and node power cords), control_plane, services.",
    )
    part = serializers.CharField(
        allow_blank=True, help_text="Catalogue part number; empty when no catalogue part fits (see description)."
    )
    description = serializers.CharField()
    quantity = serializers.IntegerField(min_value=1)
    unit_price_eur = serializers.CharField(
        allow_null=True, help_text='Decimal string ("1234.00"); null: priced on request, left out of every total.'
    )
    group = serializers.CharField(allow_null=True, help_text="The node group of a nodes line; null otherwise.")


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
    bom = BillLineSerializer(
        many=True,
        help_text="The one bill of materials, by section. Its racks, PDUs, power cords and management switches are "
        "exactly the rack plan's. totals.list_price_eur sums the priced lines; totals.list_price_at_least is true "
        "when some line is priced on request.",
    )


class RecommendedDesignSerializer(serializers.Serializer):
    """One ranked design: its document, price, time to train or serving estimate, and whether it meets the goal."""

    rank = serializers.IntegerField(help_text="1 for the first; designs that meet the goal come first.")
    key = serializers.ChoiceField(choices=["recommended", "cheapest"], help_text="Which question it answers.")
    also = serializers.ListField(child=serializers.CharField(), help_text="Other questions the same design answers.")
    name = serializers.CharField()
    reason = serializers.CharField(help_text="Why it is proposed, in one sentence (the goal step's).")
    document = serializers.DictField(help_text="The design/v1 document: validate it, or start a configuration.")
    list_price_eur = serializers.CharField(allow_null=True, help_text="The bill of materials' list price.")
    list_price_at_least = serializers.BooleanField(help_text="True when some line is priced on request.")
    valid = serializers.BooleanField()
    errors = serializers.IntegerField()  # type: ignore[assignment]  # the answer's "errors" count, not Serializer.errors
    warnings = serializers.IntegerField()
    goal = serializers.ChoiceField(
        choices=["deadline", "serving"], allow_null=True, help_text="What the workload asks beyond its memory."
    )
    meets_goal = serializers.BooleanField(
        allow_null=True, help_text="Whether the design meets the goal; null without a goal or an estimate."
    )
    target_days = serializers.FloatField(allow_null=True)
    training_days = serializers.FloatField(allow_null=True, help_text="The validation's estimated time to train.")
    training_days_range = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    gpu_hours = serializers.FloatField(allow_null=True)
    deadline_gpus = serializers.IntegerField(allow_null=True, help_text="sizing.deadline_gpus of the design.")
    deadline_nodes = serializers.IntegerField(
        allow_null=True, help_text="The nodes of this design's kind that meet target_days (sizing.deadline_nodes)."
    )
    concurrency = serializers.IntegerField(allow_null=True)
    tokens_per_second = serializers.FloatField(allow_null=True, help_text="Serving estimate, where one is sourced.")
    gpus_needed = serializers.IntegerField(allow_null=True, help_text="GPUs that serve the concurrency.")
    gpus = serializers.IntegerField(allow_null=True)


class RecommendationSerializer(serializers.Serializer):
    goal = serializers.ChoiceField(choices=["deadline", "serving"], allow_null=True)
    met = serializers.BooleanField(
        allow_null=True, help_text="A design meets the goal; false: none does (the message says what size would)."
    )
    message = serializers.CharField(help_text="The answer in one sentence, in the request's language.")
    designs = RecommendedDesignSerializer(many=True)
