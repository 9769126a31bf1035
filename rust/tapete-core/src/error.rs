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
