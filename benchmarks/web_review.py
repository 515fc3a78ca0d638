"""How long the web app takes to review a finished match, as a person sees it.

    python benchmarks/web_review.py                               # 1 deal, then 22 deals
    python benchmarks/web_review.py --spec "pocha(players=4)" --iterations 200

Starts ``tapete serve`` in a subprocess on a free loopback port (its defaults: bot processes one
per core, the review lane one process below them, an SQLite file in a temporary folder), plays
each match with four bots over HTTP and a WebSocket, then asks for its review
(``POST /api/tables/CODE/reviews/0``) and follows it as the browser does until it is done.
Reports per match the decisions reviewed (every seat's), the wall time from the request to the
review, and the time of a second request (served from the store).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.sync.client import connect

from tapete.game import parse_spec

SPECS = ("pocha(players=4, schedule=[10])", "pocha(players=4)")
LEVELS = ("easy", "medium", "random", "easy")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, method: str = "GET", body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def play(base: str, spec: str, seed: int) -> str:
    """A match of four bots played to its end; its table's code."""
    game, values = parse_spec(spec)
    params = {
        k: str(list(v)) if isinstance(v, (list, tuple)) else v
        for k, v in values.items()
        if k != "players"
    }
    made = call(
        f"{base}/api/tables",
        "POST",
        {
            "game": game,
            "params": params,
            "seats": [{"kind": "bot", "level": level} for level in LEVELS],
            "seed": seed,
            "bot_delay": 0,
            "public": False,
        },
    )
    ws_url = base.replace("http", "ws", 1) + "/ws"
    with connect(ws_url, max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello", "code": made["code"], "token": made["token"]}))
        ws.send(json.dumps({"type": "start"}))
        while True:
            message = json.loads(ws.recv(timeout=600))
            if message["type"] == "view" and message.get("result") is not None:
                return str(made["code"])


def review(base: str, code: str) -> dict[str, Any]:
    url = f"{base}/api/tables/{code}/reviews/0"
    began = time.monotonic()
    got = call(url, "POST", {})
    while got["status"] == "running":
        time.sleep(0.2)
        got = call(url)
    took = time.monotonic() - began
    if got["status"] != "done":
        raise SystemExit(f"the review of {code} ended {got}")
    again = time.monotonic()
    second = call(url, "POST", {})
    return {
        "decisions": len(got["review"]["decisions"]),
        "deals": len(got["review"]["returns"]),
        "seconds": round(took, 2),
        "second_request_ms": round((time.monotonic() - again) * 1000, 1),
        "kept": second["status"] == "done",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", action="append", help="a Pocha match to review (repeatable)")
    parser.add_argument("--iterations", type=int, default=200, help="--review-iterations")
    parser.add_argument("--review-processes", type=int, default=1, help="the review lane's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tapete-review-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(folder, "server.log"), "wb")  # noqa: SIM115
    command = [
        *(sys.executable, "-m", "tapete.cli", "serve", "--port", str(port)),
        *("--db", f"sqlite:///{folder}/tapete.db"),
        *("--review-iterations", str(args.iterations), "--rate-limit", "off"),
        *("--review-processes", str(args.review_processes)),
    ]
    server = subprocess.Popen(command, stdout=log, stderr=log)
    results = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                call(f"{base}/api/health")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        for spec in args.spec or SPECS:
            code = play(base, spec, args.seed)
            result = {"spec": spec, "iterations": args.iterations, **review(base, code)}
            print(json.dumps(result), flush=True)
            results.append(result)
    finally:
        server.terminate()
        server.wait(30)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
