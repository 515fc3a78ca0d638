"""Train a Pocha policy with sb3-contrib's MaskablePPO, save it, and play it as a tapete bot.

    pip install '.[train]'   # in tapete's folder: sb3-contrib and PyTorch (a CPU build will do)
    python examples/train_pocha.py --minutes 12 --out pocha_policy.zip
    tapete play "pocha(schedule=5)" --seats 'policy(path="pocha_policy.zip")',easy,easy,easy
    tapete arena "pocha(schedule=5)" --bots 'policy(path="pocha_policy.zip")',easy --matches 400

One episode is one match of ``--spec`` (by default a single deal of five cards a hand, four
players): the learner sits at seat 0 against tapete bots (``--opponents``), the dealer drawn by
lot each match, and is rewarded with the deal's Pocha score (exact bid: 10 + 5 a trick; else -5
a trick of difference). Training stops after ``--minutes`` of wall-clock time (or ``--steps``
environment steps), then the model is saved where ``policy(path=…)`` seats load it.
"""

from __future__ import annotations

import argparse
import time

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import tapete.rl


class Budget(BaseCallback):  # type: ignore[misc]
    """Stops training once the wall-clock budget is spent or ``steps`` steps are taken:
    ``learn`` alone would finish the rollout under way (2,048 steps), past ``--steps``."""

    def __init__(self, seconds: float, steps: int) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.steps = steps

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline and self.num_timesteps < self.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="pocha(schedule=5)")
    parser.add_argument("--opponents", default="easy", help="the other seats' bot level")
    parser.add_argument("--minutes", type=float, default=12.0)
    parser.add_argument("--steps", type=int, default=10_000_000, help="at most this many")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", default="pocha_policy.zip")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    env = tapete.rl.single_agent(args.spec, seat=0, opponents=args.opponents)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=256,
        n_epochs=5,
        gamma=1.0,  # one deal: the deal's score is the whole return
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=Budget(args.minutes * 60, args.steps))
    model.save(args.out)
    print(
        f"trained {model.num_timesteps:,} steps in {time.monotonic() - start:,.0f} s on"
        f" {args.spec} against {args.opponents}; saved {args.out}"
    )


if __name__ == "__main__":
    main()
