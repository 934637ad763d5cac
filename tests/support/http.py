"""Reading the worker's web views over HTTP."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            body = answer.read()
            kind = answer.headers.get_content_type()
            return answer.status, json.loads(body) if kind == "application/json" else body
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
    except OSError:
        return 0, None
