"""Train a small policy to play scopa for 2 (single deals) against the random bot, with PPO
written in numpy (no deep-learning framework), on tapete.VecEnv; then against the heuristic bot
where there is one. Saves the learning curve (win rate against steps) as a PNG when matplotlib
is installed, and ends with the greedy policy's win rate against random.

    python examples/train_escoba.py                      # about 3 minutes on 2 cores
    python examples/train_escoba.py --updates 40 --plot curve.png

The learner holds a seat drawn per match (seat="random"); the opponents play the other seat
inside the native step. A match is one deal (``game=single_deal``), so that a few minutes of
training see tens of thousands of results. The reward is the deal's result for the learner (+1
win, -1 loss, 0 draw: a draw is not a win, so random play wins less than half), given when it
ends. The policy is a one-hidden-layer network over the observation,
with the illegal actions masked out of its softmax; a value head shares the hidden layer.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field

# small matrices: BLAS threads would only spin against the environment's threads
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import tapete  # noqa: E402

GAME = "escoba(variant=scopa,players=2,game=single_deal)"


class Normalizer:
    """Running mean and variance of the observations (Welford, batched)."""

    def __init__(self, size: int) -> None:
        self.mean = np.zeros(size)
        self.var = np.ones(size)
        self.count = 1e-4

    def update(self, x: np.ndarray) -> None:
        mean, var, n = x.mean(axis=0), x.var(axis=0), len(x)
        delta, total = mean - self.mean, self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + var * n + delta**2 * self.count * n / total) / total
        self.count = total

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / np.sqrt(self.var + 1e-8)).clip(-10, 10).astype(np.float32)


@dataclass
class Net:
    """tanh hidden layer; a policy head (logits per action) and a value head."""

    w1: np.ndarray
    b1: np.ndarray
    wp: np.ndarray
    bp: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    adam: dict[str, list[np.ndarray]] = field(default_factory=dict)
    t: int = 0

    @staticmethod
    def new(obs: int, hidden: int, actions: int, rng: np.random.Generator) -> Net:
        def layer(i: int, o: int, scale: float) -> np.ndarray:
            return (rng.standard_normal((i, o)) * scale / np.sqrt(i)).astype(np.float32)

        return Net(
            layer(obs, hidden, 1.0),
            np.zeros(hidden, np.float32),
            layer(hidden, actions, 0.01),
            np.zeros(actions, np.float32),
            layer(hidden, 1, 1.0),
            np.zeros(1, np.float32),
        )

    def params(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ("w1", "b1", "wp", "bp", "wv", "bv")}

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.w1 + self.b1)
        logits = np.where(mask, h @ self.wp + self.bp, -1e9)
        return h, logits, (h @ self.wv + self.bv)[:, 0]

    def step(self, grads: dict[str, np.ndarray], lr: float) -> None:
        """Adam."""
        self.t += 1
        for k, g in grads.items():
            m, v = self.adam.setdefault(k, [np.zeros_like(g), np.zeros_like(g)])
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh, vh = m / (1 - 0.9**self.t), v / (1 - 0.999**self.t)
            getattr(self, k)[...] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def ppo_update(net: Net, batch: dict[str, np.ndarray], args: argparse.Namespace, rng: np.random.Generator) -> None:
    n = len(batch["obs"])
    adv = batch["adv"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(args.epochs):
        order = rng.permutation(n)
        for start in range(0, n, args.minibatch):
            i = order[start : start + args.minibatch]
            x, mask, a = batch["obs"][i], batch["mask"][i], batch["action"][i]
            h, logits, v = net.forward(x, mask)
            logp_all = log_softmax(logits)
            p = np.exp(logp_all)
            rows = np.arange(len(i))
            ratio = np.exp(logp_all[rows, a] - batch["logp"][i])
            # clipped surrogate: its gradient flows only where the unclipped term is the minimum
            active = ~(((ratio > 1 + args.clip) & (adv[i] > 0)) | ((ratio < 1 - args.clip) & (adv[i] < 0)))
            dlogp = -(ratio * adv[i] * active) / len(i)
            dlogits = -p * dlogp[:, None]
            dlogits[rows, a] += dlogp
            entropy = -(p * np.where(mask, logp_all, 0.0)).sum(axis=1)
            # gradient of -coef * mean entropy
            dlogits += args.entropy * p * (np.where(mask, logp_all, 0.0) + entropy[:, None]) / len(i)
            dv = args.value_coef * (v - batch["ret"][i]) / len(i)
            dh = dlogits @ net.wp.T + dv[:, None] @ net.wv.T
            dpre = dh * (1 - h * h)
            grads = {
                "wp": h.T @ dlogits,
                "bp": dlogits.sum(axis=0),
                "wv": h.T @ dv[:, None],
                "bv": dv.sum(keepdims=True),
                "w1": x.T @ dpre,
                "b1": dpre.sum(axis=0),
            }
            norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
            scale = min(1.0, args.max_grad_norm / (norm + 1e-8))
            net.step({k: (g * scale).astype(np.float32) for k, g in grads.items()}, args.lr)


def train(args: argparse.Namespace, opponents: str, net: Net | None, norm: Normalizer | None, curve: list) -> tuple:
    env = tapete.VecEnv(GAME, args.num_envs, seed=args.seed, seat="random", opponents=opponents, threads=args.threads)
    rng = np.random.default_rng(args.seed)
    obs, mask, _ = env.reset()
    if net is None:
        net = Net.new(env.observation_size, args.hidden, env.num_actions, rng)
        norm = Normalizer(env.observation_size)
    assert norm is not None
    steps0 = curve[-1][0] if curve else 0
    steps, wins, games, started = steps0, [], [], time.perf_counter()
    T, N = args.steps, args.num_envs
    for update in range(args.updates):
        buf = {
            "obs": np.empty((T, N, env.observation_size), np.float32),
            "mask": np.empty((T, N, env.num_actions), bool),
            "action": np.empty((T, N), np.int64),
            "logp": np.empty((T, N), np.float32),
            "value": np.empty((T + 1, N), np.float32),
            "reward": np.zeros((T, N), np.float32),
            "done": np.zeros((T, N), bool),
        }
        for t in range(T):
            norm.update(obs)
            x = norm(obs)
            _, logits, value = net.forward(x, mask)
            action = (logits + rng.gumbel(size=logits.shape)).argmax(axis=1)
            buf["obs"][t], buf["mask"][t], buf["action"][t], buf["value"][t] = x, mask, action, value
            buf["logp"][t] = log_softmax(logits)[np.arange(N), action]
            obs, mask, _, rewards, terminated, truncated, info = env.step(action)
            done = terminated | truncated
            buf["reward"][t] = rewards[np.arange(N), info["actor"]]
            buf["done"][t] = done
            for r in buf["reward"][t][done]:
                wins.append(r > 0)
                games.append(1)
        steps += T * N
        buf["value"][T] = net.forward(norm(obs), mask)[2]
        # GAE, gamma 1: a match's only reward is its result
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(T)):
            keep = 1.0 - buf["done"][t]
            delta = buf["reward"][t] + buf["value"][t + 1] * keep - buf["value"][t]
            last = delta + args.lam * keep * last
            adv[t] = last
        batch = {
            "obs": buf["obs"].reshape(T * N, -1),
            "mask": buf["mask"].reshape(T * N, -1),
            "action": buf["action"].reshape(-1),
            "logp": buf["logp"].reshape(-1),
            "adv": adv.reshape(-1),
            "ret": (adv + buf["value"][:T]).reshape(-1),
        }
        ppo_update(net, batch, args, rng)
        if len(wins) >= args.report_every or update == args.updates - 1:
            rate = float(np.mean(wins)) if wins else float("nan")
            curve.append((steps, rate, opponents))
            print(
                f"[{opponents}] update {update + 1:4d}  steps {steps:10,d}  matches {len(wins):5d}"
                f"  win rate {rate:.3f}  ({time.perf_counter() - started:.0f}s)",
                flush=True,
            )
            wins, games = [], []
    return net, norm


def evaluate(net: Net, norm: Normalizer, opponents: str, matches: int, seed: int, threads: int) -> tuple[float, float]:
    """Win and draw rates of the greedy policy (its most likely legal action) over ``matches``."""
    env = tapete.VecEnv(GAME, min(256, matches), seed=seed + 1, seat="random", opponents=opponents, threads=threads)
    obs, mask, _ = env.reset()
    results: list[float] = []
    while len(results) < matches:
        obs, mask, _, rewards, terminated, truncated, info = env.step(net.forward(norm(obs), mask)[1].argmax(axis=1))
        done = terminated | truncated
        results.extend(rewards[np.arange(env.num_envs), info["actor"]][done].tolist())
    r = np.array(results[:matches])
    return float((r > 0).mean()), float((r == 0).mean())


def plot(curve: list, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponents in dict.fromkeys(c[2] for c in curve):
        pts = [(s, r) for s, r, o in curve if o == opponents]
        marker = "*" if len(pts) == 1 else "."
        ax.plot(
            [p[0] for p in pts],
            [p[1] for p in pts],
            marker=marker,
            ms=12 if len(pts) == 1 else 6,
            label=f"against {opponents}",
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (matches won)")
    ax.set_title("PPO (numpy) on tapete.VecEnv: scopa for 2, single deals")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"saved {path}")


def main(argv: list[str] | None = None) -> list:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--updates", type=int, default=300)
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--steps", type=int, default=64, help="steps per env per update")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatch", type=int, default=2048)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report-every", type=int, default=500, help="matches per point of the curve")
    p.add_argument("--heuristic-updates", type=int, default=100, help="then this many against 'heuristic'")
    p.add_argument("--eval-matches", type=int, default=2000, help="matches of the final greedy evaluation")
    p.add_argument("--plot", default="train_escoba.png", help="PNG path ('' for none)")
    args = p.parse_args(argv)
    curve: list = []
    net, norm = train(args, "random", None, None, curve)
    if args.eval_matches:
        win, draw = evaluate(net, norm, "random", args.eval_matches, args.seed, args.threads)
        print(f"greedy policy against random: win rate {win:.3f}, draws {draw:.3f} ({args.eval_matches} matches)")
        curve.append((curve[-1][0], win, "random, greedy policy"))
    if args.heuristic_updates:
        try:
            tapete.VecEnv(GAME, 1, opponents="heuristic")
        except tapete.InvalidOptionError:
            print("no heuristic bot in this tapete yet: the random phase only")
        else:
            args.updates = args.heuristic_updates
            train(args, "heuristic", net, norm, curve)
    if args.plot:
        plot(curve, args.plot)
    return curve


if __name__ == "__main__":
    main()
