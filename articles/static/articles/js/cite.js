// The "Cite this page" box is stored and cached (articles/citation.py), so the server cannot know the
// day it is read: the reader's browser puts its own today in the access line, the APA text's
// "Retrieved …" and BibTeX's urldate. Without JavaScript the version's date stands for it.
(function () {
  function isoDate(day) {
    var pad = function (n) { return String(n).padStart(2, "0"); };
    return day.getFullYear() + "-" + pad(day.getMonth() + 1) + "-" + pad(day.getDate());
  }

  function fill(box) {
    var today = new Date();
    var lang = document.documentElement.lang || "en";
    var shown = new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(today);
    var access = box.querySelector(".cite-access");
    if (access) {
      var time = document.createElement("time");
      time.dateTime = isoDate(today);
      time.textContent = shown;
      access.replaceChildren(time);
    }
    box.querySelectorAll(".cite-retrieved").forEach(function (node) {
      node.dateTime = isoDate(today);
      node.textContent = shown;
    });
    box.querySelectorAll(".cite-urldate").forEach(function (node) {
      node.textContent = isoDate(today);
    });
  }

  function start() {
    document.querySelectorAll("section.cite-box").forEach(fill);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
