//! The one JSON layer: a writer of canonical JSON (keys sorted, compact, docs/design.md §4) and
//! typed readers that turn a bad value into the `GameError` the caller names, quoting at most a
//! short excerpt of it.

use std::fmt::{Display, Write as _};

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::tiles::{parse_tile, tile_text, TileCounts, TileType, NUM_TYPES};

/// How much of a bad input an error message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// `text` cut to [`EXCERPT_CHARS`] characters, with `…` where it was cut.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The longest action or move text a game reads (docs/design.md §4): longer text is refused
/// before any parser sees it.
pub const MAX_NOTATION_CHARS: usize = 1000;

/// `text` if it is no longer than [`MAX_NOTATION_CHARS`], else `InvalidNotation` quoting an excerpt.
pub fn notation_text<'a>(text: &'a str, what: &str) -> Result<&'a str> {
    let chars = text.chars().count();
    if chars > MAX_NOTATION_CHARS {
        return Err(GameError::InvalidNotation(format!(
            "{what} of {chars} characters is too long (at most {MAX_NOTATION_CHARS}): {:?}",
            excerpt(text)
        )));
    }
    Ok(text)
}

/// `e` with every quote of the whole `input` cut to its excerpt: the one bound on what a message
/// echoes, whichever parser wrote it.
pub fn bound_quotes(e: GameError, input: &str) -> GameError {
    if input.chars().count() <= EXCERPT_CHARS || input.is_empty() {
        return e;
    }
    e.map_message(|m| m.replace(input, &excerpt(input)))
}

/// A JSON value as an error message quotes it.
pub fn shown(v: &Value) -> String {
    excerpt(&v.to_string())
}

/// Parses JSON text; a syntax error or a key given twice in one object is `err` naming `what`.
/// Nesting deeper than 128 levels is a syntax error (serde_json's recursion limit).
pub fn parse(text: &str, what: &str, err: fn(String) -> GameError) -> Result<Value> {
    let v =
        serde_json::from_str(text).map_err(|e| err(format!("{what} are not valid JSON: {e}")))?;
    if let Some(key) = duplicate_key(text) {
        return Err(err(format!(
            "{what} are not valid JSON: the key {:?} is given twice in one object",
            excerpt(&key)
        )));
    }
    Ok(v)
}

