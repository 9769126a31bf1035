//! Every way user input can be wrong. Each variant maps to one class of `tapete.errors`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    IllegalAction(String),
    InvalidNotation(String),
    InvalidOption(String),
    InvalidState(String),
    InvalidPlayer(String),
}

impl GameError {
    pub fn message(&self) -> &str {
        match self {
            GameError::IllegalAction(m)
            | GameError::InvalidNotation(m)
            | GameError::InvalidOption(m)
            | GameError::InvalidState(m)
            | GameError::InvalidPlayer(m) => m,
        }
    }
    /// The same error with its message rewritten by `f`.
    pub fn map_message(self, f: impl FnOnce(&str) -> String) -> GameError {
        match self {
            GameError::IllegalAction(m) => GameError::IllegalAction(f(&m)),
            GameError::InvalidNotation(m) => GameError::InvalidNotation(f(&m)),
            GameError::InvalidOption(m) => GameError::InvalidOption(f(&m)),
            GameError::InvalidState(m) => GameError::InvalidState(f(&m)),
            GameError::InvalidPlayer(m) => GameError::InvalidPlayer(f(&m)),
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            GameError::IllegalAction(_) => "IllegalAction",
            GameError::InvalidNotation(_) => "InvalidNotation",
            GameError::InvalidOption(_) => "InvalidOption",
            GameError::InvalidState(_) => "InvalidState",
            GameError::InvalidPlayer(_) => "InvalidPlayer",
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for GameError {}

pub type Result<T> = std::result::Result<T, GameError>;
