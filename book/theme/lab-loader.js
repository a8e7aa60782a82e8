// Brings the lab's widgets and quizzes to life: loads the wasm build and mounts every
// `[data-lab-widget]` / `[data-lab-quiz]` in the page. A classic script (mdBook's additional-js),
// so the module is loaded with a dynamic import built from mdBook's `path_to_root`; that also
// works on print.html, where every chapter sits at the site root. No network beyond this site.
(function () {
    "use strict";
    const mounts = document.querySelectorAll("[data-lab-widget], [data-lab-quiz], [data-lab-progress]");
    if (mounts.length === 0) {
        return;
    }
    const base = new URL(path_to_root + "wasm/", document.baseURI);
    function fail(message) {
        for (const m of mounts) {
            const p = document.createElement("p");
            p.className = "lab-error";
            p.setAttribute("role", "alert");
            p.setAttribute("data-testid", "lab-failure");
            p.textContent = "The lab could not load: " + message +
                (location.protocol === "file:" ? " (open the book through `cargo xtask serve`: browsers do not load WebAssembly from file:// pages)" : "");
            m.replaceChildren(p);
        }
    }
    import(new URL("wasm_lab.js", base).href)
        .then(async (lab) => {
            await lab.default({ module_or_path: new URL("wasm_lab_bg.wasm", base) });
            lab.mountAll();
            document.documentElement.setAttribute("data-lab-ready", "");
        })
        .catch((e) => fail(e && e.message ? e.message : String(e)));
})();
