//! `{{#machine FACT}}`: a fact about the primary machine (its C library, core count, CPU, …) in
//! running prose, from its data file, so a sentence about "this machine" describes the machine the
//! figures come from, whoever reran the bench.

use super::escape;
use crate::data::Data;

/// The facts a chapter may cite.
pub const FACTS: &[&str] = &["libc", "cores", "cpu", "os", "kernel", "id", "rustc"];

pub fn fact(fact: &str, data: &Data) -> Result<String, String> {
    let file = data.primary()?;
    let m = &file.machine;
    let text = match fact {
        "libc" => m.libc.clone(),
        "cores" => m.logical_cores.to_string(),
        "cpu" => m.cpu_model.clone(),
        "os" => m.os.clone(),
        "kernel" => m.kernel.clone(),
        "id" => m.id.clone(),
        "rustc" => file.run.rustc.clone(),
        _ => {
            return Err(format!(
                "`{fact}` is not a machine fact (known: {})",
                FACTS.join(", ")
            ));
        }
    };
    Ok(format!(
        "<span class=\"lab-machine-fact\" data-machine-fact=\"{fact}\" data-machine=\"{}\">{}</span>",
        escape(&m.id),
        escape(&text)
    ))
}
