//! `ARCHITECTURE.md` stays true: every path it names exists. A test, not a command: the map is
//! read by people, and a renamed file must not leave it pointing nowhere.

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    /// Every file and folder of the repository, as `/`-separated paths from the root.
    fn tree(root: &Path) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut dirs = vec![root.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let path = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if [".git", "target", "node_modules", "build"].contains(&name.as_str()) {
                    continue;
                }
                let rel = path.strip_prefix(root).unwrap_or(&path);
                out.insert(rel.to_string_lossy().replace('\\', "/"));
                if path.is_dir()
                    && !rel.starts_with("fuzz/corpus")
                    && !rel.starts_with("fuzz/artifacts")
                {
                    dirs.push(path);
                }
            }
        }
        out
    }

    /// The folders and files a build writes: `.gitignore`'s entries rooted with `/`, without
    /// wildcards.
    fn generated(root: &Path) -> Vec<String> {
        std::fs::read_to_string(root.join(".gitignore"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().strip_prefix('/'))
            .filter(|l| !l.contains('*'))
            .map(|l| l.trim_end_matches('/').to_string())
            .collect()
    }

    /// The code spans of `text` that name a path: a `/` or a file extension, no placeholders.
    fn named_paths(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (i, span) in text.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let span = span.trim_end_matches('/');
            let placeholder = span.chars().any(|c| " <>*…{}#:=|()[],$&@!?\"'".contains(c));
            let has_ext = [".rs", ".md", ".toml", ".js", ".css", ".json", ".hbs"]
                .iter()
                .any(|x| span.ends_with(x));
            // Build output (`target/…`) and the system's own (`/proc`) are not the repository's.
            let elsewhere =
                span.starts_with("http") || span.starts_with("target/") || span.starts_with('/');
            let looks_like_path = (span.contains('/') || has_ext) && !elsewhere;
            if looks_like_path && !placeholder && !span.is_empty() {
                out.push(span.to_string());
            }
        }
        out
    }

    #[test]
    fn architecture_names_only_real_paths() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let tree = tree(&root);
        let generated = generated(&root);
        // A path may be written from the root or from the crate or folder its section is about:
        // it must be the end of a real path, or lie in a folder a build writes (`.gitignore`'s
        // rooted entries, e.g. `book/src/download`), which a fresh clone does not have yet.
        let missing: Vec<String> = named_paths(&text)
            .into_iter()
            .filter(|p| !tree.iter().any(|t| t == p || t.ends_with(&format!("/{p}"))))
            .filter(|p| {
                !generated
                    .iter()
                    .any(|g| p == g || p.starts_with(&format!("{g}/")))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "ARCHITECTURE.md names paths that do not exist: {missing:?}"
        );
    }

    #[test]
    fn the_check_finds_a_missing_path() {
        let spans =
            named_paths("see `wasm-lab/src/scenario/mod.rs` and `chapter/<name>/` and `a b`");
        assert_eq!(spans, ["wasm-lab/src/scenario/mod.rs"]);
    }
}
