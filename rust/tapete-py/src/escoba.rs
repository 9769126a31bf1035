//! Python bindings of the Escoba engine (wrapped by `tapete.Escoba`).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use tapete_core::cards::{Card, CardSet};
use tapete_core::game::Action;
use tapete_core::games::escoba::builds::{build_value, Builds, MAX_BUILD_VALUE};
use tapete_core::games::escoba::{
    self as core, knock, options::Deck, rules, twins, twins::Multiset, EscobaGame, EscobaState,
    NUM_ACTIONS,
};
use tapete_core::GameError;

use crate::args::{action_id, list_arg, player_arg, seed_arg, text_arg, Bad};
use crate::bind::{py_game_classes, Exposed};
use crate::errors::to_py;

/// A card given as text or id. `bad` picks the error class for unreadable input; a readable
/// card outside the game's pack (`deck`) is `pack_err`.
fn card_arg(
    v: &Bound<'_, PyAny>,
    what: &str,
    bad: Bad,
    pack_err: Bad,
    pack: Deck,
) -> Result<Card, GameError> {
    let c = if let Ok(s) = v.cast::<PyString>() {
        let text = s
            .to_str()
            .map_err(|_| bad(format!("{what}: not valid text")))?;
        Card::parse(text).map_err(|e| bad(format!("{what}: {e}")))?
    } else if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() {
        let i: i64 = v.extract().unwrap_or(-1);
        Card::from_index(i).ok_or_else(|| {
            bad(format!(
                "{what}: card id {v} is out of range: expected 0..51"
            ))
        })?
    } else {
        return Err(bad(format!(
            "{what}: {} is not a card: expected text like '7d' or an id 0..51",
            v.repr().map(|r| r.to_string()).unwrap_or_default()
        )));
    };
    if !pack.contains(c) {
        return Err(pack_err(format!(
            "{what}: {c} is not a card of the {}",
            pack.pack_name()
        )));
    }
    Ok(c)
}

/// A list (or tuple) of cards; a bare string is not a list.
fn cards_arg(
    v: &Bound<'_, PyAny>,
    what: &str,
    bad: Bad,
    pack_err: Bad,
    pack: Deck,
) -> Result<Vec<Card>, GameError> {
    if v.is_instance_of::<PyString>() {
        return Err(bad(format!("{what} must be a list of cards, not a string")));
    }
    let items: Vec<Bound<'_, PyAny>> = v
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| bad(format!("{what} must be a list of cards")))?;
    items
        .iter()
        .map(|x| card_arg(x, what, bad, pack_err, pack))
        .collect()
}

/// Options JSON text (`InvalidOptionError` for a non-str or unencodable str) resolved to a game.
fn options_game(v: &Bound<'_, PyAny>) -> Result<EscobaGame, GameError> {
    EscobaGame::from_json_options(text_arg(v, "options JSON", GameError::InvalidOption)?)
}

impl Exposed for EscobaState {
    const NUM_ACTIONS: Action = NUM_ACTIONS;
    fn action_text(&self, a: Action) -> Result<String, GameError> {
        core::action_to_string(a)
    }
    fn text_action(&self, text: &str) -> Result<Action, GameError> {
        core::string_to_action(text)
    }
    fn observation_of(&self, player: i64) -> Result<Vec<f32>, GameError> {
        self.observation(player)
    }
}

