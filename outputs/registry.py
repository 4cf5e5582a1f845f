"""Every output format of a validated design, by the file name a door serves it under: one line per format."""

from __future__ import annotations

from .format import OutputFormat
from .formats import cabling_csv, cut_sheet_xlsx, fabric_topo, netbox_zip, pictures_svg, topology_conf, topology_yaml

FORMATS: dict[str, OutputFormat] = {
    fmt.name: fmt
    for fmt in (
        cabling_csv.FORMAT,
        pictures_svg.DIAGRAM,
        pictures_svg.ELEVATION,
        pictures_svg.SLOT_MAP,
        topology_conf.FORMAT,
        topology_yaml.FORMAT,
        fabric_topo.FORMAT,
        cut_sheet_xlsx.FORMAT,
        netbox_zip.FORMAT,
    )
}
