//! Quiz progress in `localStorage`, read strictly (see [`crate::progress`]).
//!
//! Unreadable progress is moved aside under `<key>.unreadable` (never silently dropped) and the
//! quiz says so; without storage (private windows, blocked cookies) progress lives for the page.

use crate::progress::{Progress, STORAGE_KEY};

pub struct Store {
    storage: Option<web_sys::Storage>,
    /// The last progress seen; the only copy when the browser gives no storage.
    current: Progress,
}

impl Store {
    /// Opens the store, with a notice for the reader when saved progress had to be set aside.
    pub fn open() -> (Store, Option<String>) {
        let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
        let mut store = Store {
            storage,
            current: Progress::default(),
        };
        let (current, notice) = store.load();
        store.current = current;
        (store, notice)
    }

    pub fn current(&self) -> &Progress {
        &self.current
    }

    fn load(&self) -> (Progress, Option<String>) {
        let Some(storage) = &self.storage else {
            return (
                Progress::default(),
                Some("This browser does not let the page store progress: it lasts until you leave the page.".into()),
            );
        };
        let text = match storage.get_item(STORAGE_KEY) {
            Ok(Some(text)) => text,
            _ => return (Progress::default(), None),
        };
        match Progress::from_json(&text) {
            Ok(p) => (p, None),
            Err(e) => {
                let aside = format!("{STORAGE_KEY}.unreadable");
                let kept = storage.set_item(&aside, &text).is_ok();
                let _ = storage.remove_item(STORAGE_KEY);
                let where_ = if kept {
                    format!("a copy is kept under “{aside}”")
                } else {
                    "it could not be copied aside".into()
                };
                (
                    Progress::default(),
                    Some(format!("Your {e}; {where_}, and counting starts fresh.")),
                )
            }
        }
    }

    /// Changes progress after re-reading it, so two tabs add up instead of overwriting each other.
    pub fn update(&mut self, f: impl FnOnce(&mut Progress)) {
        if let Some(storage) = &self.storage {
            let (stored, _) = self.load();
            self.current = stored;
            f(&mut self.current);
            let _ = storage.set_item(STORAGE_KEY, &self.current.to_json());
        } else {
            f(&mut self.current);
        }
    }
}
