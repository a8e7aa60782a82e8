//! Chapter "Capacity and ceilings" as a reader uses it: the rounds widget against the lab's pool
//! run natively, bad input, the live quiz, and no browser errors.

mod common;

use anyhow::{Result, ensure};
use common::{absent, explains, fresh_rng, no_error, num, reveal, shows_step, step_at};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::chapter::capacity::scenario::{Setup, run_rounds};

const PAGE: &str = "capacity.html";

#[tokio::test]
async fn rounds_widget_runs_the_real_pool() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "capacity").await?;
    // The chapter asks first (the +1 thread slot is the reader's to find); the Thai article's
    // machine, 8 × 32 with 258 buffers of 128 bytes, is the reader's to type.
    ensure!(absent(&w, "cap-capacity").await? && !absent(&w, "cap-predict").await?);
    let mut rng = fresh_rng("capacity setups");
    let mut setups = vec![
        Setup {
            partitions: 8,
            arrays_per_partition: 32,
            held: 258,
            size: 128,
        },
        Setup {
            partitions: 2,
            arrays_per_partition: 32,
            held: 128,
            size: 128,
        },
    ];
    for _ in 0..3 {
        let p = 1 + rng.below(8);
        let m = 1 + rng.below(40);
        setups.push(Setup {
            partitions: p,
            arrays_per_partition: m,
            held: 1 + rng.below(2 * bufpool::pool::kept_per_bucket(p, m).expect("a small pool")),
            size: 1 + rng.below(5_000),
        });
    }
    for s in setups {
        for (id, v) in [
            ("cap-p", s.partitions),
            ("cap-m", s.arrays_per_partition),
            ("cap-k", s.held),
            ("cap-size", s.size),
        ] {
            Browser::type_into(&w, id, &v.to_string()).await?;
        }
        let want = run_rounds(s, 3).map_err(anyhow::Error::msg)?;
        no_error(&w, "cap-error").await?;
        reveal(
            &w,
            "cap-predict",
            &want.rounds[1].allocated_bytes.to_string(),
        )
        .await?;
        ensure!(
            num(&Browser::text(&w, "cap-capacity").await?)? == want.capacity,
            "{s:?}"
        );
        for r in &want.rounds {
            let n = r.round;
            let new = num(&Browser::text(&w, &format!("cap-r{n}-new")).await?)?;
            let bytes = num(&Browser::text(&w, &format!("cap-r{n}-bytes")).await?)?;
            let counted = num(&Browser::text(&w, &format!("cap-r{n}-counted")).await?)?;
            let kept = num(&Browser::text(&w, &format!("cap-r{n}-kept")).await?)?;
            ensure!(new == r.allocated_buffers, "{s:?} round {n}: {new} new");
            ensure!(bytes == r.allocated_bytes, "{s:?} round {n}: {bytes} bytes");
            // In the page the counting allocator sees exactly the new buffers.
            ensure!(
                counted == r.allocated_bytes,
                "{s:?} round {n}: counted {counted}"
            );
            ensure!(kept == r.kept_after_return, "{s:?} round {n}: kept {kept}");
        }
    }
    // Create()'s ceiling, both sides (K = 2 fits, so nothing is new from the second round on,
    // unless the size is not pooled at all).
    Browser::type_into(&w, "cap-p", "2").await?;
    Browser::type_into(&w, "cap-m", "8").await?;
    Browser::type_into(&w, "cap-k", "2").await?;
    Browser::type_into(&w, "cap-size", "1048576").await?;
    reveal(&w, "cap-predict", "0").await?;
    ensure!(Browser::text(&w, "cap-create").await?.starts_with("yes"));
    Browser::type_into(&w, "cap-size", "1048577").await?;
    reveal(&w, "cap-predict", "0").await?;
    ensure!(Browser::text(&w, "cap-create").await?.starts_with("no"));
    ensure!(Browser::text(&w, "cap-length").await? == "2,097,152");
    for (id, typed, says) in [
        ("cap-p", "0", "out of range"),
        ("cap-m", "-2", "is negative"),
        ("cap-k", "many", "not a number"),
        ("cap-k", "1000", "64 MiB"),
    ] {
        Browser::type_into(&w, "cap-p", "2").await?;
        Browser::type_into(&w, "cap-m", "8").await?;
        Browser::type_into(&w, "cap-k", "2").await?;
        Browser::type_into(&w, id, typed).await?;
        explains(&w, "cap-error", says, "cap-capacity").await?;
    }
    Browser::type_into(&w, "cap-k", "20").await?;
    no_error(&w, "cap-error").await?;
    let want = run_rounds(
        Setup {
            partitions: 2,
            arrays_per_partition: 8,
            held: 20,
            size: 1_048_577,
        },
        2,
    )
    .map_err(anyhow::Error::msg)?;
    reveal(
        &w,
        "cap-predict",
        &want.rounds[1].allocated_bytes.to_string(),
    )
    .await?;
    ensure!(Browser::text(&w, "cap-capacity").await? == "17");
    b.finish().await
}

