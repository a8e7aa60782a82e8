// Brings the lab's widgets and quizzes to life: loads the wasm modules the page needs and mounts
// every `[data-lab-widget]` / `[data-lab-quiz]` / `[data-lab-progress]` in it. The book ships one
// module per chapter (its widget and quiz) and one for the progress page (`xtask/src/site.rs`),
// so a page downloads only its own chapter's code; print.html, which holds every chapter, loads
// them all. A classic script (mdBook's additional-js), so each module is loaded with a dynamic
// import built from mdBook's `path_to_root`. No network beyond this site.
(function () {
    "use strict";
    // The code a quiz draws after load (a "does this compile?" snippet) is not on the page when
    // the build highlights the rest (`xtask/src/highlight.rs`), and the site ships no highlight.js
    // (issue 40): the quiz asks `hljs.highlightElement`, which colours Rust's comments, strings,
    // numbers, keywords, macros and types with the classes the build uses. `highlightBlock`, which
    // mdBook's book.js calls on the blocks already highlighted, stays a no-op.
    if (window.hljs && !window.hljs.highlightElement) {
        const TOKEN = /(\/\/[^\n]*)|("(?:\\.|[^"\\])*")|(\b\d[\d_]*(?:\.\d+)?(?:[iu](?:8|16|32|64|128|size)|f32|f64)?\b)|(\b(?:as|break|const|continue|crate|dyn|else|enum|false|fn|for|if|impl|in|let|loop|match|mod|move|mut|pub|ref|return|self|Self|static|struct|super|trait|true|type|unsafe|use|where|while)\b)|(\b[a-z_][a-z0-9_]*!)|(\b[A-Z][A-Za-z0-9_]*\b)/g;
        const CLASS = [null, "hljs-comment", "hljs-string", "hljs-number", "hljs-keyword", "hljs-built_in", "hljs-type"];
        window.hljs.highlightElement = function (code) {
            const text = code.textContent;
            const out = document.createDocumentFragment();
            let at = 0;
            for (const m of text.matchAll(TOKEN)) {
                out.append(text.slice(at, m.index));
                const span = document.createElement("span");
                span.className = CLASS[m.findIndex((g, i) => i > 0 && g !== undefined)];
                span.textContent = m[0];
                out.append(span);
                at = m.index + m[0].length;
            }
            out.append(text.slice(at));
            code.replaceChildren(out);
            code.classList.add("hljs");
        };
    }
    const mounts = document.querySelectorAll("[data-lab-widget], [data-lab-quiz], [data-lab-progress]");
    if (mounts.length === 0) {
        return;
    }
    // A mount point's module: its chapter's name, or "progress" (as `mountAll` in the wasm).
    function moduleOf(m) {
        return m.getAttribute("data-lab-widget") || m.getAttribute("data-lab-quiz") || "progress";
    }
    const byModule = new Map();
    for (const m of mounts) {
        const name = moduleOf(m);
        if (!byModule.has(name)) {
            byModule.set(name, []);
        }
        byModule.get(name).push(m);
    }
    // The failure line in the page's language (the lab itself could not load to say it).
    const FAILED = {
        en: ["The lab could not load: ", " (open the book through `cargo xtask serve`: browsers do not load WebAssembly from file:// pages)"],
        ru: ["Лаборатория не загрузилась: ", " (откройте книгу через `cargo xtask serve`: браузеры не загружают WebAssembly со страниц file://)"],
        th: ["แล็บโหลดไม่สำเร็จ: ", " (เปิดหนังสือผ่าน `cargo xtask serve`: เบราว์เซอร์ไม่โหลด WebAssembly จากหน้า file://)"],
    };
    function fail(list, message) {
        for (const m of list) {
            const p = document.createElement("p");
            p.className = "lab-error";
            p.setAttribute("role", "alert");
            p.setAttribute("data-testid", "lab-failure");
            const words = FAILED[document.documentElement.lang] || FAILED.en;
            p.textContent = words[0] + message + (location.protocol === "file:" ? words[1] : "");
            m.replaceChildren(p);
        }
    }
    const root = new URL(path_to_root + "wasm/", document.baseURI);
    const lang = document.documentElement.lang || "en";
    const loads = [];
    let failed = false;
    for (const [name, list] of byModule) {
        // Names come from the book's own directives; anything else gets no request at all.
        if (!/^[a-z][a-z-]*$/.test(name)) {
            fail(list, "this page names no lab module “" + name + "”");
            failed = true;
            continue;
        }
        const base = new URL(name + "/", root);
        loads.push(import(new URL("wasm_lab.js", base).href)
            .then(async (lab) => {
                await lab.default({ module_or_path: new URL("wasm_lab_bg.wasm", base) });
                // A translated page: its language's strings for this module, written at build
                // time (`xtask/src/i18n/lab.rs`), then numbers and plurals from the browser.
                if (lang !== "en") {
                    const strings = await fetch(new URL("strings." + lang + ".txt", base))
                        .then((r) => {
                            if (!r.ok) {
                                throw new Error("the lab's " + lang + " strings did not load (" + r.status + ")");
                            }
                            return r.text();
                        });
                    lab.setLanguage(lang, strings);
                }
                lab.mountAll(name);
            })
            .catch((e) => {
                failed = true;
                fail(list, e && e.message ? e.message : String(e));
            }));
    }
    // Ready once every module mounted; a page where one failed shows that failure instead.
    Promise.all(loads).then(() => {
        if (!failed) {
            document.documentElement.setAttribute("data-lab-ready", "");
        }
    });
})();
