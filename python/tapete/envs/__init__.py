"""Adapters of tapete's games to the learning libraries (docs/envs.md): Gymnasium
(``pip install tapete[gym]``) and PettingZoo (``tapete[pettingzoo]``). Each library is imported
only when its adapter is asked for; the OpenSpiel adapter is ``tapete.openspiel``."""

from __future__ import annotations

from typing import Any

__all__ = ["gymnasium_env", "gymnasium_vector_env", "pettingzoo_env"]


def gymnasium_env(game: Any, seat: int | str = 0, opponents: str = "random", **kwargs: Any) -> Any:
    """A single-agent ``gymnasium.Env``: the learner holds ``seat`` of ``game`` (a game object or
    string) against ``opponents``. See ``tapete.envs.gym.TapeteEnv``."""
    from .gym import TapeteEnv

    return TapeteEnv(game, seat=seat, opponents=opponents, **kwargs)


def gymnasium_vector_env(
    game: Any, num_envs: int, seat: int | str = 0, opponents: str = "random", **kwargs: Any
) -> Any:
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` single-agent matches over ``tapete.VecEnv``.
    See ``tapete.envs.gym.TapeteVectorEnv``."""
    from .gym import TapeteVectorEnv

    return TapeteVectorEnv(game, num_envs, seat=seat, opponents=opponents, **kwargs)


def pettingzoo_env(game: Any, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game``, every seat an agent. See
    ``tapete.envs.pettingzoo.TapeteAECEnv``."""
    from .pettingzoo import TapeteAECEnv

    return TapeteAECEnv(game, **kwargs)
