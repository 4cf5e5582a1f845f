"""The API schema names every device role and rack kind the rack planner writes (api/serializers/designs.py holds
them as literals: the doors do not import the engines)."""

from api.serializers.designs import RackDeviceSerializer, RackSummarySerializer
from engines.racks.model import DeviceRole, RackKind


def test_the_schema_lists_every_device_role_and_rack_kind():
    assert set(RackDeviceSerializer().fields["role"].choices) == {str(r) for r in DeviceRole}
    assert set(RackSummarySerializer().fields["kind"].choices) == {str(k) for k in RackKind}
