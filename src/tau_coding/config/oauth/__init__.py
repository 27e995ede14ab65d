"""Subscription logins: OAuth 2.0 (authorization code + PKCE, device code) kept in auth.json.

``providers`` names what each provider's login needs (endpoints, client id, scopes, headers);
``flows`` runs a login or a refresh against them; ``store`` keeps the tokens in auth.json and
hands out a fresh access token. Imported only when a login is used or auth.json holds one.
"""
