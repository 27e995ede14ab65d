"""Regenerate src/tau_ai/catalog/generated.json from the public npm package @mariozechner/pi-ai.

Usage: ``python scripts/regenerate_catalog.py [--version 0.73.1] [--from DIR]``.

The package ships a generated table of model facts (ids, names, windows, prices, the wire API
each model uses). This script reads that table and writes it again in Tau's own compact shape;
it copies facts, not code. ``--from`` reads an unpacked package directory (the one holding
``dist/``); without it the package is fetched with ``npm pack`` into a temporary directory.
Node evaluates the facts module (it is JavaScript data), so ``node`` and ``npm`` must be on PATH.

Rules:
* Every provider is kept, the subscription logins' too (Pi's Copilot and Codex models are static
  facts in the package, not a list fetched at login); hand-written rows beside the login code
  win, and lend their headers and compat to the generated models of the same API. Providers
  in ``SKIPPED`` (Cloud Code Assist logins whose models Tau hand-writes entirely) are left out.
* Each provider keeps its most common (api, base URL) pair as its default; a model that differs
  carries its own ``api``/``base_url`` in its extras, as it does ``compat`` and ``headers``.
* Hand-written rows in src/tau_ai/catalog/*.py stay authoritative at load time (catalog/__init__).
* ``pi_counts`` records how many models each provider had in the source, for the coverage test.

Review the diff of generated.json before committing: it is the catalogue users see.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

PACKAGE = "@mariozechner/pi-ai"
DEFAULT_VERSION = "0.73.1"
OUT = Path(__file__).resolve().parent.parent / "src" / "tau_ai" / "catalog" / "generated.json"
# Cloud Code Assist logins: their rows are hand-written beside the login code.
SKIPPED = frozenset({"google-gemini-cli", "google-antigravity"})
_DUMP = (
    "import(process.argv[1]).then(m => process.stdout.write(JSON.stringify(m.MODELS)))"
    ".catch(e => { console.error(String(e)); process.exit(1); })"
)


def fetch(version: str, into: Path) -> Path:
    """``npm pack`` the package into ``into`` and unpack it; the package directory."""
    done = subprocess.run(
        ["npm", "pack", f"{PACKAGE}@{version}", "--silent"],
        cwd=into,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"regenerate_catalog: npm pack failed: {done.stderr.strip()}")
    tarball = into / done.stdout.strip().splitlines()[-1]
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")
    return into / "package"


def read_models(package_dir: Path) -> tuple[str, dict[str, dict[str, dict[str, Any]]]]:
    """The package's version and its table of models (provider -> id -> facts)."""
    facts = package_dir / "dist" / "models.generated.js"
    if not facts.is_file():
        raise SystemExit(f"regenerate_catalog: no {facts}")
    version = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))["version"]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", _DUMP, facts.resolve().as_uri()],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"regenerate_catalog: node could not read {facts}: {done.stderr.strip()}")
    models: dict[str, dict[str, dict[str, Any]]] = json.loads(done.stdout)
    return version, models


def _price(value: Any) -> float | int:
    """A price per million tokens; the source marks "varies by route" with a negative number,
    which Tau records as 0 (unknown) so that cost sums never go below zero."""
    number = max(float(value or 0), 0.0)
    return int(number) if number.is_integer() else number


def row(facts: dict[str, Any], default_api: str, default_url: str) -> list[Any]:
    """One model in Tau's row shape: id, name, reasoning, images, context, max output,
    input/output/cache-read/cache-write prices, then (only when needed) an extras object."""
    cost = facts.get("cost") or {}
    out: list[Any] = [
        facts["id"],
        facts.get("name") or facts["id"],
        bool(facts.get("reasoning")),
        "image" in (facts.get("input") or ()),
        int(facts["contextWindow"]),
        # A reply cannot outgrow the window; a few source rows say otherwise.
        min(int(facts["maxTokens"]), int(facts["contextWindow"])),
        _price(cost.get("input")),
        _price(cost.get("output")),
        _price(cost.get("cacheRead")),
        _price(cost.get("cacheWrite")),
    ]
    extras: dict[str, Any] = {}
    if facts["api"] != default_api:
        extras["api"] = facts["api"]
    if facts.get("baseUrl", "") != default_url:
        extras["base_url"] = facts.get("baseUrl", "")
    for key in ("compat", "headers"):
        if facts.get(key):
            extras[key] = facts[key]
    if extras:
        out.append(extras)
    return out


def convert(version: str, models: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    providers: dict[str, Any] = {}
    for name in sorted(models):
        if name in SKIPPED:
            continue
        entries = [models[name][model_id] for model_id in sorted(models[name])]
        (api, url), _ = Counter((m["api"], m.get("baseUrl", "")) for m in entries).most_common(1)[0]
        providers[name] = {"api": api, "base_url": url, "models": [row(m, api, url) for m in entries]}
    return {
        "source": f"{PACKAGE}@{version}",
        "pi_counts": {name: len(models[name]) for name in sorted(models)},
        "skipped": sorted(SKIPPED & set(models)),
        "providers": providers,
    }


def render(catalogue: dict[str, Any]) -> str:
    """One provider header per line and one model per line: small, and diffs stay readable."""
    lines = ["{"]
    for key in ("source", "pi_counts", "skipped"):
        lines.append(f"{json.dumps(key)}: {json.dumps(catalogue[key])},")
    lines.append('"providers": {')
    names = list(catalogue["providers"])
    for at, name in enumerate(names):
        provider = catalogue["providers"][name]
        head = {"api": provider["api"], "base_url": provider["base_url"]}
        lines.append(f"{json.dumps(name)}: {json.dumps(head)[:-1]}, " + '"models": [')
        rows = [json.dumps(r, ensure_ascii=False) for r in provider["models"]]
        lines.extend(f"  {text}," for text in rows[:-1])
        lines.append(f"  {rows[-1]}")
        lines.append("]}" + ("," if at < len(names) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=DEFAULT_VERSION, help=f"{PACKAGE} version to fetch")
    parser.add_argument("--from", dest="source", type=Path, help="an unpacked package directory")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        package_dir = args.source or fetch(args.version, Path(tmp))
        version, models = read_models(package_dir)
    catalogue = convert(version, models)
    text = render(catalogue)
    json.loads(text)  # the hand-rolled layout must still be JSON
    tmp_out = args.out.with_suffix(".json.tmp")
    tmp_out.write_text(text, encoding="utf-8")
    tmp_out.replace(args.out)
    kept = sum(len(p["models"]) for p in catalogue["providers"].values())
    print(f"{args.out}: {kept} models from {len(catalogue['providers'])} providers ({catalogue['source']})")
    print("now run python scripts/regenerate_list_table.py (the --list-models --all table)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
