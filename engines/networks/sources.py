"""The reference-architecture citations the network planner's rules rest on, by source key.

Each network plan lists the keys of the rules it used (``NetworkPlan.sources``); the rule registry cites the same
documents. Markers as in the shared fabric reference: [V] stated by the NVIDIA document, [S] secondary, [D] derived.
"""

from __future__ import annotations

SOURCES: dict[str, str] = {
    "SPOD-H100-NET": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Network Fabrics: 'DGX SuperPOD configurations utilize four network "
        "fabrics: Compute Fabric, Storage Fabric, In-Band Management Network, Out-of-Band Management Network'; "
        "'Each pair of in-band management and storage ports provide parallel pathways into the DGX H100 system'; "
        "'The OOB port is used for BMC access' [V]"
    ),
    "SPOD-H100-OOB": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Out-of-Band Management Network: the OOB Ethernet fabric 'connects "
        "the management ports of all devices including DGX and management servers, storage, networking gear, rack "
        "PDUs, and all other devices'; Table 1: SN2201 '48 port 1 Gbps' [V]"
    ),
    "SPOD-B200-STORAGE": (
        "NVIDIA DGX SuperPOD B200 RA-11334-001, Network Fabrics: an 'InfiniBand Storage Fabric' separate from the "
        "compute fabric; 'the fabric should be designed to support the full SU, including leaf switches and "
        "leaf-spine cables' [V]"
    ),
    "BASEPOD-INBAND": (
        "NVIDIA DGX BasePOD deployment guide (H200/H100), Networking: 'Each DGX system connects to the SN4600C "
        "switches with a bonded interface that consists of two physical interfaces'; switch configurations: the "
        "two in-band SN4600C switches are MLAG peers over a peer link (swp57, swp58) [V]"
    ),
    "ERA-HGX-CONVERGED": (
        "NVIDIA Enterprise RA, HGX H100/H200/B200 AI Factory, Network Logical Architecture: 'The CPU Converged "
        "(North/South) network connects the nodes using two 200 GbE ports to two separate switches to provide "
        "redundancy and high storage throughput. This network is used for node communications with compute, "
        "storage, in-band management, and end-user connections' [V]; the HGX B300, RTX PRO and NVL72 Enterprise "
        "RAs say the same with 400, 200 and 400 Gb/s ports [V]"
    ),
    "ERA-OOB": (
        "NVIDIA Enterprise RA (HGX B300, RTX PRO AI Factory), Networking Physical Topologies: three physical "
        "fabrics, 'Compute (Node East/West) Network, CPU Converged (Node North/South) Network, Out-of-Band "
        "Management Network' [V]"
    ),
    "SN2201-UPLINKS": (
        "SN2201: 48 x RJ45 1 GbE plus 4 x QSFP28 100 GbE uplinks (shared fabric reference section 3, uplinks [S])"
    ),
    "SPOD-H100-OOB-UPLINKS": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A, Table 8 (cables, 4 SU, 127 nodes), OOB Ethernet "
        "cables: '100 Gbps ... Two uplinks per OOB to in-band', 16 of 980-9I13N-00C030 for the 8 SN2201 of Table 7 "
        "[V]; the DGX BasePOD RA V5 Table 4.2 lists '100GbE AOC 10 m, OOB to in-band' 2 and 4 for its 1 and 2 "
        "SN2201 (4 and 8 nodes) [S: a transcription of the table]; the in-band network uses SN4600C switches and 'the "
        "OOB network is connected to the in-band network' (same RA, In-Band Management Network) [V]"
    ),
    "SPOD-H100-INBAND-CORE": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A: Table 7 gives 8 in-band management SN4600C for the "
        "127 nodes; Table 8 gives the in-band cables: 254 to the DGX systems, 24 leaf-core and 6 ISL; six leaves "
        "(three MLAG pairs, two ISL each) and a core of two, each leaf with four uplinks, two to each core switch "
        "[D: from the two tables]; redundancy at every tier, as each node's two in-band ports go to two switches "
        "(ERA-HGX-CONVERGED) [V]"
    ),
    "SPOD-H100-COMPONENTS": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A, Table 7 'Major components of the 4 SU, 127-node "
        "DGX SuperPOD': 38 racks, 127 DGX H100, 4 UFM appliances, 4 BCM management servers, 8 in-band management "
        "SN4600C, 8 OOB management SN2201, 48 compute fabric QM9700, 16 storage fabric QM9700, 96 + 12 rack PDUs; "
        "Table 8 cables: in-band 254 x 200 Gbps to the DGX systems, OOB 1 Gbps 127 DGX, 64 InfiniBand switches, 8 "
        "management/UFM nodes, 8 in-band switches, 2 UFM back-to-back, 108 PDUs; storage InfiniBand 254 DGX system "
        "transceivers; 'Count and cable type required depend on specific storage selected' [V]. Storage fabric: "
        "'The storage devices are connected at a 1:1 port to uplink ratio. The DGX H100 system connections are "
        "slightly oversubscribed with a ratio near 4:3' [V]"
    ),
    "SPOD-H100-STORAGE-PORTS": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A, Table 8, storage InfiniBand cables: 494 'NDR Cables, "
        "400 Gbps' for 'DGX H100 systems to leaf, leaf to spine' and 48 'NDR Cables, 2x 200 Gbps' to 'Storage' "
        "(980-9I117-00H030), beside 254 DGX system transceivers [V, read from the RA's PDF text]: 48 storage leaf "
        "ports for the 254 storage ports of its 127 nodes; 494 = 254 node links + 240 leaf-spine links = 192 (the "
        "254 at 4:3, eight leaves of 32 down and 24 up) + 48 (the storage ports at the RA's 1:1) [D]"
    ),
    "SPOD-H100-OOB-CENTRAL": (
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A: Table 7 gives 8 OOB management SN2201 for 38 racks "
        "(not one per rack); Table 8's 1 Gbps OOB cables are 127 DGX + 64 InfiniBand switches + 8 management/UFM "
        "nodes + 8 in-band switches + 2 UFM back-to-back + 108 PDUs = 317 ports, 7 switches of 48 in one pool, 8 "
        "as 2 for each of its 4 SU (80 ports a unit) [D: from the two tables]; the DGX SuperPOD B300 RA shows "
        "'an example management rack configuration with networking switches, management servers, storage arrays, "
        "and UFM appliances' (DGX SuperPOD Architecture, Figure 3) [V]; the DGX SuperPOD B200 RA's management rack "
        "figure holds all 16 SN2201 in one rack [S]"
    ),
}
