"""The ``hw=`` option every pass shares: a hardware name, loaded or reported as a pass failure."""

from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.hw import HwConfig, UnknownHardwareError, load


def load_hw(name: str) -> HwConfig:
    """The description of ``name``; an unknown name fails the pass with the known names."""
    try:
        return load(name)
    except UnknownHardwareError as e:
        raise PassFailedException(str(e)) from None
