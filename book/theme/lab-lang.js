// The page's language (issue 24). The picker at the top of every chapter is plain links written
// at build time (`book/preprocessor/src/translate.rs`), so it works without scripts; this script
// adds what needs one: the reader's `#section` goes along to the other language (headings keep
// their English ids in every language), print.html keeps one picker instead of one per chapter,
// and mdBook's own buttons, which its template writes in English, are labelled in the page's
// language.
(function () {
    "use strict";
    const lang = document.documentElement.lang || "en";
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
    // mdBook's template labels, by element id and attribute, per translated language.
    const CHROME = {
        ru: {
            "mdbook-sidebar-toggle": "Оглавление",
            "mdbook-theme-toggle": "Сменить тему",
            "print": "Распечатать книгу",
            "previous": "Предыдущая глава",
            "next": "Следующая глава",
            "theme-list": "Темы",
        },
        th: {
            "mdbook-sidebar-toggle": "สารบัญ",
            "mdbook-theme-toggle": "เปลี่ยนธีม",
            "print": "พิมพ์หนังสือ",
            "previous": "บทก่อนหน้า",
            "next": "บทถัดไป",
            "theme-list": "ธีม",
        },
    };
    const words = CHROME[lang];
    if (!words) {
        return;
    }
    function label(el, text) {
        if (el) {
            el.setAttribute("title", text);
            el.setAttribute("aria-label", text);
        }
    }
    label(document.getElementById("mdbook-sidebar-toggle"), words["mdbook-sidebar-toggle"]);
    label(document.getElementById("mdbook-theme-toggle"), words["mdbook-theme-toggle"]);
    const themes = document.getElementById("mdbook-theme-list");
    if (themes) {
        themes.setAttribute("aria-label", words["theme-list"]);
    }
    document.querySelectorAll("a[href$='print.html']").forEach(function (a) {
        if (a.closest(".right-buttons")) {
            label(a, words.print);
        }
    });
    document.querySelectorAll("a.previous, a.nav-chapters.previous").forEach(function (a) {
        label(a, words.previous);
    });
    document.querySelectorAll("a.next, a.nav-chapters.next").forEach(function (a) {
        label(a, words.next);
    });
})();
