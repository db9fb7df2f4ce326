"""A JSON document read a member and an element at a time: evalbars.io.logs._json_stream,
checked against json.loads of the whole document (the independent reading)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalbars.core.errors import EvalbarsError
from evalbars.io.logs import _json_stream, _zip

TRICKY = {
    "eval": {"task": "t [x] {y}", "quote": 'say "]" and \\"{\\"', "unicode": "é ✓ \u2028"},
    "samples": [
        {"id": 1, "text": "ends with a backslash \\", "nested": [[1, [2, {"a": "]"}]], {}]},
        {"id": 2, "empty": [], "obj": {}, "n": -1.5e-3, "t": True, "f": False, "z": None},
        [], {}, "a string element", 7, None,
    ],
    "after": {"reductions": [1, 2]},
}


@pytest.mark.parametrize("indent", [None, 2])
def test_members_and_elements_equal_the_whole_parse(indent):
    raw = json.dumps(TRICKY, indent=indent, ensure_ascii=False).encode()
    head, samples = _json_stream.members(raw, "samples", "x.json")
    assert head == {k: v for k, v in TRICKY.items() if k != "samples"}
    assert [element for _, element in samples] == TRICKY["samples"]


def test_no_such_array_and_empty_array():
    head, samples = _json_stream.members(b'{"a": 1}', "samples", "x.json")
    assert head == {"a": 1} and list(samples) == []
    head, samples = _json_stream.members(b'{"samples": [ ], "b": [1]}', "samples", "x.json")
    assert head == {"b": [1]} and list(samples) == []


def test_outline_cuts_each_large_part_to_its_first_element():
    raw = json.dumps(TRICKY).encode()
    assert _json_stream.outline(raw, cap=10_000) == TRICKY  # small enough: whole
    outline = _json_stream.outline(raw, cap=20)
    assert outline == {"eval": TRICKY["eval"], "samples": [TRICKY["samples"][0]]}
    assert isinstance(outline, _json_stream.Outline)
    assert isinstance(outline["samples"], _json_stream.OutlineList)
    assert _json_stream.outline(b"{oops", cap=1) is None


@pytest.mark.parametrize("raw, message", [
    (b'[1, 2]', "does not hold a JSON object"),
    (b'{"samples": [{"id": 1}, {"id": 2}', "the document is cut short at line 1"),
    (b'{"samples": [{"id": 1}, {"id": 2', "samples[1] is cut short"),
    (b'{"samples": [{"id": 1} {"id": 2}]}', "unexpected text at line 1"),
    (b'{"samples": [{"id": 1,}]}', "Expecting property name"),
    (b'{"a": 1 "b": 2}', "unexpected text"),
    (b'{"a": \n\n [1, 2}', "at line 3"),
    (b'\xff\xfe\x00', "is not UTF-8 JSON text"),
])
def test_errors_name_the_file_and_line(raw, message):
    with pytest.raises(EvalbarsError) as info:
        head, samples = _json_stream.members(raw, "samples", "x.json")
        list(samples)
    assert "'x.json'" in str(info.value) and message in str(info.value)


def test_an_element_past_the_value_cap_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setattr(_zip, "MAX_ENTRY_VALUES", 100)
    commas = json.dumps({"samples": [{"id": 1}, list(range(200))]}).encode()  # commas only
    brackets = json.dumps({"samples": [{"id": 1}, [[]] * 200]}).encode()  # stops the scan
    for raw in (commas, brackets):
        with pytest.raises(EvalbarsError, match=r"samples\[1\] of 'x.json' holds more than "
                                                r"100 JSON values"):
            list(_json_stream.members(raw, "samples", "x.json")[1])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab "\\[]{},:\n\té✓'), max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(alphabet=st.sampled_from('ab"[]{}\\'), max_size=4), inner,
                      max_size=4),
    max_leaves=16)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(head=st.dictionaries(st.sampled_from(["eval", "version", "plan", "stats"]), JSON),
       elements=st.lists(JSON, max_size=6), indent=st.sampled_from([None, 1]),
       first=st.booleans())
def test_any_document_reads_as_json_loads_reads_it(head, elements, indent, first):
    # Strings full of brackets, quotes and backslashes, any nesting, the array first or
    # last: a member and an element at a time, the same values as the whole parse.
    doc = {"samples": elements, **head} if first else {**head, "samples": elements}
    raw = json.dumps(doc, indent=indent, ensure_ascii=False).encode()
    got_head, got = _json_stream.members(raw, "samples", "x.json")
    assert got_head == head and [element for _, element in got] == elements
    assert _json_stream.outline(raw, cap=10 ** 6) == json.loads(raw)


def test_caps_on_bytes_and_what_parsing_cannot_take(monkeypatch):
    raw = json.dumps({"plan": "x" * 500, "samples": [{"id": 1, "text": "y" * 500}]}).encode()
    monkeypatch.setattr(_zip, "MAX_METADATA_BYTES", 100)
    with pytest.raises(EvalbarsError, match="member 'plan' of 'x.json' is larger than 100 "):
        _json_stream.members(raw, "samples", "x.json")
    monkeypatch.setattr(_zip, "MAX_METADATA_BYTES", 10_000)
    monkeypatch.setattr(_zip, "MAX_ENTRY_BYTES", 100)
    with pytest.raises(EvalbarsError, match=r"samples\[0\] of 'x.json' is larger than 100 "):
        list(_json_stream.members(raw, "samples", "x.json")[1])
    monkeypatch.setattr(_zip, "MAX_TOTAL_BYTES", 100)
    with pytest.raises(EvalbarsError, match="is larger than 100 bytes"):
        _json_stream.members(raw, "samples", "x.json")


def test_deep_nesting_and_long_numbers_are_errors_not_tracebacks():
    deep = b'{"samples": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"
    with pytest.raises(EvalbarsError, match="nests JSON arrays or objects too deeply"):
        list(_json_stream.members(deep, "samples", "x.json")[1])
    long = b'{"samples": [' + b"1" * 5000 + b"]}"
    with pytest.raises(EvalbarsError, match="holds a number too long to read"):
        list(_json_stream.members(long, "samples", "x.json")[1])
    assert _json_stream.outline(deep, cap=10) is None  # too deep to outline: not recognised
    with pytest.raises(EvalbarsError, match="unexpected text"):
        _json_stream.members(b'{"a": tru}', "samples", "x.json")
    with pytest.raises(EvalbarsError, match="unexpected text"):
        _json_stream.members(b'{1: 2}', "samples", "x.json")


def test_records_of_a_document_that_is_not_an_object(tmp_path):
    from evalbars.io.logs import _json
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    with pytest.raises(EvalbarsError, match="does not hold a JSON object"):
        _json.records(str(path), "samples")
    head, samples = _json.records(str(path), "samples", {"a": 1, "samples": [5]})
    assert head == {"a": 1} and list(samples) == [(0, 5)]
