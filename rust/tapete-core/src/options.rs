//! The one options scheme. Each game declares its options, their defaults and its presets in a
//! data file (`python/tapete/data/<game>.json`) that both engines read, and both resolve user
//! options the same way (docs/design.md §9):
//!
//! 1. every given option must be known and of its kind;
//! 2. the preset is `variant` (or the default one); its allowed player counts (first = default)
//!    decide `players`;
//! 3. the values start from the defaults; the preset's `base` chain and its `set` apply, then each
//!    of its `when` rules whose `if` holds on those values with the given options on top;
//! 4. the given options apply last.
//!
//! Kinds: `bool`; `int` (`min`, `max`, optional `null`); `word` (`values`, the first is the
//! default); `preset` (a preset name); `seat` (`random` or a seat); `int_or_word` (`ints`,
//! `words`); `words` (a list of distinct `values`); `card` (a card's text, optional `null`);
//! `map` (`keys`: words, or card texts when absent; `min`/`max` of the ints they map to).
//!
//! A data file holds `game`, `options` (a list, in the contract's order: `name`, `kind`, the
//! kind's fields, `default`), `presets` (a list: `name`, and optionally `base`, `set`, `when`:
//! a list of `{"if": {...}, "set": {...}}`, and `players`: the counts it allows, default first)
//! and optionally `players`: the counts of a preset that lists none.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::cards::Card;
use crate::error::{GameError, Result};
use crate::json::{as_int, excerpt, shown, type_name};

#[derive(Clone, Debug)]
enum Kind {
    Bool,
    Int {
        min: i64,
        max: i64,
        null: bool,
    },
    Word(Vec<String>),
    Preset,
    Seat,
    /// An int (from `ints`, or else in `min..=max`) or a word.
    IntOrWord {
        ints: Option<Vec<i64>>,
        min: i64,
        max: i64,
        words: Vec<String>,
    },
    Words(Vec<String>),
    Card {
        null: bool,
    },
    Map {
        keys: Option<Vec<String>>,
        min: i64,
        max: i64,
    },
}

#[derive(Clone, Debug)]
struct OptionDef {
    name: String,
    kind: Kind,
    default: Value,
}

#[derive(Clone, Debug, Default)]
struct Preset {
    base: Option<String>,
    set: Map<String, Value>,
    when: Vec<(Map<String, Value>, Map<String, Value>)>,
    players: Option<Vec<i64>>,
}

/// A game's option table and presets, read from its data file.
#[derive(Clone, Debug)]
pub struct OptionsSpec {
    pub game: String,
    options: Vec<OptionDef>,
    presets: BTreeMap<String, Preset>,
    /// The preset names in the data file's order.
    preset_names: Vec<String>,
    /// The player counts of a preset that lists none (default first); else the `players`
    /// option's range, its default first.
    players: Option<Vec<i64>>,
}

