"""Cloud sign-in tokens are fetched again before they expire and after a refusal."""

from __future__ import annotations

from tau_coding.config.cloud_token import MARGIN, REREAD, RefreshingKey, Token


def test_a_token_is_kept_until_it_nears_expiry_then_fetched_again() -> None:
    now = [1000.0]
    fetched: list[int] = []

    def fetch() -> Token:
        fetched.append(1)
        return Token(f"Bearer t{len(fetched)}", now[0] + MARGIN + 60)

    key = RefreshingKey(fetch, clock=lambda: now[0])
    assert key.get() == "Bearer t1" and key.get() == "Bearer t1"
    now[0] += 59
    assert key.get() == "Bearer t1"
    now[0] += 1  # within the margin of its expiry: a request must not set out with it
    assert key.get() == "Bearer t2" and len(fetched) == 2


def test_invalidate_forces_a_new_fetch_and_unknown_expiry_is_kept() -> None:
    values = iter(["Bearer a", "Bearer b"])
    key = RefreshingKey(lambda: Token(next(values)))
    assert key.get() == "Bearer a" and key.get() == "Bearer a"
    key.invalidate()
    assert key.get() == "Bearer b"


def test_a_token_file_is_read_again_every_time_and_none_means_not_set_up() -> None:
    reads: list[int] = []

    def fetch() -> Token:
        reads.append(1)
        return Token(f"Bearer {len(reads)}", REREAD)

    key = RefreshingKey(fetch)
    assert [key.get(), key.get()] == ["Bearer 1", "Bearer 2"]
    assert RefreshingKey(lambda: None).get() is None
