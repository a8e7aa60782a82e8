// Search for the Russian and Thai sites (issue 24). mdBook's search keeps only ASCII letters of a
// word, in its index and in its query, so a Cyrillic or Thai word is never found; those sites
// turn it off (`xtask/src/site.rs`) and use this one. The build writes `lab-search.json` per
// language (`xtask/src/search.rs`): every section of every page, its heading and its text as the
// reader sees it. This script loads it on the first search and matches each word of the query as a
// substring of a section, case-folded (and ё as е): a Russian stem finds its inflected forms
// («бакет» finds «бакета»), and Thai, written without spaces, is split into words by the
// browser's `Intl.Segmenter` rather than by shipped dictionaries.
(function () {
    "use strict";
    if (document.getElementById("mdbook-search-toggle")) {
        return; // mdBook's own search serves this language.
    }
    const buttons = document.querySelector("#mdbook-menu-bar .left-buttons");
    const bar = document.getElementById("mdbook-menu-bar");
    if (!buttons || !bar) {
        return;
    }
    const lang = document.documentElement.lang || "en";
    const WORDS = {
        ru: {
            toggle: "Поиск",
            placeholder: "Поиск по книге…",
            results: function (n, q) {
                const m10 = n % 10, m100 = n % 100;
                const word = m10 === 1 && m100 !== 11 ? "результат"
                    : m10 >= 2 && m10 <= 4 && (m100 < 10 || m100 >= 20) ? "результата" : "результатов";
                return n + " " + word + " по запросу «" + q + "»";
            },
            none: function (q) { return "По запросу «" + q + "» ничего не найдено"; },
            failed: "Поиск не загрузился",
        },
        th: {
            toggle: "ค้นหา",
            placeholder: "ค้นหาในหนังสือ…",
            results: function (n, q) { return "พบ " + n + " ผลลัพธ์สำหรับ \"" + q + "\""; },
            none: function (q) { return "ไม่พบผลลัพธ์สำหรับ \"" + q + "\""; },
            failed: "โหลดการค้นหาไม่สำเร็จ",
        },
        en: {
            toggle: "Search",
            placeholder: "Search this book…",
            results: function (n, q) { return n + (n === 1 ? " result" : " results") + " for \"" + q + "\""; },
            none: function (q) { return "No results for \"" + q + "\""; },
            failed: "The search could not load",
        },
    };
    const t = WORDS[lang] || WORDS.en;

    const toggle = document.createElement("button");
    toggle.id = "lab-search-toggle";
    toggle.className = "icon-button";
    toggle.type = "button";
    toggle.title = t.toggle + " (/)";
    toggle.setAttribute("aria-label", t.toggle);
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", "lab-search");
    toggle.setAttribute("aria-keyshortcuts", "/ s");
    toggle.innerHTML = '<svg viewBox="0 0 512 512" width="1em" height="1em" aria-hidden="true"><path fill="currentColor" d="M416 208c0 45.9-14.9 88.3-40 122.7L502.6 457.4c12.5 12.5 12.5 32.8 0 45.3s-32.8 12.5-45.3 0L330.7 376c-34.4 25.2-76.8 40-122.7 40C93.1 416 0 322.9 0 208S93.1 0 208 0S416 93.1 416 208zM208 352a144 144 0 1 0 0-288 144 144 0 1 0 0 288z"/></svg>';
    buttons.appendChild(toggle);

    const panel = document.createElement("div");
    panel.id = "lab-search";
    panel.className = "lab-search";
    panel.hidden = true;
    panel.setAttribute("role", "search");
    panel.innerHTML = '<form class="searchbar-outer"><div class="search-wrapper">' +
        '<input type="search" id="lab-searchbar" autocomplete="off" data-testid="lab-search-input"></div></form>' +
        '<div class="searchresults-outer"><p class="searchresults-header" id="lab-search-header" aria-live="polite"></p>' +
        '<ul class="lab-search-results" id="lab-search-results" data-testid="lab-search-results"></ul></div>';
    bar.insertAdjacentElement("afterend", panel);
    const input = panel.querySelector("input");
    input.placeholder = t.placeholder;
    input.setAttribute("aria-label", t.placeholder);
    input.setAttribute("aria-controls", "lab-search-results");
    const header = panel.querySelector("#lab-search-header");
    const list = panel.querySelector("#lab-search-results");
    panel.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });

    let index = null;
    let loading = null;
    function load() {
        if (!loading) {
            loading = fetch(new URL(path_to_root + "lab-search.json", document.baseURI))
                .then(function (r) {
                    if (!r.ok) {
                        throw new Error(r.status);
                    }
                    return r.json();
                })
                .then(function (sections) {
                    index = sections.map(function (s) {
                        return { u: s.u, h: s.h, x: s.x, fh: fold(s.h), fx: fold(s.x) };
                    });
                });
        }
        return loading;
    }
    function fold(s) {
        return s.normalize("NFC").toLocaleLowerCase(lang).replace(/ё/g, "е");
    }
    const THAI = /[\u0E00-\u0E7F]/;
    // The query's words: whitespace splits, and a Thai run is split by the browser's segmenter.
    function terms(query) {
        const out = [];
        for (const part of fold(query).split(/\s+/)) {
            if (!part) {
                continue;
            }
            if (THAI.test(part) && typeof Intl !== "undefined" && Intl.Segmenter) {
                const seg = new Intl.Segmenter("th", { granularity: "word" });
                for (const s of seg.segment(part)) {
                    if (s.isWordLike) {
                        out.push(s.segment);
                    }
                }
            } else {
                out.push(part);
            }
        }
        return out;
    }
    function count(hay, needle) {
        let n = 0, at = hay.indexOf(needle);
        while (at !== -1) {
            n += 1;
            at = hay.indexOf(needle, at + needle.length);
        }
        return n;
    }
    function snippet(section, first) {
        const at = Math.max(0, section.fx.indexOf(first));
        const start = Math.max(0, at - 60);
        const text = section.x.slice(start, at + 140);
        const frag = document.createDocumentFragment();
        if (start > 0) {
            frag.append("…");
        }
        const rel = at - start;
        frag.append(text.slice(0, rel));
        const mark = document.createElement("mark");
        mark.textContent = text.slice(rel, rel + first.length);
        frag.append(mark, text.slice(rel + first.length), "…");
        return frag;
    }
    function search() {
        const query = input.value.trim();
        list.replaceChildren();
        if (!query) {
            header.textContent = "";
            return;
        }
        const words = terms(query);
        const found = [];
        for (const s of index) {
            let score = 0;
            let all = true;
            for (const w of words) {
                const n = count(s.fx, w) + 5 * count(s.fh, w);
                if (n === 0) {
                    all = false;
                    break;
                }
                score += n;
            }
            if (all && words.length > 0) {
                found.push([score, s]);
            }
        }
        found.sort(function (a, b) { return b[0] - a[0]; });
        header.textContent = found.length ? t.results(found.length, query) : t.none(query);
        for (const [, s] of found.slice(0, 30)) {
            const li = document.createElement("li");
            const a = document.createElement("a");
            a.href = path_to_root + s.u;
            a.textContent = s.h;
            const p = document.createElement("span");
            p.className = "teaser";
            p.append(snippet(s, words[0]));
            li.append(a, p);
            list.append(li);
        }
    }
    function open() {
        panel.hidden = false;
        toggle.setAttribute("aria-expanded", "true");
        input.focus();
        load().then(search, function () { header.textContent = t.failed; });
    }
    function close() {
        panel.hidden = true;
        toggle.setAttribute("aria-expanded", "false");
    }
    toggle.addEventListener("click", function () {
        if (panel.hidden) {
            open();
        } else {
            close();
        }
    });
    input.addEventListener("input", function () {
        if (index) {
            search();
        } else {
            load().then(search, function () { header.textContent = t.failed; });
        }
    });
    document.addEventListener("keydown", function (e) {
        const typing = e.target.closest && e.target.closest("input, textarea, select, [contenteditable]");
        if (e.key === "Escape" && !panel.hidden) {
            close();
            toggle.focus();
        } else if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey && (e.key === "/" || e.key === "s")) {
            e.preventDefault();
            open();
        }
    });
    // A search in the address bar (`?search=word`), as mdBook's search supports.
    const asked = new URLSearchParams(location.search).get("search");
    if (asked) {
        input.value = asked;
        open();
    }
})();
