"""What every pass shares about its target: the ``hw=`` option, loaded or reported as a pass
failure, and the one rule for how many of the target's cores a kernel may use."""

from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.hw import HwConfig, UnknownHardwareError, load


def load_hw(hw_name: str) -> HwConfig:
    """The description of ``hw_name``; an unknown name fails the pass with the known names."""
    try:
        return load(hw_name)
    except UnknownHardwareError as e:
        raise PassFailedException(str(e)) from None


def cores_error(cores: int, hw: HwConfig) -> str | None:
    """Why ``cores`` AI cores cannot be used on ``hw`` (None: they can). The tiler's text option
    and the typed compile options (``lowering/options.py``) both check through this."""
    if not 1 <= cores <= hw.aic_count:
        return f"cores must be in [1, {hw.aic_count}] for {hw.name}, got {cores}"
    return None