/// The first key given twice in one object of `text`, which is valid JSON (serde_json keeps the
/// last of duplicate keys silently; canonical JSON has none).
pub fn duplicate_key(text: &str) -> Option<String> {
    use std::collections::HashSet;
    // per open bracket: the keys of an object (None for a list), and whether a key comes next
    let mut stack: Vec<(Option<HashSet<String>>, bool)> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => stack.push((Some(HashSet::new()), true)),
            b'[' => stack.push((None, false)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some((Some(_), expect)) = stack.last_mut() {
                    *expect = true;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some((Some(keys), expect)) = stack.last_mut() {
                    if *expect {
                        *expect = false;
                        let raw = text.get(start..=i.min(text.len() - 1))?;
                        let key: String = serde_json::from_str(raw).ok()?;
                        if !keys.insert(key.clone()) {
                            return Some(key);
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// What a JSON value is, for messages ("an int", "a list"...).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(_) => "an int",
        Value::String(_) => "a str",
        Value::Array(_) => "a list",
        Value::Object(_) => "a dict",
    }
}

/// An integer JSON value (never a bool or a float); `None` when it does not fit in an i64.
pub fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => n.as_i64(),
        _ => None,
    }
}

// ----- reading -----

/// Typed readers that report a bad value as one kind of error (`Read::STATE` for state JSON and
/// setup, `Read::NOTATION` for cards given to rule primitives...).
#[derive(Clone, Copy)]
pub struct Read(pub fn(String) -> GameError);

impl Read {
    pub const STATE: Read = Read(GameError::InvalidState);
    pub const NOTATION: Read = Read(GameError::InvalidNotation);
    pub const OPTION: Read = Read(GameError::InvalidOption);

    pub fn err(self, msg: String) -> GameError {
        (self.0)(msg)
    }

    /// An int in `lo..=hi`.
    pub fn int(self, v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64> {
        match as_int(v) {
            Some(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(self.err(format!(
                "{what} must be an int in {lo}..{hi}, got {}",
                shown(v)
            ))),
        }
    }

    pub fn bool(self, v: &Value, what: &str) -> Result<bool> {
        v.as_bool()
            .ok_or_else(|| self.err(format!("{what} must be a bool, got {}", shown(v))))
    }

    pub fn str<'a>(self, v: &'a Value, what: &str) -> Result<&'a str> {
        v.as_str()
            .ok_or_else(|| self.err(format!("{what} must be a str, got {}", shown(v))))
    }

    /// One of `words`, as its index.
    pub fn word(self, v: &Value, what: &str, words: &[&str]) -> Result<usize> {
        v.as_str()
            .and_then(|s| words.iter().position(|w| *w == s))
            .ok_or_else(|| {
                self.err(format!(
                    "{what} must be one of {}, got {}",
                    words.join(", "),
                    shown(v)
                ))
            })
    }

    pub fn list<'a>(self, v: &'a Value, what: &str) -> Result<&'a Vec<Value>> {
        v.as_array()
            .ok_or_else(|| self.err(format!("{what} must be a list, got {}", shown(v))))
    }

    /// A list of exactly `len` entries.
    pub fn list_of<'a>(self, v: &'a Value, what: &str, len: usize) -> Result<&'a Vec<Value>> {
        let a = self.list(v, what)?;
        if a.len() != len {
            return Err(self.err(format!("{what} must have {len} entries, got {}", a.len())));
        }
        Ok(a)
    }

    pub fn object<'a>(self, v: &'a Value, what: &str) -> Result<&'a Map<String, Value>> {
        v.as_object()
            .ok_or_else(|| self.err(format!("{what} must be a JSON object, got {}", shown(v))))
    }

    /// `v` as an object whose keys are all among `known` (`required` of them must be present).
    pub fn object_with<'a>(
        self,
        v: &'a Value,
        what: &str,
        known: &[&str],
        required: &[&str],
    ) -> Result<&'a Map<String, Value>> {
        let m = self.object(v, what)?;
        if let Some(k) = m.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(self.err(format!(
                "{what}: unknown key {:?}: expected {}",
                excerpt(k),
                known.join(", ")
            )));
        }
        if let Some(k) = required.iter().find(|k| !m.contains_key(**k)) {
            return Err(self.err(format!("{what} needs the key {k:?}")));
        }
        Ok(m)
    }

    /// A `setup` spec (each game's contract): an object whose keys are all among `known`, read
    /// through the returned `get`, to which a null value is an absent key.
    pub fn setup_spec<'a>(
        self,
        spec: &'a Value,
        known: &[&str],
    ) -> Result<impl Fn(&str) -> Option<&'a Value>> {
        let m = self.object_with(spec, "setup spec", known, &[])?;
        Ok(move |k: &str| m.get(k).filter(|v| !v.is_null()))
    }

    /// A u64 written as a decimal string (the RNG state): no sign, no leading zero.
    pub fn u64_text(self, v: &Value, what: &str) -> Result<u64> {
        match v.as_str() {
            Some(s)
                if !s.is_empty()
                    && s.bytes().all(|b| b.is_ascii_digit())
                    && (s == "0" || !s.starts_with('0')) =>
            {
                s.parse::<u64>().map_err(|_| {
                    self.err(format!("{what} {:?} does not fit in 64 bits", excerpt(s)))
                })
            }
            _ => Err(self.err(format!(
                "{what} must be a decimal string of a u64, got {}",
                shown(v)
            ))),
        }
    }

    /// `{what}: {v} is not a {kind}: expected ...`, naming the text form too where `text` is
    /// allowed.
    fn not_a(
        self,
        v: &Value,
        what: &str,
        kind: &str,
        text: bool,
        with_text: &str,
        ids_only: &str,
    ) -> GameError {
        let expected = if text { with_text } else { ids_only };
        self.err(format!(
            "{what}: {} is not a {kind}: expected {expected}",
            shown(v)
        ))
    }

    /// Every item of the list `v`, read by `item`.
    pub fn each<T>(
        self,
        v: &Value,
        what: &str,
        item: impl FnMut(&Value) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.list(v, what)?.iter().map(item).collect()
    }

    /// A card of the 52-card space: an id `0..=51`, or (when `text`) its notation.
    pub fn card(self, v: &Value, what: &str, text: bool) -> Result<Card> {
        match v {
            Value::String(s) if text => {
                Card::parse(s).map_err(|e| self.err(format!("{what}: {e}")))
            }
            Value::Number(_) if as_int(v).is_some_and(|i| (0..52).contains(&i)) => {
                Ok(Card(as_int(v).unwrap_or(0) as u8))
            }
            _ => Err(self.not_a(
                v,
                what,
                "card",
                text,
                "text like '7h' or an id 0..51",
                "an id 0..51",
            )),
        }
    }

    pub fn cards(self, v: &Value, what: &str, text: bool) -> Result<Vec<Card>> {
        self.each(v, what, |c| self.card(c, what, text))
    }

    /// Distinct cards (in ascending id order when `ascending`: canonical JSON lists sets so).
    pub fn card_set(self, v: &Value, what: &str, text: bool, ascending: bool) -> Result<CardSet> {
        let cards = self.cards(v, what, text)?;
        let mut set = CardSet::EMPTY;
        for (i, c) in cards.iter().enumerate() {
            if set.contains(*c) {
                return Err(self.err(format!("{what}: card {c} appears twice")));
            }
            if ascending && i > 0 && cards[i - 1] > *c {
                return Err(self.err(format!("{what} must be in ascending id order")));
            }
            set.insert(*c);
        }
        Ok(set)
    }

    /// A tile type: an id `0..=52`, or (when `text`) its notation (`R5`, `K13`, `J*`).
    pub fn tile(self, v: &Value, what: &str, text: bool) -> Result<TileType> {
        match v {
            Value::String(s) if text => parse_tile(s).map_err(|e| self.err(format!("{what}: {e}"))),
            _ => match as_int(v) {
                Some(i) if (0..NUM_TYPES as i64).contains(&i) => Ok(i as TileType),
                _ => Err(self.not_a(
                    v,
                    what,
                    "tile",
                    text,
                    "text like 'R5' or 'J*', or an id 0..52",
                    "an id 0..52",
                )),
            },
        }
    }

    /// A list of tiles, in the given order (a type may repeat).
    pub fn tiles(self, v: &Value, what: &str, text: bool) -> Result<Vec<TileType>> {
        self.each(v, what, |t| self.tile(t, what, text))
    }

    /// A multiset of tiles: no type more than twice (the pack holds two of each), and, when
    /// `ascending`, listed in ascending type order (canonical JSON lists multisets so).
    pub fn tile_counts(
        self,
        v: &Value,
        what: &str,
        text: bool,
        ascending: bool,
    ) -> Result<TileCounts> {
        let tiles = self.tiles(v, what, text)?;
        let mut c = TileCounts::EMPTY;
        for (i, &t) in tiles.iter().enumerate() {
            if c.get(t) >= 2 {
                return Err(self.err(format!(
                    "{what} holds the tile {} more than twice (the pack has two of each)",
                    tile_text(t)
                )));
            }
            if ascending && i > 0 && tiles[i - 1] > t {
                return Err(self.err(format!("{what} must be in ascending type order")));
            }
            c.add(t);
        }
        Ok(c)
    }

    /// Claims `set` for one zone: a card already claimed by another zone is an error.
    pub fn claim(self, seen: &mut CardSet, set: CardSet, what: &str) -> Result<()> {
        if let Some(c) = seen.inter(set).first() {
            return Err(self.err(format!("{what}: card {c} is also elsewhere")));
        }
        *seen = seen.union(set);
        Ok(())
    }
}