fn bad(msg: String) -> GameError {
    GameError::InvalidOption(msg)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// An entry's `name` (`missing` says what lacks one).
fn name_of(entry: &Value, missing: &str) -> std::result::Result<String, String> {
    Ok(entry["name"].as_str().ok_or(missing)?.to_string())
}

impl OptionsSpec {
    /// Reads a data file. Its errors are the project's own (a unit test reads every game's file).
    pub fn from_data(text: &str) -> std::result::Result<OptionsSpec, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let game = v["game"].as_str().ok_or("no game name")?.to_string();
        let mut options = Vec::new();
        for o in v["options"].as_array().ok_or("no options list")? {
            let name = name_of(o, "an option without a name")?;
            let int = |k: &str, d: i64| o.get(k).and_then(Value::as_i64).unwrap_or(d);
            let null = o.get("null").and_then(Value::as_bool).unwrap_or(false);
            let kind = match o["kind"].as_str().unwrap_or("") {
                "bool" => Kind::Bool,
                "int" => Kind::Int {
                    min: int("min", i64::MIN),
                    max: int("max", i64::MAX),
                    null,
                },
                "word" => Kind::Word(strings(&o["values"])),
                "preset" => Kind::Preset,
                "seat" => Kind::Seat,
                "int_or_word" => Kind::IntOrWord {
                    ints: o["ints"]
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_i64).collect()),
                    min: int("min", i64::MIN),
                    max: int("max", i64::MAX),
                    words: strings(&o["words"]),
                },
                "words" => Kind::Words(strings(&o["values"])),
                "card" => Kind::Card { null },
                "map" => Kind::Map {
                    keys: o["keys"].is_array().then(|| strings(&o["keys"])),
                    min: int("min", i64::MIN),
                    max: int("max", i64::MAX),
                },
                k => return Err(format!("option {name}: unknown kind {k:?}")),
            };
            let default = match (o.get("default"), &kind) {
                (Some(d), _) => d.clone(),
                (None, Kind::Word(ws)) => Value::from(ws.first().cloned().unwrap_or_default()),
                (None, Kind::Bool) => Value::Bool(false),
                (None, Kind::Seat) => Value::from("random"),
                _ => return Err(format!("option {name} has no default")),
            };
            options.push(OptionDef {
                name,
                kind,
                default,
            });
        }
        let mut presets = BTreeMap::new();
        let mut preset_names = Vec::new();
        for p in v["presets"].as_array().ok_or("no presets list")? {
            let name = name_of(p, "a preset without a name")?;
            let obj = |x: &Value| x.as_object().cloned().unwrap_or_default();
            let preset = Preset {
                base: p["base"].as_str().map(str::to_string),
                set: obj(&p["set"]),
                when: p["when"]
                    .as_array()
                    .map(|rules| {
                        rules
                            .iter()
                            .map(|r| (obj(&r["if"]), obj(&r["set"])))
                            .collect()
                    })
                    .unwrap_or_default(),
                players: p["players"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_i64).collect()),
            };
            preset_names.push(name.clone());
            presets.insert(name, preset);
        }
        let players = v["players"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_i64).collect());
        Ok(OptionsSpec {
            game,
            options,
            presets,
            preset_names,
            players,
        })
    }

    /// The option names in the table's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.options.iter().map(|o| o.name.as_str())
    }

    /// The preset names in the data file's order.
    pub fn presets(&self) -> &[String] {
        &self.preset_names
    }

    fn def(&self, name: &str) -> Option<&OptionDef> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The player counts a preset allows, its default first.
    pub fn players_of(&self, preset: Option<&str>) -> Vec<i64> {
        // a preset without a list inherits its base's
        let mut p = preset.and_then(|p| self.presets.get(p));
        for _ in 0..8 {
            match p {
                Some(Preset {
                    players: Some(ps), ..
                }) => return ps.clone(),
                Some(Preset { base: Some(b), .. }) => p = self.presets.get(b),
                _ => break,
            }
        }
        if let Some(ps) = &self.players {
            return ps.clone();
        }
        match self.def("players") {
            Some(OptionDef {
                kind: Kind::Int { min, max, .. },
                default,
                ..
            }) => {
                let d = default.as_i64().unwrap_or(*min);
                std::iter::once(d)
                    .chain((*min..=*max).filter(|&x| x != d))
                    .collect()
            }
            Some(OptionDef {
                kind: Kind::IntOrWord {
                    ints: Some(ints), ..
                },
                ..
            }) => ints.clone(),
            _ => Vec::new(),
        }
    }

    /// Checks one given value against its option's kind.
    fn check(&self, def: &OptionDef, v: &Value) -> Result<Value> {
        let key = &def.name;
        let got = || format!("got {} {}", type_name(v), shown(v));
        match &def.kind {
            Kind::Bool => match v {
                Value::Bool(_) => Ok(v.clone()),
                _ => Err(bad(format!(
                    "option {key} must be a bool (true or false), {}",
                    got()
                ))),
            },
            Kind::Int { min, max, null } => match (v, as_int(v)) {
                (Value::Null, _) if *null => Ok(Value::Null),
                (_, Some(x)) if (*min..=*max).contains(&x) => Ok(Value::from(x)),
                _ => Err(bad(format!(
                    "option {key} must be an int in {min}..{max}{}, {}",
                    if *null { " (or null)" } else { "" },
                    got()
                ))),
            },
            Kind::Word(words) => match v.as_str() {
                Some(s) if words.iter().any(|w| w == s) => Ok(v.clone()),
                _ => Err(bad(format!(
                    "option {key} must be one of {}, {}",
                    words.join(", "),
                    got()
                ))),
            },
            Kind::Preset => match v.as_str() {
                Some(s) if self.presets.contains_key(s) => Ok(v.clone()),
                _ => Err(bad(format!(
                    "option {key} must be one of {}, {}",
                    self.preset_names.join(", "),
                    got()
                ))),
            },
            // the range is checked once players is known
            Kind::Seat => match (v.as_str(), as_int(v)) {
                (Some("random"), _) => Ok(v.clone()),
                (_, Some(x)) if (0..64).contains(&x) => Ok(Value::from(x)),
                _ => Err(bad(format!(
                    "option {key} must be 'random' or a seat 0..players-1, {}",
                    got()
                ))),
            },
            Kind::IntOrWord {
                ints,
                min,
                max,
                words,
            } => {
                let int_ok = |x: i64| match ints {
                    Some(is) => is.contains(&x),
                    None => (*min..=*max).contains(&x),
                };
                match (as_int(v), v.as_str()) {
                    (Some(x), _) if int_ok(x) => Ok(Value::from(x)),
                    (_, Some(s)) if words.iter().any(|w| w == s) => Ok(v.clone()),
                    _ => {
                        let ints = match ints {
                            Some(is) => is
                                .iter()
                                .map(|i| i.to_string())
                                .collect::<Vec<_>>()
                                .join(", "),
                            None => format!("an int in {min}..{max}"),
                        };
                        // an option of a few ints only (no words) names just the ints
                        let words = if words.is_empty() {
                            String::new()
                        } else {
                            format!(" or one of {}", words.join(", "))
                        };
                        Err(bad(format!(
                            "option {key} must be {ints}{words}, {}",
                            got()
                        )))
                    }
                }
            }
            Kind::Words(words) => {
                let err = || {
                    bad(format!(
                        "option {key} must be a list of distinct names from {}, {}",
                        words.join(", "),
                        got()
                    ))
                };
                let items = v.as_array().ok_or_else(err)?;
                let mut seen: Vec<&str> = Vec::new();
                for x in items {
                    match x.as_str() {
                        Some(s) if words.iter().any(|w| w == s) && !seen.contains(&s) => {
                            seen.push(s)
                        }
                        _ => return Err(err()),
                    }
                }
                Ok(v.clone())
            }
            Kind::Card { null } => match v {
                Value::Null if *null => Ok(Value::Null),
                Value::String(s) => match Card::parse(s) {
                    Ok(c) => Ok(Value::from(c.to_string())),
                    Err(_) => Err(bad(format!(
                        "option {key} must be a card such as '7h'{}, {}",
                        if *null { " or null" } else { "" },
                        got()
                    ))),
                },
                _ => Err(bad(format!(
                    "option {key} must be a card such as '7h'{}, {}",
                    if *null { " or null" } else { "" },
                    got()
                ))),
            },
            Kind::Map { keys, min, max } => {
                let what = match keys {
                    Some(ks) => format!("names from {}", ks.join(", ")),
                    None => "cards such as '7h'".to_string(),
                };
                let err = || {
                    bad(format!(
                        "option {key} must be a dict of {what} to ints in {min}..{max}, {}",
                        got()
                    ))
                };
                let m = v.as_object().ok_or_else(err)?;
                let mut out = Map::new();
                for (k, x) in m {
                    let name = match keys {
                        Some(ks) if ks.contains(k) => k.clone(),
                        Some(_) => return Err(err()),
                        None => Card::parse(k).map_err(|_| err())?.to_string(),
                    };
                    match as_int(x) {
                        Some(i) if (*min..=*max).contains(&i) && !out.contains_key(&name) => {
                            out.insert(name, Value::from(i));
                        }
                        _ => return Err(err()),
                    }
                }
                Ok(Value::Object(out))
            }
        }
    }

    /// The game's typed options at the table's defaults (their `Default`): `typed` reads the
    /// resolved defaults. A data file whose defaults are refused is a bug of the project: a panic.
    pub fn typed_defaults<T>(&self, typed: impl FnOnce(&mut Resolved) -> Result<T>) -> T {
        self.resolve(&Value::Object(Map::new()))
            .and_then(|m| typed(&mut Resolved(m)))
            .unwrap_or_else(|e| panic!("{}.json: {e}", self.game))
    }

    /// Resolves user options (a JSON object) to every option's value (module doc).
    pub fn resolve(&self, input: &Value) -> Result<Map<String, Value>> {
        let Value::Object(given) = input else {
            return Err(bad(format!(
                "options must be a JSON object of option names to values, got {}",
                type_name(input)
            )));
        };
        let mut explicit = Map::new();
        for (k, v) in given {
            let def = self.def(k).ok_or_else(|| {
                bad(format!(
                    "unknown option {:?}: known options are {}",
                    excerpt(k),
                    self.names().collect::<Vec<_>>().join(", ")
                ))
            })?;
            explicit.insert(k.clone(), self.check(def, v)?);
        }
        let mut values: Map<String, Value> = self
            .options
            .iter()
            .map(|o| (o.name.clone(), o.default.clone()))
            .collect();
        let variant = explicit
            .get("variant")
            .or_else(|| values.get("variant"))
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(name) = &variant {
            let allowed = self.players_of(Some(name));
            let players = match explicit.get("players") {
                Some(p) => p.as_i64().unwrap_or(-1),
                None => allowed.first().copied().unwrap_or(0),
            };
            if !allowed.contains(&players) {
                let list: Vec<String> = allowed.iter().map(|p| p.to_string()).collect();
                return Err(bad(format!(
                    "variant {name} is played by {} players, not players={players}",
                    list.join(", ")
                )));
            }
            values.insert("variant".into(), Value::from(name.as_str()));
            values.insert("players".into(), Value::from(players));
            self.apply_preset(name, &mut values, &explicit, 0);
        }
        for (k, v) in &explicit {
            values.insert(k.clone(), v.clone());
        }
        let players = values.get("players").and_then(Value::as_i64).unwrap_or(0);
        for def in self.options.iter().filter(|o| matches!(o.kind, Kind::Seat)) {
            if let Some(x) = values[&def.name].as_i64() {
                if x >= players {
                    return Err(bad(format!(
                        "option {} must be 'random' or a seat 0..{}, got {x}",
                        def.name,
                        players - 1
                    )));
                }
            }
        }
        Ok(values)
    }

    fn apply_preset(
        &self,
        name: &str,
        values: &mut Map<String, Value>,
        explicit: &Map<String, Value>,
        depth: u32,
    ) {
        let Some(p) = self.presets.get(name) else {
            return;
        };
        if let Some(base) = p.base.as_deref().filter(|_| depth < 8) {
            self.apply_preset(base, values, explicit, depth + 1);
        }
        values.extend(p.set.clone());
        for (cond, set) in &p.when {
            let holds = cond
                .iter()
                .all(|(k, want)| explicit.get(k).or_else(|| values.get(k)) == Some(want));
            if holds {
                values.extend(set.clone());
            }
        }
    }
}

