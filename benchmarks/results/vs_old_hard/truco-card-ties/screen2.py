"""Head to head: hard with truco.VARIANT=v against hard (VARIANT='') in duplicate groups, two
groups a chunk (seed base*1000+chunk), one JSON line a chunk, so a run can stop any time."""

import json
import sys

from tapete import arena

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from screen import Variant

if __name__ == "__main__":
    variant, budget, chunks, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    spec = "truco(players=4)"
    with open(f"screen2-{variant}-{budget}-{seed}.jsonl", "a") as out:
        for c in range(chunks):
            result = arena.run(
                spec,
                [Variant(variant, budget), Variant("", budget)],
                matches=4,
                workers=1,
                seed=seed * 1000 + c,
            )
            d = result.differences[0]
            out.write(json.dumps({"chunk": c, "mean": d.mean, "groups": d.groups}) + "\n")
            out.flush()