py_game_classes! {
    game PyEscobaGame(EscobaGame, "escoba", "EscobaGame") {
        #[getter]
        fn num_sides(&self) -> usize {
            self.game.num_sides()
        }

        #[pyo3(signature = (seed = None, deck = None))]
        fn new_state(
            &self,
            seed: Option<&Bound<'_, PyAny>>,
            deck: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyEscobaState> {
            let seed = match seed {
                Some(s) => seed_arg(s)?,
                None => 0,
            };
            let state = match deck {
                Some(d) if !d.is_none() => {
                    let pack = self.game.options().deck;
                    let cards = cards_arg(d, "deck", GameError::InvalidState, GameError::InvalidState, pack)
                        .map_err(to_py)?;
                    self.game.new_state_with_deck(seed, Some(&cards)).map_err(to_py)?
                }
                _ => self.game.new_state(seed),
            };
            Ok(PyEscobaState { s: state })
        }
    }
    state PyEscobaState(EscobaState, "EscobaState") {
        /// A full move: `Qh x Ah 3s 5d`, `Kc`; atomic.
        fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
            let text = text_arg(r#move, "move", GameError::InvalidNotation).map_err(to_py)?;
            self.s.play_move(text).map_err(to_py)
        }

        fn __repr__(&self) -> String {
            let g = self.s.game();
            format!(
                "<EscobaState {} deal={} dealer={} to_move={} scores={:?}{}>",
                g.options().variant.as_str(),
                self.s.deal(),
                self.s.dealer(),
                self.current_player(),
                self.s.side_scores(),
                if self.s.is_terminal() { " terminal" } else { "" }
            )
        }
    }
}

/// `O(card)` against `table` (contract §7): ascending card lists, sorted; with builds
/// (`table_builds`, card lists) and the rest of the `hand`, then `["on", t]` per build move.
#[pyfunction]
#[pyo3(signature = (card, table, options_json, pile_tops = None, seat = None, table_builds = None, hand = None))]
fn escoba_capture_options(
    card: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
    pile_tops: Option<&Bound<'_, PyAny>>,
    seat: Option<&Bound<'_, PyAny>>,
    table_builds: Option<&Bound<'_, PyAny>>,
    hand: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<String>>> {
    let game = options_game(options_json).map_err(to_py)?;
    let inv = GameError::InvalidNotation;
    let pack = game.options().deck;
    let c = card_arg(card, "card", inv, inv, pack).map_err(to_py)?;
    // parse everything first, then check (as the reference does)
    let table_cards = cards_arg(table, "table", inv, inv, pack).map_err(to_py)?;
    let mut build_cards: Vec<Vec<Card>> = Vec::new();
    if let Some(bs) = table_builds.filter(|b| !b.is_none()) {
        let list = list_arg(bs, "table_builds", GameError::InvalidState).map_err(to_py)?;
        for b in list {
            build_cards.push(cards_arg(&b, "a build", inv, inv, pack).map_err(to_py)?);
        }
    }
    let hand_cards = match hand.filter(|h| !h.is_none()) {
        Some(h) => cards_arg(h, "hand", inv, inv, pack).map_err(to_py)?,
        None => Vec::new(),
    };
    // each card once, or twice with the double pack (contract §1a)
    let twin = pack.copies() == 2;
    let dup = |x: Card| {
        let times = if twin { "twice" } else { "once" };
        to_py(GameError::InvalidState(format!(
            "card {x} appears more than {times} among the played card, the table, the builds, \
             the hand and the pile tops"
        )))
    };
    let mut seen = Multiset::from_set(CardSet::single(c));
    let mut add = |x: Card| -> PyResult<()> {
        if (seen.contains(x) && !twin) || !seen.insert(x) {
            return Err(dup(x));
        }
        Ok(())
    };
    let mut claim = |cards: &[Card]| -> PyResult<CardSet> {
        let mut set = CardSet::EMPTY;
        for &x in cards {
            add(x)?;
            set.insert(x);
        }
        Ok(set)
    };
    let set = claim(&table_cards)?;
    let build_sets = build_cards
        .iter()
        .map(|b| claim(b))
        .collect::<PyResult<Vec<CardSet>>>()?;
    let held = claim(&hand_cards)?.union(CardSet::single(c));
    if !build_sets.is_empty() && !game.options().builds {
        return Err(to_py(GameError::InvalidState(
            "table_builds needs option builds".into(),
        )));
    }
    let mut builds = Builds::EMPTY;
    for bset in build_sets {
        if bset.len() < 2 || build_value(bset) > MAX_BUILD_VALUE || !builds.insert(bset) {
            return Err(to_py(GameError::InvalidState(format!(
                "a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all, got [{bset}]"
            ))));
        }
    }
    // rules §2.21: each side's pile top (None: empty pile), seen from `seat`
    let n = game.num_players();
    let seat = match seat {
        Some(v) if !v.is_none() => {
            let p = player_arg(v, n).map_err(to_py)?;
            if !(0..n as i64).contains(&p) {
                return Err(to_py(GameError::InvalidPlayer(format!(
                    "seat {p} is not a seat of this game: expected 0..{}",
                    n - 1
                ))));
            }
            p as usize
        }
        _ => 0,
    };
    let o = game.options();
    let mut piles = core::piles::Piles {
        tops: [-1; rules::MAX_SIDES],
        side: o.side_of(seat) as u8,
        next: o.side_of((seat + 1) % n) as u8,
    };
    if let Some(v) = pile_tops.filter(|v| !v.is_none()) {
        let ns = game.num_sides();
        let bad = || {
            to_py(GameError::InvalidState(format!(
                "pile_tops must be a list of {ns} entries (one per side): a card or None"
            )))
        };
        if v.is_instance_of::<PyString>() {
            return Err(bad());
        }
        let items: Vec<Bound<'_, PyAny>> = v
            .try_iter()
            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
            .map_err(|_| bad())?;
        if items.len() != ns {
            return Err(bad());
        }
        for (side, x) in items.iter().enumerate() {
            if x.is_none() {
                continue;
            }
            let top = card_arg(x, "pile_tops", inv, inv, pack).map_err(to_py)?;
            add(top)?;
            piles.tops[side] = top.0 as i8;
        }
    }
    if !o.steal {
        piles = core::piles::Piles::NONE;
    }
    if twin {
        // the double pack refuses builds and piles: the table is the only item (contract §1a)
        let table: Multiset = table_cards.iter().copied().collect();
        return Ok(twins::capture_options(o, c, table)
            .into_iter()
            .map(|x| x.into_iter().map(|i| i.to_string()).collect())
            .collect());
    }
    let beside = rules::Beside {
        builds: &builds,
        piles: &piles,
    };
    let (outs, ons) = rules::capture_options_in(o, c, set, beside, held);
    let mut res: Vec<Vec<String>> = outs
        .into_iter()
        .map(|x| x.into_iter().map(|i| core::piles::item_text(i.0)).collect())
        .collect();
    res.extend(
        ons.into_iter()
            .map(|t| vec!["on".to_string(), t.to_string()]),
    );
    Ok(res)
}

/// A hand's cards as a set; a card given twice is an `InvalidStateError`.
fn hand_set(hand: &Bound<'_, PyAny>, pack: Deck) -> PyResult<CardSet> {
    let inv = GameError::InvalidNotation;
    let mut set = CardSet::EMPTY;
    for x in cards_arg(hand, "hand", inv, inv, pack).map_err(to_py)? {
        if set.contains(x) {
            return Err(to_py(GameError::InvalidState(format!(
                "card {x} appears more than once in the hand"
            ))));
        }
        set.insert(x);
    }
    Ok(set)
}

/// What a hand may declare by knocking (rules §2.7): (name, points, matta value or None).
#[pyfunction]
fn escoba_knock(
    hand: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<(String, i64, Option<u8>)> {
    let game = options_game(options_json).map_err(to_py)?;
    let set = hand_set(hand, game.options().deck)?;
    let o = game.options();
    let (kind, value) = knock::best(o, set);
    if kind == 0 {
        return Ok(("none".to_string(), 0, None));
    }
    let wild = knock::Matta::natural(o).in_set(set).then_some(value);
    Ok((knock::name(kind).to_string(), knock::points(o, kind), wild))
}

/// The tuzzoli declaration of a hand (rules §2.8): (name, points).
#[pyfunction]
fn escoba_tuzzoli(
    hand: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<(String, i64)> {
    let game = options_game(options_json).map_err(to_py)?;
    let set = hand_set(hand, game.options().deck)?;
    let kind = rules::tuzzoli(set, game.options().tuzzoli_hybrids) as usize;
    Ok((
        rules::TUZZOLI_NAMES[kind].to_string(),
        rules::TUZZOLI_POINTS[kind],
    ))
}

/// Points per side of a deal (contract §7); `declared`: hand-declaration points per side;
/// `ks_sweeps`: per side, how many of its sweeps were made by playing `Ks`.
#[pyfunction]
#[pyo3(signature = (piles, scope, options_json, declared = None, ks_sweeps = None, twin_sweeps = None, ks_on_ks = None))]
#[allow(clippy::too_many_arguments)]
fn escoba_score_deal<'py>(
    piles: &Bound<'py, PyAny>,
    scope: &Bound<'py, PyAny>,
    options_json: &Bound<'py, PyAny>,
    declared: Option<&Bound<'py, PyAny>>,
    ks_sweeps: Option<&Bound<'py, PyAny>>,
    twin_sweeps: Option<&Bound<'py, PyAny>>,
    ks_on_ks: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<i64>> {
    let game = options_game(options_json).map_err(to_py)?;
    let st = |m: String| to_py(GameError::InvalidState(m));
    // the sides are the piles given, whatever the players option says (contract §7)
    let list = |v: &Bound<'py, PyAny>,
                what: &str,
                len: Option<usize>|
     -> PyResult<Vec<Bound<'py, PyAny>>> {
        if v.is_instance_of::<PyString>() {
            return Err(st(format!("{what} must be a list")));
        }
        let items = v
            .try_iter()
            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
            .map_err(|_| st(format!("{what} must be a list")))?;
        match len {
            Some(n) if items.len() != n => Err(st(format!(
                "{what} must have one entry per pile ({n}), got {}",
                items.len()
            ))),
            None if items.is_empty() || items.len() > 6 => Err(st(format!(
                "{what} must hold one card list per side (1 to 6 sides), got {}",
                items.len()
            ))),
            _ => Ok(items),
        }
    };
    let pile_items = list(piles, "piles", None)?;
    let ns = pile_items.len();
    let twin = game.options().deck.copies() == 2;
    let mut seen = Multiset::EMPTY;
    let mut sets = Vec::with_capacity(ns);
    let mut multisets = Vec::with_capacity(ns);
    for (i, p) in pile_items.iter().enumerate() {
        let cards = cards_arg(
            p,
            &format!("piles[{i}]"),
            GameError::InvalidNotation,
            GameError::InvalidNotation,
            game.options().deck,
        )
        .map_err(to_py)?;
        let mut set = Multiset::EMPTY;
        for c in cards {
            if (seen.contains(c) && !twin) || !seen.insert(c) {
                let place = if twin {
                    "more than twice"
                } else {
                    "in more than one place"
                };
                return Err(st(format!("card {c} appears {place}")));
            }
            set.insert(c);
        }
        sets.push(set.one);
        multisets.push(set);
    }
    let mut counts = Vec::with_capacity(ns);
    for (i, x) in list(scope, "scope", Some(ns))?.iter().enumerate() {
        let bad = || st(format!("scope[{i}] must be an int >= 0"));
        if !x.is_instance_of::<PyInt>() || x.is_instance_of::<PyBool>() {
            return Err(bad());
        }
        counts.push(x.extract::<u64>().map_err(|_| bad())?);
    }
    let mut points = Vec::with_capacity(ns);
    if let Some(d) = declared {
        for (i, x) in list(d, "declared", Some(ns))?.iter().enumerate() {
            let bad = || st(format!("declared[{i}] must be an int in 0..1000000000"));
            if !x.is_instance_of::<PyInt>() || x.is_instance_of::<PyBool>() {
                return Err(bad());
            }
            let v = x.extract::<i64>().map_err(|_| bad())?;
            if !(0..=1_000_000_000).contains(&v) {
                return Err(bad());
            }
            points.push(v);
        }
    }
    // per side, how many of its `scope` sweeps were of one kind (empty when not given)
    let sweep_counts = |given: Option<&Bound<'py, PyAny>>, name: &str| -> PyResult<Vec<u64>> {
        let mut out = Vec::with_capacity(ns);
        if let Some(k) = given.filter(|v| !v.is_none()) {
            for (i, x) in list(k, name, Some(ns))?.iter().enumerate() {
                let bad = || st(format!("{name}[{i}] must be an int in 0..scope[{i}]"));
                if !x.is_instance_of::<PyInt>() || x.is_instance_of::<PyBool>() {
                    return Err(bad());
                }
                let v = x.extract::<u64>().map_err(|_| bad())?;
                if v > counts[i] {
                    return Err(bad());
                }
                out.push(v);
            }
        }
        Ok(out)
    };
    let ks = sweep_counts(ks_sweeps, "ks_sweeps")?;
    let mut twins_n = Vec::new();
    let mut both: Option<usize> = None;
    if twin_sweeps.is_some_and(|v| !v.is_none()) || ks_on_ks.is_some_and(|v| !v.is_none()) {
        if !twin {
            return Err(st(
                "twin_sweeps and ks_on_ks need deck=double_italian80 (contract §1a)".into(),
            ));
        }
        twins_n = sweep_counts(twin_sweeps, "twin_sweeps")?;
        if let Some(k) = ks_on_ks.filter(|v| !v.is_none()) {
            let not_side = || st(format!("ks_on_ks must be a side: an int in 0..{}", ns - 1));
            let side = player_arg(k, ns).map_err(|_| not_side())?;
            if !(0..ns as i64).contains(&side) {
                return Err(not_side());
            }
            let s = side as usize;
            let at = |v: &[u64]| v.get(s).copied().unwrap_or(0);
            if at(&ks) < 1 || at(&twins_n) < 1 {
                return Err(st(
                    "the ks_on_ks sweep counts in its side's ks_sweeps and twin_sweeps".into(),
                ));
            }
            both = Some(s);
        }
    }
    for (s, &scope_s) in counts.iter().enumerate() {
        let at = |v: &[u64]| v.get(s).copied().unwrap_or(0);
        if at(&ks).saturating_add(at(&twins_n)) - u64::from(both == Some(s)) > scope_s {
            return Err(st(
                "a side's ks_sweeps and twin_sweeps (ks_on_ks counted once) exceed its scope"
                    .into(),
            ));
        }
    }
    let pts = if twin {
        twins::score_deal_counts(
            game.options(),
            &multisets,
            &counts,
            &points,
            &ks,
            &twins_n,
            both,
        )
    } else {
        rules::score_deal_counts(game.options(), &sets, &counts, &points, &ks)
    };
    Ok(pts[..ns].to_vec())
}

/// Random playouts in Rust with the GIL released; arrays per game.
#[pyfunction]
#[pyo3(signature = (options_json, games, seed, threads = None))]
fn simulate_escoba<'py>(
    py: Python<'py>,
    options_json: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = options_game(options_json).map_err(to_py)?;
    crate::sim::simulate_py(py, &game, games, seed, threads)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEscobaGame>()?;
    m.add_class::<PyEscobaState>()?;
    m.add_function(wrap_pyfunction!(escoba_capture_options, m)?)?;
    m.add_function(wrap_pyfunction!(escoba_tuzzoli, m)?)?;
    m.add_function(wrap_pyfunction!(escoba_knock, m)?)?;
    m.add_function(wrap_pyfunction!(escoba_score_deal, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_escoba, m)?)?;
    Ok(())
}
