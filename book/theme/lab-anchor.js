// Links to a section below a widget (issue 16): the browser scrolls to the section when the
// page loads, then the widgets mount above it and push it down. When the lab is ready, this
// scrolls to the linked section again, unless the reader has scrolled since. A classic script
// (mdBook's additional-js), apart from lab-loader.js so either can change alone.
(function () {
    "use strict";
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id || !document.querySelector("[data-lab-widget], [data-lab-quiz]")) {
        return;
    }
    let moved = false;
    for (const e of ["wheel", "touchmove", "keydown", "mousedown"]) {
        addEventListener(e, () => { moved = true; }, { once: true, passive: true });
    }
    function land() {
        const target = document.getElementById(id);
        if (!moved && target) {
            target.scrollIntoView();
        }
    }
    const root = document.documentElement;
    if (root.hasAttribute("data-lab-ready")) {
        land();
        return;
    }
    const watch = new MutationObserver(() => {
        if (root.hasAttribute("data-lab-ready")) {
            watch.disconnect();
            // After the widgets' first layout.
            requestAnimationFrame(land);
        }
    });
    watch.observe(root, { attributes: true, attributeFilter: ["data-lab-ready"] });
})();
