"""The one-line error messages of the command-line tools.

xDSL's exceptions carry more than their message: a parse error prints the source line and a
caret under it, a verifier or interpreter error has the whole printed module attached. A tool
reports one line, ``<tool>: error: <what>``, built from these.
"""

from xdsl.utils.exceptions import ParseError


def first_line(e: BaseException) -> str:
    """The message of ``e`` without what xDSL appends (the printed module, source context)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def describe_parse_error(e: ParseError) -> str:
    """``file:line:col: message`` of a parse error, on one line (xDSL prints four)."""
    message = (e.msg.strip().splitlines() or ["parse error"])[0]
    return f"{e.span.get_location()}: {message}"
