//! `tapete._core`: thin PyO3 wrappers over tapete-core. Errors are mapped once (errors.rs);
//! batch work releases the GIL.

use pyo3::prelude::*;

mod args;
mod bind;
mod burako;
mod errors;
mod escoba;
mod mosca;
mod musta_maija;
mod sim;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    escoba::register(m)?;
    musta_maija::register(m)?;
    mosca::register(m)?;
    burako::register(m)?;
    Ok(())
}
