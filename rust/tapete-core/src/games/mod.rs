//! One module per game, and the registry of games: `for_each_game!` is the one list generic code
//! (the Python bindings) reads, so a new game is its folder plus one line in each of the two
//! lists below.

pub mod burako;
pub mod escoba;
pub mod mosca;
pub mod musta_maija;

/// Calls `$m! { module::GameType, StateType; ... }` with every game.
#[macro_export]
macro_rules! for_each_game {
    ($m:ident) => {
        $m! {
            escoba::EscobaGame, EscobaState;
            mosca::MoscaGame, MoscaState;
            musta_maija::MustaMaijaGame, MustaMaijaState;
            burako::BurakoGame, BurakoState;
        }
    };
}