/// Resolved options, read by name into a game's typed options. The values were checked by
/// [`OptionsSpec::resolve`]; a mismatch between a game's code and its data file is reported as
/// an `InvalidOption` naming the option, never a panic.
pub struct Resolved(pub Map<String, Value>);

impl Resolved {
    fn mismatch(key: &str, want: &str) -> GameError {
        bad(format!(
            "option {key}: expected {want} (the game's option table and code disagree)"
        ))
    }
    pub fn get(&self, key: &str) -> Result<&Value> {
        self.0
            .get(key)
            .ok_or_else(|| Self::mismatch(key, "a value"))
    }
    pub fn int(&self, key: &str) -> Result<i64> {
        as_int(self.get(key)?).ok_or_else(|| Self::mismatch(key, "an int"))
    }
    /// An int, or `None` for null.
    pub fn opt_int(&self, key: &str) -> Result<Option<i64>> {
        match self.get(key)? {
            Value::Null => Ok(None),
            v => as_int(v)
                .map(Some)
                .ok_or_else(|| Self::mismatch(key, "an int or null")),
        }
    }
    pub fn bool(&self, key: &str) -> Result<bool> {
        self.get(key)?
            .as_bool()
            .ok_or_else(|| Self::mismatch(key, "a bool"))
    }
    pub fn str(&self, key: &str) -> Result<&str> {
        self.get(key)?
            .as_str()
            .ok_or_else(|| Self::mismatch(key, "a str"))
    }
    /// A word option as its typed enum.
    pub fn word<T>(&self, key: &str, parse: fn(&str) -> Option<T>) -> Result<T> {
        parse(self.str(key)?).ok_or_else(|| Self::mismatch(key, "one of its words"))
    }
    /// A word option of two words as a bool: `false` for `no`, `true` for `yes` (any other word is
    /// a mismatch with the data file).
    pub fn either(&self, key: &str, no: &str, yes: &str) -> Result<bool> {
        match self.str(key)? {
            w if w == no => Ok(false),
            w if w == yes => Ok(true),
            _ => Err(Self::mismatch(key, &format!("{no} or {yes}"))),
        }
    }
    /// A `seat` option: `None` for `random`.
    pub fn seat(&self, key: &str) -> Result<Option<u8>> {
        match self.get(key)? {
            Value::String(s) if s == "random" => Ok(None),
            v => as_int(v)
                .map(|x| Some(x as u8))
                .ok_or_else(|| Self::mismatch(key, "random or a seat")),
        }
    }
    /// Canonical JSON of every option (serde_json maps are sorted by key).
    pub fn to_json(&self) -> String {
        Value::Object(self.0.clone()).to_string()
    }
}

