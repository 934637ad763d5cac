"""What a webhook relay commits (streams/relay_offsets.py): a restart skips every alert an
earlier run had done by its last commit, and never one it had not (issue 22, point 4: a
restart posts nothing a receiver already answered 2xx to, and loses nothing)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from streams.relay_offsets import METADATA_MAX, Offsets, Skips, format_done, parse_done

P = "partition"


def run(
    offsets: Offsets,
    read: range,
    order: list[int],
    commit_after: set[int],
    last: tuple[int, str] = (0, ""),
) -> tuple[tuple[int, str], set[int]]:
    """Take the offsets of ``read`` (skipping what the commit resumed from says is done),
    finish the others in ``order`` (those of it that were read), committing after the steps
    in ``commit_after``. Returns the last commit (``last``, the broker's, if none) and the
    offsets done by then."""
    done_by_commit: set[int] = set()
    done: set[int] = set()
    for o in read:
        offsets.take(P, o)
        if offsets.skipped(P, o):
            offsets.done(P, o)
            done.add(o)
    for step, o in enumerate(x for x in order if x in read and x not in done):
        offsets.done(P, o)
        done.add(o)
        if step in commit_after:
            due = offsets.due()
            offsets.committed_to(due)
            last = due.get(P, last)
            done_by_commit = set(done)
    return last, done_by_commit


def restart(last: tuple[int, str]) -> Offsets:
    offsets = Offsets()
    offsets.resume(P, parse_done(*last))
    return offsets


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_restart_skips_what_was_done_by_the_last_commit_and_nothing_else(
    data: st.DataObject,
) -> None:
    n = data.draw(st.integers(1, 120))
    order = data.draw(st.permutations(range(n)))
    cut = data.draw(st.integers(0, n))  # the run stops (is killed) after this many done
    commits = data.draw(st.sets(st.integers(0, n)))
    last, done = run(Offsets(), range(n), list(order[:cut]), commits)
    committed, metadata = last
    skips = parse_done(committed, metadata)
    later = restart(last)
    for o in range(n):
        if o < committed:
            assert o in done, f"{o} committed, not done"
            continue
        if o not in done:
            assert not later.skipped(P, o), f"{o} was not done, and would be skipped"
        else:
            assert later.skipped(P, o) or o == committed, f"{o} was done, posted again"
    assert all(o in done for o in range(committed, n) if o in skips)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_what_an_earlier_run_did_survives_a_second_restart(data: st.DataObject) -> None:
    """A restarted relay commits before it has read as far as the first run had got: its
    commits keep saying what the first run did beyond, so a third run skips it too."""
    n = data.draw(st.integers(2, 80))
    order = list(data.draw(st.permutations(range(n))))
    cut = data.draw(st.integers(0, n))
    last, done = run(Offsets(), range(n), order[:cut], set(range(n + 1)))
    second = restart(last)
    reach = data.draw(st.integers(last[0], n))  # how far the second run reads
    still = data.draw(st.permutations(range(n)))
    last2, done2 = run(second, range(last[0], reach), list(still), set(range(n + 1)), last)
    third = restart(last2)
    for o in range(last2[0], n):
        if o in done or o in done2:
            assert third.skipped(P, o) or o == last2[0], f"{o} done, posted again"
        else:
            assert not third.skipped(P, o), f"{o} never done, and would be skipped"


def test_a_long_list_comes_within_the_limit_and_claims_less_not_more() -> None:
    waiting = set(range(10_000, 20_000, 3))  # a third of 10,000 offsets still open
    text = format_done(10_000, 20_000, waiting)
    assert 0 < len(text) <= METADATA_MAX
    skips = parse_done(10_000, text)
    assert not any(o in skips for o in waiting)
    assert 10_001 in skips  # the horizon came nearer
    assert 19_999 not in skips
    assert skips.horizon in waiting


def test_a_commit_with_nothing_beyond_says_nothing() -> None:
    offsets = Offsets()
    for o in range(5):
        offsets.take(P, o)
        offsets.done(P, o)
    assert offsets.due() == {P: (5, "")}
    assert parse_done(5, "") == Skips(5, 5)


def test_the_committed_offset_itself_is_never_skipped() -> None:
    """The committed offset is the first not done; a horizon past it never makes it done."""
    offsets = Offsets()
    for o in range(4):
        offsets.take(P, o)
    offsets.done(P, 1)
    offsets.done(P, 3)
    ((committed, metadata),) = offsets.due().values()
    assert committed == 0
    later = restart((committed, metadata))
    assert [o for o in range(4) if later.skipped(P, o)] == [1, 3]


def test_metadata_of_another_writer_or_version_is_ignored() -> None:
    for text in ("", "v9 3 1", "d1 x 1", "d1 -4 ", "d1 3 1-x", None):
        assert parse_done(7, text) == Skips(7, 7)
