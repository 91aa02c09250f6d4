"""Type stubs for the compiled LIBSVM-format parser svmx.datasets._svmlight_reader."""

from typing import Any

ERROR_MESSAGES: dict[int, str]

def parse_svmlight(content: bytes) -> dict[str, Any]: ...
