"""The expansion of a stored configuration (POST /api/v1/configurations/{id}/expansions/): the body and the answer,
for the schema. The body is read by quotes.services.expansion.growth_parse, which names the bad field."""

from __future__ import annotations

from rest_framework import serializers

from .designs import BillLineSerializer, ValidationResultSerializer


class ExpansionInputSerializer(serializers.Serializer):
    node_group = serializers.CharField(
        required=False,
        help_text="The node group that grows (with add). May be left out when the design has one node group.",
    )
    add = serializers.IntegerField(required=False, min_value=1, help_text="How many nodes the node group grows by.")
    node_groups = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="New node groups (design/v1 node groups), instead of node_group and add.",
    )


class CableEndSerializer(serializers.Serializer):
    device = serializers.CharField()
    port = serializers.CharField()
    rack = serializers.CharField(help_text="Empty where the network's rows carry no rack.")
    u = serializers.CharField(help_text="The device's lowest unit; empty where the rows carry none.")


class CableSerializer(serializers.Serializer):
    a = CableEndSerializer()
    z = CableEndSerializer()
    cable_part = serializers.CharField(help_text="As the cabling CSV names it (a fibre and its transceivers: A + B).")
    length_m = serializers.CharField()


class RecablingSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["keep", "move", "add", "remove"])
    network = serializers.ChoiceField(choices=["compute", "storage", "inband", "oob"])
    link_class = serializers.CharField(help_text="As the cabling CSV's link_class.")
    old = CableSerializer(allow_null=True, help_text="The installed cable; null for an added one.")
    new = CableSerializer(allow_null=True, help_text="The cable in the grown plan; null for a removed one.")


class PlaceSerializer(serializers.Serializer):
    rack = serializers.CharField()
    u = serializers.CharField()


class MovedDeviceSerializer(serializers.Serializer):
    device = serializers.CharField()
    old = PlaceSerializer()
    new = PlaceSerializer()


class ExpansionSerializer(ValidationResultSerializer):
    delta_bom = BillLineSerializer(
        many=True,
        help_text="What to buy: the grown bill less the installed one per line, never negative (a kept cable stays "
        "the installed part), and one services line SVC-RECABLE per moved or added cable.",
    )
    unused = BillLineSerializer(many=True, help_text="Installed parts the grown design needs fewer of.")
    recabling = RecablingSerializer(many=True, help_text="One row per link of the grown plan and per removed link.")
    moved_devices = MovedDeviceSerializer(many=True, help_text="Installed devices at another rack or unit.")
    expansion = serializers.DictField(
        help_text="Counts: installed_nodes, expanded_nodes, cables per action, labour_cables, moved_devices."
    )
