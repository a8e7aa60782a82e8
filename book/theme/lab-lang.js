// The page's language (issue 24). The picker at the top of every chapter is plain links written
// at build time (`book/preprocessor/src/translate.rs`), so it works without scripts; this script
// adds what needs one: the reader's `#section` goes along to the other language (headings keep
// their English ids in every language), and print.html keeps one picker instead of one per
// chapter. mdBook's own buttons, which its template writes in English, are labelled in the
// page's language at build time (`book/preprocessor/src/chrome.rs`), with no script.
(function () {
    "use strict";
    document.addEventListener("click", function (event) {
        const link = event.target.closest && event.target.closest(".lab-lang a");
        if (link && location.hash && !link.hash) {
            link.hash = location.hash;
        }
    });
    const pickers = document.querySelectorAll(".lab-lang");
    if (/\/print\.html$/.test(location.pathname)) {
        pickers.forEach(function (p, i) {
            if (i > 0) {
                p.remove();
            }
        });
    }
})();
