"""Random-playout speed of every game: ``python benchmarks/engine.py [--seconds S] [--json F]``."""

from __future__ import annotations

import argparse
import json

from specs import GAMES

from tapete.bench import run

SPECS = ["pocha(players=4, schedule=9)", *GAMES]  # the first: Pocha's benchmark hand


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--json")
    args = parser.parse_args()
    results = []
    print("| spec | matches/s | deals/s | decisions/s | playout peak | RSS |")
    print("|---|---|---|---|---|---|")
    for spec in SPECS:
        try:
            r = run(spec, seconds=args.seconds)
        except ValueError as exc:  # a game not registered in this checkout
            print(f"| {spec} | {exc} | | | | |")
            continue
        results.append(r.to_json())
        print(
            f"| `{r.spec}` | {r.matches_per_second:,.0f} | {r.deals_per_second:,.0f} | "
            f"{r.decisions_per_second:,.0f} | {r.playout_peak_bytes / 1024:,.0f} KiB | "
            f"{r.max_rss_bytes / 2**20:,.0f} MiB |",
            flush=True,
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
