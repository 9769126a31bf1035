//! Hand declarations (docs/rules/escoba.md §2.7, §2.8): the tuzzoli every hand dealt declares and
//! the knocks, announced to all with their points.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt};
use crate::games::escoba::knock;
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{lists, Seen, ST};
use crate::games::escoba::{EscobaState, MAX_DECLS};

pub struct Declarations;

impl Feature<EscobaState> for Declarations {
    state_key! { "declarations", ReadAt::Sweeps, |st| lists(st.declarations()) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.tuzzoli || knock::enabled(o)
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        if let Some(b) = w.block(w.sides) {
            let st = b.st;
            for &[seat, kind, _] in st.declarations() {
                b.out[st.side(seat as usize)] += knock::decl_points(st.opts(), kind) as f32;
            }
        }
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        let o = &st.cfg.opts;
        let ds = ST.list(&m["declarations"], "declarations")?;
        if ds.len() > MAX_DECLS {
            return Err(ST.err(format!(
                "declarations may list at most {MAX_DECLS} entries, got {}",
                ds.len()
            )));
        }
        let lo = if o.tuzzoli { 1 } else { knock::CIRULLA as i64 };
        let hi = if st.cfg.knocks {
            knock::CIRULLA_DECINO
        } else {
            knock::NAPOLI
        };
        let mut last_at = 0;
        for (i, d) in ds.iter().enumerate() {
            let what = format!("declarations[{i}]");
            let e = ST.list_of(d, &what, 3)?;
            let seat = ST.int(&e[0], &what, 0, st.cfg.n as i64 - 1)? as u8;
            let kind = ST.int(&e[1], &what, lo, hi as i64)? as u8;
            let at = ST.int(&e[2], &what, last_at, st.n_sweeps as i64)?;
            last_at = at;
            st.decls.list[i] = [seat, kind, at as u8];
            st.decls.n += 1;
        }
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        // tuzzoli are announced, not shown (docs/rules/escoba.md §2.8): the seat, the kind and its points
        s.push_str(",\"declarations\":[");
        for (i, &[seat, kind, _]) in st.declarations().iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"seat\":{seat},\"declaration\":\"{}\",\"points\":{}}}",
                knock::decl_name(kind),
                knock::decl_points(&st.cfg.opts, kind)
            );
        }
        s.push(']');
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.decls.n = 0;
    }
}