#[tokio::test]
async fn rounds_step_through_fill_spill_and_trim() -> Result<()> {
    let b = Browser::start().await?;
    let w = b.open_widget(PAGE, "capacity").await?;
    let s = Setup {
        partitions: 2,
        arrays_per_partition: 3,
        held: 9,
        size: 100,
    };
    for (id, v) in [("cap-p", 2), ("cap-m", 3), ("cap-k", 9), ("cap-size", 100)] {
        Browser::type_into(&w, id, &v.to_string()).await?;
    }
    let (run, snaps) = wasm_lab::chapter::capacity::scenario::run_rounds_traced(s, 3)
        .map_err(anyhow::Error::msg)?;
    let want: Vec<String> = wasm_lab::chapter::capacity::view::steps(&snaps, &s, run.buffer_length)
        .iter()
        .map(|st| st.pool.as_ref().map(|p| p.signature()).unwrap_or_default())
        .collect();
    reveal(
        &w,
        "cap-predict",
        &run.rounds[1].allocated_bytes.to_string(),
    )
    .await?;
    // The widget opens after round 1's return (the pool full, the spill dropped).
    let n = want.len();
    ensure!(step_at(&w, "cap-steps").await? == 1);
    common::click(&Browser::find(&w, "cap-steps-first").await?).await?;
    for (i, native) in want.iter().enumerate() {
        shows_step(&w, "cap-steps", i, native).await?;
        if i == 1 {
            common::screenshot(&Browser::find(&w, "cap-steps").await?, "capacity-step-2").await?;
        }
        if i + 1 < n {
            Browser::find(&w, "cap-steps")
                .await?
                .send_keys(Key::Right)
                .await?;
        }
    }
    // 1 + 2 × 3 = 7 kept, 2 dropped on each return.
    ensure!(
        want[1].ends_with("2 buffers dropped at this step"),
        "{}",
        want[1]
    );
    b.finish().await
}

/// The number of buffers held at once has a slider: dragging it sets the field and reruns the
/// pool, as typing does.
#[tokio::test]
async fn the_held_buffers_follow_the_slider() -> Result<()> {
    let (b, w) = common::shared_widget("capacity.html", "capacity").await?;
    let slider = Browser::find(&w, "cap-k-slider").await?;
    slider.scroll_into_view().await?;
    let before = Browser::find(&w, "cap-k").await?.prop("value").await?;
    slider.click().await?;
    slider.send_keys(Key::Home).await?;
    let field = Browser::find(&w, "cap-k").await?.prop("value").await?;
    ensure!(
        field.as_deref() == Some("0"),
        "slider home set {field:?} (was {before:?})"
    );
    slider.send_keys(Key::End).await?;
    let field = Browser::find(&w, "cap-k").await?.prop("value").await?;
    ensure!(field.as_deref() == Some("600"), "slider end set {field:?}");
    b.finish().await
}
