"""The cluster as a whole: the engines that compose the node, fabric, rack and network engines into one design's
plans, its control plane and services, and its one bill of materials. Pure Python (no Django, no I/O); what only
the service has (the settings' prices, the words of a line in the result's language) comes in as parameters.

* ``pipeline.py``: ``validate_cluster(design, catalog, *, prices, describe, words) -> ClusterValidation``, every
  engine once, in order; the fabric's view of the nodes (``integrated_nic_spec``, the fabric endpoints and rails),
  the networks' view of the nodes and racks, ``design_hash``.
* ``defaults.py``: ``complete_design``, a node group's server's default node set where the group names none.
* ``rackplan.py``: ``build_rack_plan`` (the rack planner's inputs from the design, the catalogue, the node rules'
  power and the fabric's switch counts; a per-process memo of plans), the distances and the fabric's ``rack``
  with them, the result's ``RackPlanSection`` (``to_json()`` is design/v1 ``rack_plan``) and ``fabric_locator``
  for the cabling list.
* ``rackbill.py``: ``RackBill``, what the bill reads of the rack plan: every racked device it carries, by section.
* ``control_plane.py``: what the offer leaves out (``left_out``), the control plane's and the services' lines
  (``cluster_lines``) with ``ServicePrices``.
* ``bill.py``: the bill of materials (``assemble_bill`` from ``BillSources``; ``BomLine``), its words
  (``BillWords``) given by the service.
"""
