"""Verifier rules that no IR text can reach, so FileCheck cannot test them."""

import pytest
from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.dw_tiling import DwTiling


def test_dw_tiling_attr_with_wrong_number_of_values():
    # The parser always fills every field (defaults included), so only a builder can get this
    # wrong; the count check runs before DwTiling.errors, so it does not need the tiling branch.
    n = len(DwTiling.field_names())
    with pytest.raises(VerifyException, match=f"dw_tiling needs {n} values, got 3"):
        DwTilingAttr.new([ArrayAttr([IntAttr(1), IntAttr(2), IntAttr(3)])])