/// The most actions a state's `history` may hold, which is the decision cap
/// (`game::MAX_DECISIONS`, docs/design.md §8): no match lasts longer. Each game checks that every
/// entry is one of its action ids.
pub const MAX_HISTORY: u64 = 1_000_000;

/// The object of a state's JSON text after the checks every game shares: exactly the game's
/// `keys`, `"game"` naming it, `"version"` 1 and `"options"` equal to the game's resolved options.
pub fn state_object(
    text: &str,
    game: &str,
    keys: &[&str],
    options_json: &str,
) -> Result<Map<String, Value>> {
    let bad = |why: String| GameError::InvalidState(format!("invalid {game} state: {why}"));
    let v: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON ({e})")))?;
    if let Some(key) = duplicate_key(text) {
        return Err(bad(format!("the key {:?} is given twice", excerpt(&key))));
    }
    let Value::Object(m) = v else {
        return Err(bad("expected a JSON object".into()));
    };
    if m.len() != keys.len() || !keys.iter().all(|k| m.contains_key(*k)) {
        let missing: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| !m.contains_key(*k))
            .collect();
        let extra: Vec<String> = m
            .keys()
            .filter(|k| !keys.contains(&k.as_str()))
            .map(|k| excerpt(k))
            .collect();
        return Err(bad(format!(
            "keys: missing {missing:?}, unexpected {extra:?}"
        )));
    }
    if let Some(Value::Array(h)) = m.get("history") {
        if h.len() as u64 > MAX_HISTORY {
            return Err(bad(format!(
                "history holds {} actions, more than the longest game ({MAX_HISTORY})",
                h.len()
            )));
        }
    }
    if as_int(&m["version"]) != Some(1) {
        return Err(bad("version must be 1".into()));
    }
    if m["game"].as_str() != Some(game) {
        return Err(bad(format!("game must be \"{game}\"")));
    }
    // compared as canonical text: a Value compared with a str would be a JSON string
    let options = m["options"].to_string();
    if options != options_json {
        return Err(bad(
            "options differ from this game's resolved options".into()
        ));
    }
    Ok(m)
}

