"""The "Expand this cluster" page's form and summary: the node group that grows and by how many nodes, and what the
expansion plan says it takes (quotes.services.expansion), as the page shows it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from design.jsontext import JsonObject
from quotes.services.expansion import MAX_ADD, Expansion, Growth
from web.forms import Form


class ExpansionForm(Form):
    """The growth of a won or issued quote's cluster: one of its design's node groups, and how many nodes more."""

    node_group = forms.ChoiceField(label=_("Node group"))
    add = forms.IntegerField(
        label=_("Nodes to add"),
        min_value=1,
        max_value=MAX_ADD,
        help_text=_("How many servers the node group grows by, as its installed ones."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 6}),
    )

    def __init__(self, *args: Any, groups: list[tuple[str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choice("node_group").choices = [(name, f"{name} ({count})") for name, count in groups]
        if len(groups) == 1:
            self.fields["node_group"].initial = groups[0][0]

    def growth(self) -> Growth:
        return Growth(node_group=self.cleaned_data["node_group"], add=self.cleaned_data["add"])


def node_groups(design: JsonObject) -> list[tuple[str, int]]:
    """The design's node groups with their installed counts."""
    groups = design.get("node_groups") if isinstance(design, dict) else None
    return [
        (str(g.get("name")), int(g.get("count") or 0)) for g in groups or [] if isinstance(g, dict) and g.get("name")
    ]


def summary(expansion: Expansion) -> dict[str, Any]:
    """What the page shows of an expansion plan: the counts, the lines to buy and what the growth crosses."""
    counts = expansion.summary()
    return {
        **counts,
        "added_nodes": max(0, counts["expanded_nodes"] - counts["installed_nodes"]),
        "lines": [line.to_dict() for line in expansion.delta_bom],
        "findings": [f.to_json() for f in expansion.findings],
        "valid": expansion.result.valid,
    }
