"""gpu_acceptance: the one answer the wizard's GPU choices and the GPU_NOT_ACCEPTED rule share."""

from dataclasses import replace

from engines.node.gpu import gpu_acceptance

from .parts import HGX_B200, HGX_H200, L40S, SYS_421GE_TNRT3, SYS_821GE_TNHR


def test_complete_list_rejects_what_it_does_not_name():
    # hardware.md §1a: SYS-821GE-TNHR takes HGX H100 or HGX H200 8-GPU (a definitive baseboard socket).
    server = replace(SYS_821GE_TNHR, accepts_complete=True)
    assert gpu_acceptance(server, HGX_H200) == "accepted"
    assert gpu_acceptance(server, HGX_B200) == "rejected"


def test_partial_list_leaves_other_cards_unverified_but_rejects_boards():
    # hardware.md §1a: SYS-421GE-TNRT3 lists "H100, L40S, A100, RTX 6000 Ada": a partial list of PCIe cards.
    server = replace(SYS_421GE_TNRT3, accepts=frozenset({"L40S"}), accepts_complete=False)
    assert gpu_acceptance(server, L40S) == "accepted"
    assert gpu_acceptance(server, replace(L40S, part_number="RTX-PRO-6000-SE")) == "unverified"
    assert gpu_acceptance(server, HGX_H200) == "rejected"  # a baseboard needs an HGX server


def test_no_list_is_unknown():
    assert gpu_acceptance(replace(SYS_421GE_TNRT3, accepts=frozenset()), L40S) == "unknown"