// ----- writing -----

/// A canonical JSON object written field by field, keys in ascending order (checked in debug
/// builds), with no whitespace: what `json.dumps(sort_keys=True, separators=(",", ":"))` prints.
pub struct Obj<'a> {
    out: &'a mut String,
    first: bool,
    #[cfg(debug_assertions)]
    last: &'static str,
}

impl<'a> Obj<'a> {
    pub fn new(out: &'a mut String) -> Obj<'a> {
        out.push('{');
        Obj {
            out,
            first: true,
            #[cfg(debug_assertions)]
            last: "",
        }
    }

    fn key(&mut self, k: &'static str) -> &mut String {
        #[cfg(debug_assertions)]
        {
            debug_assert!(self.first || self.last < k, "JSON keys out of order: {k}");
            self.last = k;
        }
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\":");
        self.out
    }

    /// A number, bool or any value already written as JSON.
    pub fn raw(&mut self, k: &'static str, v: impl Display) -> &mut Self {
        let out = self.key(k);
        let _ = write!(out, "{v}");
        self
    }

    pub fn str(&mut self, k: &'static str, v: &str) -> &mut Self {
        let out = self.key(k);
        push_str(out, v);
        self
    }

    /// A u64 as a decimal string (JSON numbers lose precision above 2^53 in many readers).
    pub fn u64_text(&mut self, k: &'static str, v: u64) -> &mut Self {
        let out = self.key(k);
        let _ = write!(out, "\"{v}\"");
        self
    }

    pub fn ints<T: Display>(
        &mut self,
        k: &'static str,
        xs: impl IntoIterator<Item = T>,
    ) -> &mut Self {
        push_ints(self.key(k), xs);
        self
    }

    /// A set of cards as its ids, ascending.
    pub fn cards(&mut self, k: &'static str, set: CardSet) -> &mut Self {
        push_ints(self.key(k), set.iter().map(|c| c.0));
        self
    }

    /// One card set per entry (hands by seat...).
    pub fn card_sets(&mut self, k: &'static str, sets: &[CardSet]) -> &mut Self {
        self.lists(k, sets.iter().map(|s| s.iter().map(|c| c.0)))
    }

    /// A list of int lists.
    pub fn lists<I, T>(&mut self, k: &'static str, rows: impl IntoIterator<Item = I>) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: Display,
    {
        let out = self.key(k);
        out.push('[');
        for (i, row) in rows.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_ints(out, row);
        }
        out.push(']');
        self
    }

    pub fn end(self) {
        self.out.push('}');
    }
}

/// `[a,b,c]`.
pub fn push_ints<T: Display>(out: &mut String, xs: impl IntoIterator<Item = T>) {
    out.push('[');
    for (i, x) in xs.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

/// Writes `x` as a JSON string: for texts that need no escaping (card and tile names).
pub struct Quoted<T>(pub T);

impl<T: Display> Display for Quoted<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0)
    }
}

