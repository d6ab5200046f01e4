"""The heap questions' row limits, one rule for every face: a count is 1 to its bound or None
(every row), and the cut says whether rows were left out."""

from __future__ import annotations

import pytest

from pyinspect.errors import InvalidParameterError
from pyinspect.session.row_limits import MAX_PATHS, MAX_ROWS, check_count, first_rows


@pytest.mark.parametrize("value", [1, MAX_ROWS, None])
def test_a_count_within_its_bound_or_none_is_taken(value: int | None) -> None:
    assert check_count("top", value) == value


@pytest.mark.parametrize(("value", "limit"), [(0, MAX_ROWS), (-1, MAX_ROWS), (MAX_ROWS + 1, MAX_ROWS),
                                              (MAX_PATHS + 1, MAX_PATHS)])
def test_a_count_out_of_its_bound_is_refused_naming_the_bound(value: int, limit: int) -> None:
    with pytest.raises(InvalidParameterError, match=f"top must be 1-{limit}, got {value}"):
        check_count("top", value, limit)


def test_a_person_passes_no_bound_and_may_ask_for_any_number_of_rows() -> None:
    assert check_count("top", MAX_ROWS * 10, None) == MAX_ROWS * 10
    with pytest.raises(InvalidParameterError, match="top must be at least 1, got 0"):
        check_count("top", 0, None)


def test_the_cut_keeps_the_first_rows_and_says_whether_any_were_left_out() -> None:
    rows = ["a", "b", "c"]
    assert first_rows(rows, 2) == (("a", "b"), True)
    assert first_rows(rows, 3) == (("a", "b", "c"), False)
    assert first_rows(rows, None) == (("a", "b", "c"), False)
    assert first_rows([], 5) == ((), False)
