"""PKCE values are what RFC 7636 says they are."""

from __future__ import annotations

from tau_coding.config.oauth.pkce import Pkce, challenge_for


def test_challenge_matches_the_rfc_7636_example() -> None:
    assert (
        challenge_for("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    )


def test_each_login_gets_a_new_unguessable_verifier_and_state() -> None:
    first, second = Pkce.new(), Pkce.new()
    assert first.verifier != second.verifier and first.state != second.state
    assert 43 <= len(first.verifier) <= 128 and "=" not in first.verifier
    assert first.challenge == challenge_for(first.verifier)
