//! The optional parts of the game, each in its own file, and the orders in which the state
//! JSON, the view and the observation walk them (docs/escoba_engine.md §8–§10).

/// The `Feature` hooks of a part that keeps one state JSON key: the key, when `state_from_json`
/// reads it, and its value as JSON text (`value`, of the state `st`).
macro_rules! state_key {
    ($key:literal, $at:expr, |$st:ident| $value:expr) => {
        fn keys(&self) -> &'static [&'static str] {
            &[$key]
        }
        fn to_json(
            &self,
            $st: &$crate::games::escoba::EscobaState,
            out: &mut Vec<(&'static str, String)>,
        ) {
            out.push(($key, $value));
        }
        fn read_at(&self) -> $crate::games::escoba::feature::ReadAt {
            $at
        }
    };
}

mod builds;
mod declarations;
mod elimination;
pub(super) mod fidasse;
mod knocks;
mod maresciallo;
mod matta;
mod shown;
mod steal;
mod streak;
mod twins;

use super::feature::{Feature, Layout, Part, Parts};
use super::options::EscobaOptions;
use super::values::MAX_SIDES;
use super::EscobaState;
use crate::error::Result;
use crate::json::push_ints;

use builds::BuildsPart;
use declarations::Declarations;
use elimination::Elimination;
use fidasse::Fidasse;
use knocks::Knocks;
use maresciallo::Maresciallo;
use matta::MattaPart;
use shown::Shown;
use steal::Steal;
use streak::Streak;
use twins::TwinSweeps;

type P = Part<EscobaState>;

/// `state_from_json`'s key list order (after the fixed keys).
const KEYS: [P; 10] = [
    &Declarations,
    &Elimination,
    &Knocks,
    &MattaPart,
    &Steal,
    &Maresciallo,
    &Fidasse,
    &BuildsPart,
    &TwinSweeps,
    &Streak,
];

/// The observation's blocks after the fixed ones (docs/escoba_engine.md §10).
const OBS: [P; 9] = [
    &Declarations,
    &Elimination,
    &Shown,
    &Steal,
    &Maresciallo,
    &TwinSweeps,
    &Fidasse,
    &BuildsPart,
    &Streak,
];

/// The view's keys after the fixed ones (docs/escoba_engine.md §10); `pile_tops` follows `piles`.
const VIEW: [P; 10] = [
    &Steal,
    &Declarations,
    &Shown,
    &MattaPart,
    &Maresciallo,
    &TwinSweeps,
    &BuildsPart,
    &Elimination,
    &Streak,
    &Fidasse,
];

/// The order `state_from_json` and `setup` read the parts in, within each of their phases.
static READ: [P; 10] = [
    &BuildsPart,
    &Fidasse,
    &Steal,
    &Maresciallo,
    &Streak,
    &TwinSweeps,
    &Declarations,
    &Knocks,
    &MattaPart,
    &Elimination,
];

impl Parts<EscobaState> {
    /// The parts that options `o` play, in each order.
    pub fn of(o: &EscobaOptions) -> Self {
        let on = |list: &[P]| list.iter().copied().filter(|f| f.enabled(o)).collect();
        Parts {
            keys: on(&KEYS),
            obs: on(&OBS),
            view: on(&VIEW),
            read: on(&READ),
            all: &READ,
        }
    }
}

/// A public mark on some of this deal's sweeps (`Ks` played, the twin taken): the observation
/// block counts the marked sweeps per side (`per_side`).
fn observe_marked(
    w: &mut Layout<'_, EscobaState>,
    per_side: impl Fn(&EscobaState) -> [u32; MAX_SIDES],
) {
    if let Some(b) = w.block(w.sides) {
        let per = per_side(b.st);
        for (x, k) in b.out.iter_mut().zip(per) {
            *x = k as f32;
        }
    }
}

/// The view's key `key`: the marked sweeps per side.
fn view_marked(st: &EscobaState, key: &str, per_side: [u32; MAX_SIDES], s: &mut String) {
    s.push_str(",\"");
    s.push_str(key);
    s.push_str("\":");
    push_ints(s, &per_side[..st.cfg.sides]);
}

/// The option checks of the capture parts (steal, fidasse, builds), in the order
/// `EscobaOptions::validate` reports them.
pub(super) fn validate_captures(o: &EscobaOptions) -> Result<()> {
    let parts: [P; 3] = [&Steal, &Fidasse, &BuildsPart];
    parts.iter().try_for_each(|f| f.validate(o))
}

/// The option checks of the double pack.
pub(super) fn validate_pack(o: &EscobaOptions) -> Result<()> {
    TwinSweeps.validate(o)
}
