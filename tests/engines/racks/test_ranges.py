"""Rack names written as ranges: every name comes back, in order, from the ranges of the rows and the racks."""

from hypothesis import given
from hypothesis import strategies as st

from engines.racks.ranges import expand_names, name_ranges


def test_a_row_of_racks_is_one_range():
    names = [f"R07-{s:02d}" for s in range(1, 34)]
    assert name_ranges(names) == ["R07-01..R07-33"]
    assert expand_names(["R07-01..R07-33"]) == names


def test_a_row_whose_numbers_outgrow_their_width_is_two_ranges():
    """A network row of 130 racks: R782-99 is followed by R782-100, which a range of two-digit numbers cannot hold."""
    names = [f"R782-{s:02d}" for s in range(1, 131)]
    assert name_ranges(names) == ["R782-01..R782-99", "R782-100..R782-130"]
    assert expand_names(name_ranges(names)) == names


def test_gaps_other_prefixes_and_widths_start_a_new_range():
    names = ["R01-01", "R01-02", "R01-04", "R02-05", "R02-6", "R02-07", "X", "R1564-09", "R1564-10"]
    assert name_ranges(names) == ["R01-01..R01-02", "R01-04", "R02-05", "R02-6", "R02-07", "X", "R1564-09..R1564-10"]
    assert expand_names(name_ranges(names)) == names


def test_a_plain_list_of_names_reads_as_itself():
    """Results stored before ranges named every rack; a name that merely holds ".." is a name."""
    assert expand_names(["R01-01", "R01-02", "a..b", "R1..S2", "R01..R1"]) == [
        "R01-01",
        "R01-02",
        "a..b",
        "R1..S2",
        "R01..R1",
    ]


names = st.lists(
    st.builds(
        lambda p, n, w: f"{p}{n:0{w}d}",
        st.sampled_from(["R01-", "R02-", "R"]),
        st.integers(0, 120),
        st.sampled_from([2, 3]),
    ),
    max_size=60,
)


@given(names)
def test_ranges_give_back_every_name_in_order(given_names):
    assert expand_names(name_ranges(given_names)) == given_names