/// A JSON string literal, escaped as Python's `json.dumps` escapes it (ASCII only).
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Card texts of a set (views list cards as text).
pub fn card_texts(set: CardSet) -> Value {
    Value::Array(set.iter().map(|c| Value::String(c.to_string())).collect())
}

/// Tile texts of a multiset, ascending type (views list tiles as text).
pub fn tile_texts(c: TileCounts) -> Value {
    Value::Array(
        c.to_vec()
            .into_iter()
            .map(|t| Value::String(tile_text(t)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writer_is_canonical() {
        let mut s = String::new();
        let mut o = Obj::new(&mut s);
        o.ints("a", [1, 2])
            .str("b", "x\"é")
            .raw("c", true)
            .u64_text("d", u64::MAX)
            .card_sets("e", &[CardSet(0b101), CardSet::EMPTY]);
        o.end();
        assert_eq!(
            s,
            r#"{"a":[1,2],"b":"x\"\u00e9","c":true,"d":"18446744073709551615","e":[[0,2],[]]}"#
        );
        // the same text Python's json.dumps(sort_keys=True, separators=(",", ":")) prints
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["b"], "x\"é");
    }

    #[test]
    fn readers_name_what_is_wrong() {
        let r = Read::STATE;
        assert_eq!(r.int(&Value::from(3), "x", 0, 5), Ok(3));
        assert!(
            matches!(r.int(&Value::from(6), "x", 0, 5), Err(GameError::InvalidState(m)) if m.contains("0..5"))
        );
        assert!(r.int(&Value::from(true), "x", 0, 5).is_err());
        assert!(r.int(&Value::from(1.0), "x", 0, 5).is_err());
        assert_eq!(
            r.u64_text(&Value::from("18446744073709551615"), "rng"),
            Ok(u64::MAX)
        );
        assert!(r
            .u64_text(&Value::from("18446744073709551616"), "rng")
            .is_err());
        assert!(r.u64_text(&Value::from("01"), "rng").is_err());
        assert_eq!(r.card(&Value::from("7d"), "c", true), Ok(Card(19)));
        assert!(r.card(&Value::from("7d"), "c", false).is_err());
        assert!(r
            .card_set(&serde_json::json!([3, 1]), "s", false, true)
            .is_err());
        assert!(r
            .card_set(&serde_json::json!([1, 1]), "s", false, false)
            .is_err());
        assert_eq!(r.tile(&Value::from("k13"), "t", true), Ok(25));
        assert_eq!(r.tile(&Value::from(52), "t", false), Ok(52));
        for bad in [
            json!("R5"),
            json!(53),
            json!(-1),
            json!(5.0),
            json!(true),
            json!([1]),
        ] {
            assert!(r.tile(&bad, "t", false).is_err(), "{bad}");
        }
        assert!(r.tile(&Value::from("R14"), "t", true).is_err());
        assert_eq!(
            r.tile_counts(&json!(["R5", "J*", "R5"]), "m", true, false)
                .map(|c| c.to_vec()),
            Ok(vec![4, 4, 52])
        );
        assert!(r.tile_counts(&json!([4, 4, 4]), "m", false, false).is_err());
        assert!(r.tile_counts(&json!([5, 4]), "m", false, true).is_err());
        assert_eq!(
            tile_texts(TileCounts::from_slice(&[52, 0, 0])),
            json!(["R1", "R1", "J*"])
        );
        assert_eq!(duplicate_key(r#"{"a":1,"b":{"a":2},"c":[{"a":1}]}"#), None);
        assert_eq!(
            duplicate_key(r#"{"a":1,"b":[1,{"x":"\"}","x":2}]}"#),
            Some("x".into())
        );
        assert_eq!(duplicate_key(r#"{"a":1,"\u0061":2}"#), Some("a".into()));
        assert!(parse(r#"{"a":1,"a":1}"#, "x", GameError::InvalidState).is_err());
        let long = "x".repeat(1000);
        let e = r.str(&Value::from(1), &long).unwrap_err();
        assert!(e.message().len() > 1000); // `what` is ours, never the user's
        assert!(shown(&Value::from(long.as_str())).chars().count() <= EXCERPT_CHARS + 1);
    }
}
