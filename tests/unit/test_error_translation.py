"""The adapter's refusals become our codes, and every code answers in its tool's shape."""

from __future__ import annotations

import json

import pytest

from pyinspect.errors import (
    ErrorCode,
    EvaluationError,
    NotPausedError,
    RequestFailedError,
    UnknownFrameError,
    UnknownThreadError,
)
from pyinspect.server.errors import error_answer, error_result, evaluate_error_answer
from pyinspect.session.stop_reader import translate_errors


def failed(message: str) -> RequestFailedError:
    return RequestFailedError(message, command="stackTrace")


@pytest.mark.parametrize(("message", "raised"), [
    ("Process is not stopped", NotPausedError),
    ("the process is running", NotPausedError),
    ("Unknown thread 12", UnknownThreadError),
    ("unknown frame 3", UnknownFrameError),
])
def test_adapter_messages_map_onto_our_codes(message: str, raised: type[Exception]) -> None:
    with pytest.raises(raised), translate_errors():
        raise failed(message)


def test_other_refusals_pass_through_unchanged() -> None:
    original = failed("something else")
    with pytest.raises(RequestFailedError) as caught, translate_errors():
        raise original
    assert caught.value is original


def test_the_common_envelope_and_evaluates_own_shape() -> None:
    assert error_answer(NotPausedError("run")) == {"success": False,
                                                  "error": {"code": "NOT_PAUSED", "message": "run"}}
    thrown = EvaluationError("boom", exception_type="System.NullReferenceException")
    assert evaluate_error_answer(thrown) == {"error": True, "message": "boom",
                                             "type": "System.NullReferenceException", "code": str(thrown.code)}
    assert evaluate_error_answer(NotPausedError("run"))["type"] == ErrorCode.NOT_PAUSED


def test_an_error_result_carries_no_structured_content() -> None:
    result = error_result(error_answer(NotPausedError("run")))
    assert result.is_error and result.structured_content is None
    assert json.loads(result.content[0].text)["error"]["code"] == "NOT_PAUSED"  # type: ignore[union-attr]
