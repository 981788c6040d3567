// The source form's "Title as readers see it" line (benchmarks/admin/source_title.py), redrawn as the
// editor types the publisher or the title.
(function () {
  "use strict";

  function start() {
    const preview = document.querySelector("[data-source-reader-title]");
    const publisher = document.getElementById("id_publisher");
    const title = document.getElementById("id_title_en");
    if (!preview || !publisher || !title) {
      return;
    }
    const output = preview.querySelector("output");
    const separator = preview.dataset.separator;
    const redraw = function () {
      output.textContent = [publisher.value.trim(), title.value.trim()].filter(Boolean).join(separator);
    };
    publisher.addEventListener("input", redraw);
    title.addEventListener("input", redraw);
    redraw();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