/// A closed set of option words as a Rust enum: `NAMES`, `as_str` and `parse`.
#[macro_export]
macro_rules! word_enum {
    ($(#[$meta:meta])* $name:ident { $($var:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($var),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $text),+ }
            }
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$var),)+ _ => None }
            }
        }
    };
}

/// `Default` for a game's typed options: the defaults of its option table (the `spec()` of the
/// module invoking it), read by the type's `from_resolved`.
#[macro_export]
macro_rules! defaults_from_table {
    ($Options:ty) => {
        impl Default for $Options {
            fn default() -> Self {
                spec().typed_defaults(Self::from_resolved)
            }
        }
    };
}

/// A game's option spec, read once from its data file (`python/tapete/data/<game>.json`).
#[macro_export]
macro_rules! options_spec {
    ($file:literal) => {{
        static SPEC: std::sync::OnceLock<$crate::options::OptionsSpec> = std::sync::OnceLock::new();
        SPEC.get_or_init(|| {
            $crate::options::OptionsSpec::from_data(include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../python/tapete/data/",
                $file
            )))
            .unwrap_or_else(|e| panic!("{}: {e}", $file))
        })
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A toy game's data file, shared with the Python resolver's test (tests/test_options.py).
    const DATA: &str = include_str!("../../../tests/data/toy_options.json");

    fn resolve(v: serde_json::Value) -> Result<Map<String, Value>> {
        OptionsSpec::from_data(DATA).unwrap().resolve(&v)
    }

    #[test]
    fn defaults_then_preset_then_when_then_given() {
        let r = resolve(json!({})).unwrap();
        assert_eq!(
            (r["players"].clone(), r["hand"].clone()),
            (json!(2), json!(3))
        );
        // the preset's own player list, default first
        let r = resolve(json!({"variant": "big"})).unwrap();
        assert_eq!(
            (r["players"].clone(), r["hand"].clone()),
            (json!(4), json!(5))
        );
        // a `when` rule reads the given players, and a given option beats the preset
        assert_eq!(
            resolve(json!({"variant": "big", "players": 6})).unwrap()["hand"],
            json!(4)
        );
        assert_eq!(
            resolve(json!({"variant": "big", "deal": "long"})).unwrap()["hand"],
            json!(9)
        );
        assert_eq!(
            resolve(json!({"variant": "big", "hand": 7})).unwrap()["hand"],
            json!(7)
        );
        // `base` applies first, and its `when` rules too
        let r = resolve(json!({"variant": "bigger", "players": 6})).unwrap();
        assert_eq!((r["hand"].clone(), r["cap"].clone()), (json!(4), json!(2)));
        assert_eq!(r["variant"], json!("bigger"));
    }

    #[test]
    fn either_reads_a_two_word_option_as_a_bool() {
        let r = Resolved(json!({"deal": "long"}).as_object().unwrap().clone());
        assert!(r.either("deal", "short", "long").unwrap());
        assert!(!r.either("deal", "long", "short").unwrap());
        // a word the code does not name: the code and the data file disagree
        assert!(matches!(
            r.either("deal", "short", "medium"),
            Err(GameError::InvalidOption(_))
        ));
    }

    #[test]
    fn refusals_are_invalid_option() {
        for bad in [
            json!({"nope": 1}),
            json!({"players": 5}), // the game's list is 2, 3, 4
            json!({"variant": "big", "players": 2}), // big allows 4 and 6
            json!({"dealer": 3}),  // a seat of 2 players
            json!({"hand": 1.0}),
            json!({"hand": true}),
            json!({"cap": 10}),
            json!({"kinds": ["a", "a"]}),
            json!({"kinds": "a"}),
            json!({"wild": "1x"}),
            json!({"bonus": {"7d": 4}}),
            json!({"bonus": {"Zz": 1}}),
            json!({"limit": 3}),
            json!({"variant": "huge"}),
            json!([1]),
        ] {
            assert!(
                matches!(resolve(bad.clone()), Err(GameError::InvalidOption(_))),
                "{bad}"
            );
        }
        let e = resolve(json!({"size": 13})).unwrap_err();
        assert!(
            e.message().ends_with("must be 12, 15, got an int 13"),
            "{e}"
        );
        let r = resolve(json!({"cap": null, "wild": "7D", "bonus": {"10h": 2}, "limit": "none"}))
            .unwrap();
        assert_eq!(r["wild"], json!("7d"));
        assert_eq!(r["bonus"], json!({"Th": 2}));
    }
}
