"""tapete.VecEnv (docs/envs.md §1): every game and preset in both modes, replayed step by step
against the engine's own states; same-step auto-reset; typed errors that change nothing; results
independent of the thread count; truncation by a cap."""

from __future__ import annotations

import numpy as np
import pytest

import tapete
from tapete._options import spec
from tapete.registry import GAMES


def _option_sets():
    for name, info in GAMES.items():
        for options in info.option_sets:
            yield pytest.param(name, dict(options), id=f"{name}-{options}")
        s = spec(name)
        for preset in s.presets:
            players = s.players_of(preset)[0]
            yield pytest.param(name, {"variant": preset, "players": players}, id=f"{name}-{preset}")


def _random_actions(mask, rng):
    """One uniformly drawn legal action per row."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


def _check_matches_states(env, obs, mask, player):
    for i in range(env.num_envs):
        s = env.state(i)
        assert not s.is_terminal()
        if env.seat is None:
            assert player[i] == s.current_player()
        else:
            assert s.current_player() == player[i]
        assert np.array_equal(mask[i], s.legal_mask())
        assert np.array_equal(obs[i], s.observation(int(player[i])))


@pytest.mark.parametrize(("name", "options"), list(_option_sets()))
def test_every_option_set_steps_in_both_modes(name, options):
    game = GAMES[name].native(**options)
    rng = np.random.default_rng(3)
    for seat in (None, "random"):
        env = tapete.VecEnv(game, 2, seed=11, seat=seat)
        obs, mask, player = env.reset()
        assert obs.shape == (2, *game.observation_shape) and obs.dtype == np.float32
        assert mask.shape == (2, game.num_distinct_actions) and mask.dtype == np.bool_
        assert player.shape == (2,)
        for _ in range(6):
            _check_matches_states(env, obs, mask, player)
            obs, mask, player, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))
            assert rewards.shape == (2, game.num_players)
        _check_matches_states(env, obs, mask, player)


def _replay(game, steps, num_envs=3, seed=0, **kw):
    """Steps a multi-agent batch with random legal actions and replays each env on its own
    state: the batch must match the engine move for move, and finished matches must report what
    the engine says. Returns how many matches finished."""
    env = tapete.VecEnv(game, num_envs, seed=seed, **kw)
    rng = np.random.default_rng(seed)
    obs, mask, player = env.reset()
    finished = 0
    lengths = np.zeros(num_envs, dtype=np.int64)
    for _ in range(steps):
        before = [env.state(i) for i in range(num_envs)]
        actions = _random_actions(mask, rng)
        acting = player.copy()
        obs, mask, player, rewards, terminated, truncated, info = env.step(actions)
        lengths += 1
        for i, s in enumerate(before):
            s.apply(int(actions[i]))
            assert info["actor"][i] == acting[i]
            if terminated[i] or truncated[i]:
                finished += 1
                assert not (terminated[i] and truncated[i])
                if s.is_terminal():
                    assert np.array_equal(rewards[i], np.array(s.returns(), dtype=np.float32))
                else:
                    assert truncated[i] and not rewards[i].any()
                assert np.array_equal(info["episode_return"][i], rewards[i])
                assert info["episode_length"][i] == lengths[i]
                assert np.array_equal(info["final_obs"][i], s.observation(int(acting[i])))
                # the same step dealt a new match
                assert env.state(i).history() == [] or env.state(i).deals() == 1
                lengths[i] = 0
            else:
                assert not rewards[i].any()
                assert env.state(i).to_json() == s.to_json()
        _check_matches_states(env, obs, mask, player)
    return finished


def test_multi_agent_matches_the_engine_and_resets_in_the_same_step():
    assert tapete.VecEnv.autoreset_mode == "same_step"
    # scopa for 2 with one card a hand: short matches, so several end in 300 steps
    finished = _replay(tapete.Escoba(cards_per_hand=1, initial_table_cards=0, game="single_deal"), 300)
    assert finished >= 3


@pytest.mark.parametrize("name", ["mosca", "musta_maija"])
def test_multi_agent_matches_the_engine_in_other_games(name):
    _replay(GAMES[name].native(), 150)


def test_max_decisions_truncates():
    game = tapete.Escoba()
    env = tapete.VecEnv(game, 3, seat=None, max_decisions=5)
    obs, mask, player = env.reset()
    for step in range(1, 11):
        obs, mask, player, rewards, terminated, truncated, info = env.step(mask.argmax(axis=1))
        # every match is cut at its 5th decision, long before a scopa match ends
        assert truncated.all() == (step % 5 == 0)
        assert not terminated.any() and not rewards.any()
    assert (info["episode_length"] == 5).all()
    assert _replay(game, 12, max_decisions=4) == 9


def test_a_deal_cap_ends_as_truncated():
    # docs/escoba_engine.md: with max_deals, a match undecided at that deal ends drawn; a target
    # no deal can reach (1000 points) leaves every match undecided after its single deal
    game = tapete.Escoba(target=1000, max_deals=1)
    env = tapete.VecEnv(game, 4, seed=2)
    _, mask, _ = env.reset()
    seen = 0
    for _ in range(120):
        _, mask, _, rewards, terminated, truncated, info = env.step(mask.argmax(axis=1))
        assert not terminated.any()
        seen += int(truncated.sum())
        assert not rewards[truncated].any()
    assert seen >= 4


def test_single_agent_holds_its_seat():
    game = tapete.Mosca(players=3)
    for seat in (0, 2):
        env = tapete.VecEnv(game, 4, seed=1, seat=seat)
        obs, mask, player = env.reset()
        rng = np.random.default_rng(0)
        for _ in range(80):
            assert (player == seat).all()
            _check_matches_states(env, obs, mask, player)
            obs, mask, player, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))
            assert (info["actor"] == seat).all()


@pytest.mark.parametrize("name", ["escoba", "mosca", "musta_maija", "burako"])
def test_heuristic_opponents_step_every_game(name):
    env = tapete.VecEnv(tapete.load(name), 3, seed=2, seat=1, opponents="heuristic")
    obs, mask, player = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(60):
        assert (player == 1).all()
        _check_matches_states(env, obs, mask, player)
        obs, mask, player, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))


def test_random_seat_draws_every_seat():
    env = tapete.VecEnv(tapete.MustaMaija(), 64, seed=4, seat="random")
    _, _, player = env.reset()
    assert set(player.tolist()) == {0, 1, 2, 3}


def _trace(threads, seat):
    env = tapete.VecEnv(tapete.Escoba(), 50, seed=9, seat=seat, threads=threads)
    obs, mask, player = env.reset()
    rng = np.random.default_rng(1)
    out = []
    for _ in range(200):
        obs, mask, player, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))
        out.append((obs.copy(), mask.copy(), player.copy(), rewards.copy(), terminated.copy()))
    return out, [env.state(i).to_json() for i in range(50)]


@pytest.mark.parametrize("seat", [None, "random"])
def test_results_do_not_depend_on_threads(seat):
    one, states = _trace(1, seat)
    for threads in (2, 0):
        other, other_states = _trace(threads, seat)
        assert other_states == states
        for a, b in zip(one, other):
            for x, y in zip(a, b):
                assert np.array_equal(x, y)


def test_seeds_repeat_and_differ():
    a = tapete.VecEnv("escoba", 4, seed=5)
    b = tapete.VecEnv("escoba", 4, seed=5)
    c = tapete.VecEnv("escoba", 4, seed=6)
    assert [a.state(i).to_json() for i in range(4)] == [b.state(i).to_json() for i in range(4)]
    assert a.state(0).to_json() != c.state(0).to_json()
    assert a.state(0).to_json() != a.state(1).to_json()
    a.reset(seed=6)
    assert a.state(0).to_json() == c.state(0).to_json()


def _snapshot(env, arrays):
    return [env.state(i).to_json() for i in range(env.num_envs)], [x.copy() for x in arrays]


def test_an_illegal_action_anywhere_changes_nothing():
    env = tapete.VecEnv("escoba", 5, seed=3)
    obs, mask, player = env.reset()
    before = _snapshot(env, (obs, mask, player))
    actions = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~mask[3])[0])
    actions[3] = illegal
    with pytest.raises(tapete.IllegalActionError, match=rf"env 3: action {illegal} \("):
        env.step(actions)
    actions[3] = env.num_actions
    with pytest.raises(tapete.IllegalActionError, match="env 3: action id .* out of range"):
        env.step(actions)
    actions[3] = -1
    with pytest.raises(tapete.IllegalActionError, match="env 3"):
        env.step(actions)
    for bad in (actions[:4], actions.astype(np.float64), actions.astype(bool), "0 1 2 3 4", None, [[0] * 5]):
        with pytest.raises(tapete.IllegalActionError):
            env.step(bad)
    after = _snapshot(env, (obs, mask, player))
    assert after[0] == before[0]
    for x, y in zip(after[1], before[1]):
        assert np.array_equal(x, y)
    # a list of Python ints and other int dtypes are read as action ids
    env.step([int(a) for a in mask.argmax(axis=1)])
    env.step(mask.argmax(axis=1).astype(np.int16))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"num_envs": 0}, tapete.InvalidOptionError),
        ({"num_envs": -1}, tapete.InvalidOptionError),
        ({"num_envs": 2.0}, tapete.InvalidOptionError),
        ({"seed": -1}, tapete.InvalidOptionError),
        ({"seed": "x"}, tapete.InvalidOptionError),
        ({"seat": 2}, tapete.InvalidPlayerError),
        ({"seat": -1}, tapete.InvalidPlayerError),
        ({"seat": "first"}, tapete.InvalidPlayerError),
        ({"seat": 1.0}, tapete.InvalidPlayerError),
        ({"opponents": "expert"}, tapete.InvalidOptionError),
        ({"opponents": 3}, tapete.InvalidOptionError),
        ({"threads": -1}, tapete.InvalidOptionError),
        ({"threads": 10**6}, tapete.InvalidOptionError),
        ({"max_decisions": 0}, tapete.InvalidOptionError),
        ({"max_decisions": "many"}, tapete.InvalidOptionError),
        ({"game": "nosuchgame"}, tapete.InvalidOptionError),
        ({"game": 42}, tapete.InvalidOptionError),
        ({"game": tapete.reference.Escoba()}, tapete.InvalidOptionError),
    ],
)
def test_bad_arguments_are_typed_errors(kwargs, error):
    args = {"game": "escoba", "num_envs": 2} | kwargs
    with pytest.raises(error):
        tapete.VecEnv(**args)


def test_bad_reset_seed_changes_nothing():
    env = tapete.VecEnv("mosca", 2, seed=1)
    before = [env.state(i).to_json() for i in range(2)]
    with pytest.raises(tapete.InvalidOptionError):
        env.reset(seed=-5)
    assert [env.state(i).to_json() for i in range(2)] == before


def test_views_of_observations_hide_other_hands():
    # the observation is the acting seat's (docs/envs.md §1): it equals that seat's own
    # observation and differs from another seat's when hands differ
    env = tapete.VecEnv("escoba", 1, seed=2)
    obs, _, player = env.reset()
    s = env.state(0)
    other = 1 - int(player[0])
    assert np.array_equal(obs[0], s.observation(int(player[0])))
    assert not np.array_equal(obs[0], s.observation(other))


def test_burako_max_hands_ends_as_truncated():
    # docs/burako_engine.md §9: the match ends after hand max_hands when no total reached the
    # target; 106 tiles of at most 50 points and a few canasta bonuses are far below 10**6
    game = tapete.Burako(max_hands=1, target=10**6)
    env = tapete.VecEnv(game, 2, seed=1)
    rng = np.random.default_rng(0)
    _, mask, _ = env.reset()
    seen = 0
    for _ in range(1500):
        _, mask, _, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))
        assert not terminated.any()
        seen += int(truncated.sum())
    assert seen >= 2


def test_one_env_stepped_from_two_threads_never_raises_an_untyped_error():
    """The step releases the GIL while it holds the env: a second thread stepping the same env
    then gets a typed error (InvalidStateError), never PyO3's bare "Already borrowed", and the
    env stays usable."""
    import threading

    env = tapete.VecEnv("mosca()", num_envs=512, seed=1)
    _, mask, _ = env.reset()
    actions = mask.argmax(axis=1).astype(np.int64)
    errors: list[BaseException] = []
    stop = threading.Event()

    def stepper() -> None:
        while not stop.is_set():
            try:
                obs, mask, *_ = env.step(actions)
                actions[:] = mask.argmax(axis=1)
            except tapete.InvalidStateError:
                pass  # the other thread held the env; nothing changed
            except tapete.IllegalActionError:
                pass  # the other thread stepped first, so these actions are stale; nothing changed
            except BaseException as error:  # anything else is the defect under test
                errors.append(error)
                return

    threads = [threading.Thread(target=stepper) for _ in range(2)]
    for t in threads:
        t.start()
    threading.Event().wait(1.0)
    stop.set()
    for t in threads:
        t.join()
    assert errors == []
    env.reset()  # still usable
