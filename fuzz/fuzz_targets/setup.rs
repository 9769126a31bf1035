//! `setup` on arbitrary JSON: a refusal is an error, never a panic; an accepted position
//! round-trips, passes every position check and plays on without getting stuck.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tapete_fuzz::{read_position, PositionReader};

fuzz_target!(|data: &[u8]| read_position(data, PositionReader::Setup));
